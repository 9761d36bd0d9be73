// The searches of GET /v1/passes are served by indexes on PostgreSQL at a
// size where the planner prefers them to reading the table: 50,000 passes
// made with SQL (a big template and a small one interleaved), analyzed, and
// each filter's plan checked — the index named, no Seq Scan on the passes.
// (Planner settings are left as they are: enable_seqscan stays on.)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { explainListPasses } from '../../src/server/db/passes.js';
import type { PassFilter } from '../../src/server/db/passes.js';
import { ENGINES, type TestDatabase } from './databases.js';

const PASSES = 50_000;
const page = { limit: 50, direction: 'after', cursor: undefined } as const;

describe('search plans on postgres', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await ENGINES.find((engine) => engine.name === 'postgres')!.open();
    const { db } = database;
    await db.query(`insert into passmint_templates (id, template) values (1, '{}'), (2, '{}')`);
    // Every 100th pass is the small template's; values with a unique number, a tier of three, a name of 1,000.
    await db.query(
      `insert into passmint_passes (pass_type_identifier, serial_number, template_id, pass_values, pass, updated_at)
       select 'pass.com.example.plan', 'S-' || i, case when i % 100 = 0 then 2 else 1 end,
              json_build_object('number', 'N' || i, 'tier', (array['gold', 'silver', 'bronze'])[1 + i % 3], 'name', 'Name ' || (i % 1000)),
              json_build_object('serialNumber', 'S-' || i, 'authenticationToken', md5(i::text), 'padding', repeat('x', 200)),
              now() - (${PASSES} - i) * interval '1 minute'
         from generate_series(1, ${PASSES}) i`,
    );
    // Statistics from every row, not a random sample: the values index's selectivity comes from a histogram of
    // the expression, and a sample's 100 entries catching one 'Name 7' (1 %) or none (0.01 %) swung the plan.
    await db.query('alter index passmint_passes_values alter column 1 set statistics 10000');
    await db.query('analyze passmint_passes');
  }, 120_000);
  afterAll(async () => {
    await database?.dispose();
  });

  const plan = async (filter: PassFilter, query: { limit: number; direction: 'after' | 'before'; cursor: number | undefined } = page): Promise<string> =>
    (await explainListPasses(database.db, query, filter)).join('\n');

  test('the rows are there', async () => {
    expect((await database.db.query<{ n: number }>('select count(*)::int as n from passmint_passes'))[0]!.n).toBe(PASSES);
  });

  test.each([
    ['a small template', { templateId: 2 }, 'passmint_passes_template'],
    ['a small template, newest first', { templateId: 2 }, 'passmint_passes_template', { limit: 50, direction: 'before', cursor: 999_999_999 } as const],
    ['a unique value', { templateId: 1, values: [['number', 'N4242']] }, 'passmint_passes_values'],
    [
      'two values',
      {
        values: [
          ['number', 'N4243'],
          ['tier', 'gold'],
        ],
      },
      'passmint_passes_values',
    ],
    ['a value across templates', { values: [['name', 'Name 7']] }, 'passmint_passes_values'],
    ['a serial number', { serialNumber: 'S-777' }, 'passmint_passes_serial'],
    ['a recent change', { updatedSince: new Date(Date.now() - 30 * 60_000) }, 'passmint_passes_updated'],
  ] as [string, PassFilter, string, typeof page?][])('%s: %s', async (_name, filter, index, query) => {
    const text = await plan(filter, query);
    expect(text).toContain(index);
    expect(text).not.toMatch(/Seq Scan on passmint_passes/);
  });

  test('the big template and no filter: an index, not the table', async () => {
    for (const filter of [{ templateId: 1 }, {}, { templateId: 1, values: [['tier', 'gold']] }] as PassFilter[]) {
      expect(await plan(filter)).not.toMatch(/Seq Scan on passmint_passes/);
    }
  });

  test('the answers are right at this size', async () => {
    const { listPasses } = await import('../../src/server/db/passes.js');
    const small = await listPasses(database.db, { limit: 100, direction: 'after', cursor: undefined }, { templateId: 2 });
    expect(small.map((record) => record.serialNumber).slice(0, 3)).toEqual(['S-100', 'S-200', 'S-300']);
    const found = await listPasses(database.db, page, { values: [['number', 'N4242']] });
    expect(found.map((record) => record.serialNumber)).toEqual(['S-4242']);
  });
});
