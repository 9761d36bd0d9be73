import pg from 'pg';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createRetention } from '../../src/server/queue/retention.js';
import { ENGINES, type TestDatabase } from './databases.js';

const HOOK = '00000000-0000-4000-8000-000000000001';

/** An event `daysAgo` old with one delivery per given status, each with `attempts` attempts. */
async function addEvent(database: TestDatabase, seq: number, daysAgo: number, deliveries: readonly string[], attempts = 2): Promise<void> {
  const { db } = database;
  await db.query(`insert into passmint_events (seq, id, type, body, created_at) values ($1, $2, 'pass.updated', '{}', now() - $3 * interval '1 day')`, [
    seq,
    crypto.randomUUID(),
    daysAgo,
  ]);
  for (const [index, status] of deliveries.entries()) {
    const webhook = index === 0 ? HOOK : crypto.randomUUID();
    if (index > 0) await db.query(`insert into passmint_webhooks (id, url, secret, state) values ($1, 'https://example.com/', 's', 'enabled')`, [webhook]);
    const [delivery] = await db.query<{ id: number }>(`insert into passmint_deliveries (event_seq, webhook_id, status) values ($1, $2, $3) returning id`, [
      seq,
      webhook,
      status,
    ]);
    for (let attempt = 0; attempt < attempts; attempt++) {
      await db.query(`insert into passmint_attempts (delivery_id, outcome, duration_ms) values ($1, 'retry', 5)`, [delivery!.id]);
    }
  }
}

const NOTHING = { events: 0, deliveries: 0, attempts: 0, pushes: 0, googleMessages: 0, idempotencyKeys: 0, jobResults: 0, jobs: 0, audit: 0 };

const count = async (database: TestDatabase, table: string): Promise<number> =>
  (await database.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;

describe.each(ENGINES)('retention ($name)', (engine) => {
  let database: TestDatabase;

  beforeEach(async () => {
    database = await engine.open();
    await database.db.query(`insert into passmint_webhooks (id, url, secret, state) values ($1, 'https://example.com/', 's', 'enabled')`, [HOOK]);
  });

  afterEach(async () => {
    await database?.dispose();
  });

  test('deletes events older than the limit whose deliveries all ended, with their deliveries and attempts, in bounded batches; keeps pending and recent ones', async () => {
    await addEvent(database, 1, 40, ['delivered', 'failed', 'cancelled']); // old, ended: goes (3 deliveries, 6 attempts)
    await addEvent(database, 2, 40, []); // old, no registration: goes
    await addEvent(database, 3, 40, ['delivered', 'pending']); // old, one still pending: stays
    await addEvent(database, 4, 5, ['delivered']); // recent: stays
    await addEvent(database, 5, 31, ['delivered'], 3); // just past 30 days: goes (1 delivery, 3 attempts)
    const entries: unknown[] = [];
    const retention = createRetention(database.db, { days: 30, batchSize: 2, log: (entry) => entries.push(entry) });
    expect(await retention.runOnce()).toEqual({ ...NOTHING, events: 3, deliveries: 4, attempts: 9 });
    expect((await database.db.query<{ seq: number }>('select seq from passmint_events order by seq')).map((row) => row.seq)).toEqual([3, 4]);
    expect(await count(database, 'passmint_deliveries')).toBe(3);
    expect(await count(database, 'passmint_attempts')).toBe(6);
    expect(entries).toEqual([expect.objectContaining({ type: 'retention', events: 3, deliveries: 4, attempts: 9 })]);
    // Nothing more is due: a second round deletes nothing and logs nothing.
    expect(await retention.runOnce()).toEqual(NOTHING);
    expect(entries).toHaveLength(1);
  });

  test('deletes APNs pushes that ended and were last due before the limit, and Google messages older than the limit; keeps pending pushes and recent rows', async () => {
    const push = (status: string, daysAgo: number) =>
      database.db.query(
        `insert into passmint_pushes (push_token, topic, status, next_attempt_at) values ('t', 'pass.example', $1, now() - $2 * interval '1 day')`,
        [status, daysAgo],
      );
    await push('sent', 40); // goes
    await push('gone', 40); // goes
    await push('failed', 31); // goes
    await push('pending', 40); // still owed: stays
    await push('sent', 2); // recent: stays
    const message = (id: string, daysAgo: number) =>
      database.db.query(
        `insert into passmint_google_messages (message_id, object_id, body, status, sent_at) values ($1, 'o', 'b', 'sent', now() - $2 * interval '1 day')`,
        [id, daysAgo],
      );
    await message('m-old', 40); // goes
    await message('m-old-2', 35); // goes
    await message('m-new', 0.5); // within the day Google counts: stays
    const entries: unknown[] = [];
    const retention = createRetention(database.db, { days: 30, batchSize: 2, log: (entry) => entries.push(entry) });
    expect(await retention.runOnce()).toEqual({ ...NOTHING, pushes: 3, googleMessages: 2 });
    expect((await database.db.query<{ status: string }>('select status from passmint_pushes order by status')).map((row) => row.status)).toEqual([
      'pending',
      'sent',
    ]);
    expect((await database.db.query<{ message_id: string }>('select message_id from passmint_google_messages')).map((row) => row.message_id)).toEqual([
      'm-new',
    ]);
    expect(entries).toEqual([expect.objectContaining({ type: 'retention', pushes: 3, googleMessages: 2 })]);
  });

  test('0 days keeps everything', async () => {
    await addEvent(database, 1, 400, ['delivered']);
    expect(await createRetention(database.db, { days: 0 }).runOnce()).toEqual(NOTHING);
    expect(await count(database, 'passmint_events')).toBe(1);
  });
});

describe('retention across processes (postgres)', () => {
  let database: TestDatabase;

  beforeEach(async () => {
    database = await ENGINES.find((engine) => engine.name === 'postgres')!.open();
    await database.db.query(`insert into passmint_webhooks (id, url, secret, state) values ($1, 'https://example.com/', 's', 'enabled')`, [HOOK]);
  });

  afterEach(async () => {
    await database?.dispose();
  });

  test('while another process holds the retention lock, a round deletes nothing', async () => {
    await addEvent(database, 1, 40, ['delivered']);
    const other = new pg.Client({ connectionString: database.url! });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock($1)', [0x7061_7372]);
      const retention = createRetention(database.db, { days: 30 });
      expect(await retention.runOnce()).toEqual(NOTHING);
      expect(await count(database, 'passmint_events')).toBe(1);
      await other.query('select pg_advisory_unlock($1)', [0x7061_7372]);
      expect(await retention.runOnce()).toEqual({ ...NOTHING, events: 1, deliveries: 1, attempts: 2 });
    } finally {
      await other.end();
    }
  });
});
