// The filters of GET /v1/audit are served by indexes on PostgreSQL at a size where the planner
// prefers them to reading the table: 100,000 entries made with SQL (many actions, actors and
// targets, a minute apart), analyzed, and each filter's plan checked — no Seq Scan of the log;
// a rare value read through its own index; a common one (an action of every twentieth entry) may
// walk the log newest first and stop at the page. (Planner settings are left as they are.)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type AuditFilter, explainListAudit, listAudit } from '../../src/server/db/audit.js';
import { ENGINES, type TestDatabase } from './databases.js';

const ENTRIES = 100_000;
const newest = { limit: 50, direction: 'before', cursor: undefined } as const;
const oldest = { limit: 50, direction: 'after', cursor: undefined } as const;
const start = Date.now() - ENTRIES * 60_000;
const minute = (i: number): Date => new Date(start + i * 60_000);

describe('audit log plans on postgres', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await ENGINES.find((engine) => engine.name === 'postgres')!.open();
    // 20 actions, 500 actors, 10,000 targets; entry i at start + i minutes.
    await database.db.query(
      `insert into passmint_audit (at, actor_id, actor_name, via, address, action, target, status)
       select to_timestamp($1::double precision / 1000) + i * interval '1 minute', 'key-' || (i % 500), 'name', 'key', '127.0.0.1',
              'action.' || (i % 20), '/v1/templates/' || (i % 10000), 200
         from generate_series(1, ${ENTRIES}) i`,
      [start],
    );
    // A rare action: five revocations among them.
    await database.db.query(
      `insert into passmint_audit (actor_id, actor_name, via, action, target, status) select 'key-1', 'name', 'key', 'key.revoke', '/v1/keys/' || i, 204 from generate_series(1, 5) i`,
    );
    await database.db.query('analyze passmint_audit');
  }, 120_000);
  afterAll(async () => {
    await database?.dispose();
  });

  test.each([
    ['an action', { action: 'action.7' }, /passmint_audit_(action|pkey)/],
    ['a rare action', { action: 'key.revoke' }, /passmint_audit_action/],
    ['an actor', { actor: 'key-42' }, /passmint_audit_actor/],
    ['a target', { target: '/v1/templates/4242' }, /passmint_audit_target/],
    ['a day long ago', { from: minute(1000), to: minute(2440) }, /passmint_audit_at/],
    ['since a time', { from: minute(ENTRIES - 100) }, /passmint_audit_at/],
    ['an action in a day', { action: 'action.3', from: minute(5000), to: minute(6440) }, /passmint_audit_at/],
  ] as [string, AuditFilter, RegExp][])('%s', async (_name, filter, index) => {
    for (const query of [newest, oldest]) {
      const plan = (await explainListAudit(database.db, filter, query)).join('\n');
      expect(plan, plan).toMatch(index);
      expect(plan, plan).not.toContain('Seq Scan');
    }
  });

  test('a day long ago answers exactly its entries, in order', async () => {
    const items = await listAudit(database.db, { from: minute(1000), to: minute(1010) }, oldest);
    expect(items.map((item) => item.time.getTime())).toEqual(Array.from({ length: 10 }, (_, i) => start + (1000 + i) * 60_000));
    const actions = await listAudit(database.db, { action: 'action.3', from: minute(5000), to: minute(5100) }, newest);
    expect(actions.map((item) => item.action)).toEqual(Array.from({ length: 5 }, () => 'action.3'));
  });
});
