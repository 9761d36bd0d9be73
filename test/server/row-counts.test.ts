// The counts /metrics reads (issue 28: a scrape must not count(*) a table):
// kept by statement triggers as rows change, they equal a count of the rows
// after inserts, claims, state changes, deletes (retention, cascades) and a
// truncate; a backend's rows are folded into shard 0 once it is gone.
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readQueueFigures } from '../../src/server/db/figures.js';
import { readRowCounts } from '../../src/server/db/row-counts.js';
import { ENGINES, type TestDatabase } from './databases.js';

const HOOK = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

/** The counts as a count(*) of the rows gives them, by the names the triggers keep. */
async function counted(database: TestDatabase): Promise<Record<string, number>> {
  const rows = await database.db.query<{ name: string; n: number }>(
    `select 'deliveries:' || status as name, count(*)::int as n from passmint_deliveries group by status
     union all select 'deliveries:parked', count(*)::int from passmint_deliveries where status = 'pending' and next_attempt_at = 'infinity'
     union all select 'pushes:' || status, count(*)::int from passmint_pushes group by status
     union all select 'google:owed', count(*)::int from passmint_google_jobs where wanted > done
     union all select 'google:retrying', count(*)::int from passmint_google_jobs where wanted > done and attempts > 0`,
  );
  return Object.fromEntries(rows.filter((row) => row.n > 0).map((row) => [row.name, row.n]));
}

async function kept(database: TestDatabase): Promise<Record<string, number>> {
  return Object.fromEntries([...(await readRowCounts(database.db))].filter(([, n]) => n !== 0));
}

describe.each(ENGINES)('counts kept as the rows change ($name)', (engine) => {
  let database: TestDatabase;

  beforeEach(async () => {
    database = await engine.open();
    const { db } = database;
    await db.query(
      `insert into passmint_webhooks (id, url, secret, state) values ($1, 'https://example.com/a', 's', 'enabled'), ($2, 'https://example.com/b', 's', 'enabled')`,
      [HOOK, OTHER],
    );
    await db.query(
      `insert into passmint_events (seq, id, type, body, created_at)
       select g, gen_random_uuid(), 'pass.updated', json_build_object('data', json_build_object('passTypeIdentifier', 'pass.example', 'serialNumber', 'S' || (g % 7)))::text,
              now() - (g || ' days')::interval
         from generate_series(1, 60) g`,
    );
  });

  afterEach(async () => {
    await database?.dispose();
  });

  test('deliveries, pushes and Google jobs: after inserts, claims, state changes, deletes and a truncate, the kept counts are the rows’ counts', async () => {
    const { db } = database;
    await db.query(`insert into passmint_deliveries (event_seq, webhook_id, status) select g, $1, 'pending' from generate_series(1, 60) g`, [HOOK]);
    await db.query(`insert into passmint_deliveries (event_seq, webhook_id, status) select g, $1, 'pending' from generate_series(1, 20) g`, [OTHER]);
    expect(await kept(database)).toEqual(await counted(database));
    // A claim changes no state: nothing written.
    await db.query(`update passmint_deliveries set locked_until = now() + interval '1 minute', lease = gen_random_uuid() where event_seq <= 30`);
    await db.query(`update passmint_deliveries set status = 'delivered', locked_until = null where event_seq <= 10 and webhook_id = $1`, [HOOK]);
    await db.query(`update passmint_deliveries set status = 'failed' where event_seq between 11 and 15`);
    await db.query(`update passmint_deliveries set status = 'cancelled' where webhook_id = $1 and status = 'pending'`, [OTHER]);
    await db.query(`delete from passmint_deliveries where event_seq between 1 and 3`);
    // Cascades: a registration deleted takes its deliveries.
    await db.query(`delete from passmint_webhooks where id = $1`, [OTHER]);
    await db.query(
      `insert into passmint_pushes (push_token, topic, status) select 't' || g, 'pass.example', case when g % 3 = 0 then 'sent' else 'pending' end from generate_series(1, 9) g`,
    );
    await db.query(`update passmint_pushes set status = 'gone' where push_token = 't1'`);
    await db.query(
      `insert into passmint_google_jobs (kind, pass_type_identifier, serial_number, wanted, done, attempts) select 'object', 'pass.example', 'S' || g, 1, case when g > 4 then 1 else 0 end, case when g = 1 then 2 else 0 end from generate_series(1, 6) g`,
    );
    await db.query(`update passmint_google_jobs set done = wanted where serial_number = 'S2'`);
    const expected = await counted(database);
    expect(expected).toMatchObject({
      'deliveries:delivered': 7,
      'deliveries:failed': 5,
      'deliveries:pending': 45,
      'pushes:pending': 5,
      'pushes:sent': 3,
      'pushes:gone': 1,
      'google:owed': 3,
      'google:retrying': 1,
    });
    expect(await kept(database)).toEqual(expected);
    await db.exec('truncate passmint_pushes');
    expect((await kept(database))['pushes:pending']).toBeUndefined();
    expect(await kept(database)).toEqual(await counted(database));
  });

  test('the /metrics figures: by state from the kept counts; due now is pending less those parked or scheduled for a retry', async () => {
    const { db } = database;
    // Events of twelve passes: one delivery each, none waiting behind another of its pass.
    await db.query(
      `insert into passmint_events (seq, id, type, body) select 100 + g, gen_random_uuid(), 'pass.updated',
         json_build_object('data', json_build_object('passTypeIdentifier', 'pass.example', 'serialNumber', 'P' || g))::text from generate_series(1, 12) g`,
    );
    await db.query(`insert into passmint_deliveries (event_seq, webhook_id, status) select 100 + g, $1, 'pending' from generate_series(1, 12) g`, [HOOK]);
    await db.query(`update passmint_deliveries set next_attempt_at = now() + interval '5 minutes' where event_seq <= 102`);
    // Parked: waiting for an earlier delivery of its pass.
    await db.query(`update passmint_deliveries set next_attempt_at = 'infinity' where event_seq between 103 and 105`);
    await db.query(`update passmint_deliveries set next_attempt_at = now() - interval '10 seconds' where event_seq = 106`);
    await db.query(`update passmint_deliveries set status = 'delivered' where event_seq >= 111`);
    const figures = await readQueueFigures(db);
    expect(figures.queue.pending).toBe(10);
    expect(figures.queue.due).toBe(5);
    expect(figures.queue.oldest).toBeGreaterThanOrEqual(10);
    expect(figures.deliveries).toEqual([
      { status: 'pending', n: 10 },
      { status: 'delivered', n: 2 },
      { status: 'failed', n: 0 },
      { status: 'cancelled', n: 0 },
    ]);
    expect(figures.pushes.every((row) => row.n === 0)).toBe(true);
    expect(figures.google).toEqual({ owed: 0, retrying: 0 });
  });
});

describe('counts of a connection that is gone (postgres)', () => {
  const postgres = ENGINES.find((engine) => engine.name === 'postgres')!;
  let database: TestDatabase;

  beforeEach(async () => {
    database = await postgres.open();
    await database.db.query(`insert into passmint_pushes (push_token, topic, status) select 't' || g, 'pass.example', 'pending' from generate_series(1, 4) g`);
  });

  afterEach(async () => {
    await database?.dispose();
  });

  test('are folded into shard 0 by the next read, which returns the same sums', async () => {
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    const [{ pid }] = (await other.query<{ pid: number }>('select pg_backend_pid() as pid')).rows as [{ pid: number }];
    await other.query(`insert into passmint_pushes (push_token, topic, status) select 'u' || g, 'pass.example', 'sent' from generate_series(1, 3) g`);
    const shards = async (): Promise<number[]> =>
      (await database.db.query<{ shard: number }>(`select shard from passmint_row_counts where name = 'pushes:sent'`)).map((row) => row.shard);
    expect(await shards()).toEqual([pid]);
    await other.end();
    // The backend is gone once pg_stat_activity no longer shows it.
    for (let tries = 0; tries < 100; tries++) {
      const [row] = await database.db.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where pid = $1', [pid]);
      if (row!.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(Object.fromEntries(await readRowCounts(database.db))).toEqual({ 'pushes:pending': 4, 'pushes:sent': 3 });
    expect(await shards()).toEqual([0]);
    expect(Object.fromEntries(await readRowCounts(database.db))).toEqual({ 'pushes:pending': 4, 'pushes:sent': 3 });
  });
});
