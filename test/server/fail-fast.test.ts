// Failing fast when the database is slow (issue 28), in one process on both
// engines: a statement that cannot have a connection within `waitMs`, or
// finds `maxWaiting` statements waiting already, fails without running, and a
// statement past PostgreSQL's statement_timeout is cancelled; each is
// answered 503 database-unavailable with Retry-After, and nothing is logged
// as an error. PostgreSQL: a table locked by another connection. PGlite (one
// statement at a time, in this thread, which nothing can interrupt): a
// transaction held open. The process-level measurement (a `passmint serve`
// child, a 60-second lock, open files) is fail-fast-serve.test.ts.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createConnectionGate } from '../../src/server/db/connection-gate.js';
import { DatabaseBusyError, isDatabaseUnavailable } from '../../src/server/db/database-errors.js';
import { openPglite } from '../../src/server/db/pglite.js';
import { openPostgres } from '../../src/server/db/postgres.js';
import { migrate } from '../../src/server/db/schema.js';
import type { SqlDatabase } from '../../src/server/db/sql.js';
import { createPostgresDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

describe('the connection gate', () => {
  test('a statement past maxWaiting fails at once, one past waitMs fails then; neither runs; the line moves on', async () => {
    const gate = createConnectionGate({ permits: 1, waitMs: 50, maxWaiting: 2 });
    let release!: () => void;
    const holding = gate.run(() => new Promise<void>((resolve) => (release = resolve)));
    const ran: string[] = [];
    const waiting = [gate.run(async () => ran.push('a')), gate.run(async () => ran.push('b'))];
    expect(gate.waiting).toBe(2);
    let refused: unknown;
    gate.run(async () => ran.push('c')).catch((error: unknown) => (refused = error));
    // Refused before any timer could fire: a few turns of the microtask queue.
    for (let turn = 0; turn < 5; turn++) await Promise.resolve();
    expect(refused).toBeInstanceOf(DatabaseBusyError);
    expect(isDatabaseUnavailable(refused)).toBe(true);
    const outcomes = await Promise.allSettled(waiting);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect((outcomes[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'database-busy', message: 'no database connection was free within 50 ms' });
    expect(gate.waiting).toBe(0);
    release();
    await holding;
    expect(await gate.run(async () => 'free again')).toBe('free again');
    expect(ran).toEqual([]);
  });

  test('without a bound a statement waits its turn, first come first served', async () => {
    const gate = createConnectionGate({ permits: 2 });
    const order: number[] = [];
    let open!: () => void;
    const gateOpen = new Promise<void>((resolve) => (open = resolve));
    const runs = Array.from({ length: 6 }, (_, index) =>
      gate.run(async () => {
        if (index < 2) await gateOpen;
        order.push(index);
      }),
    );
    expect(gate.waiting).toBe(4);
    open();
    await Promise.all(runs);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

const template = {
  name: 'Ticket',
  formatVersion: 1,
  passType: 'pass.com.example.slow',
  description: { generic: { primaryFields: [{ key: 'seat', value: '${seat}' }] } },
  placeholder: ['seat'],
};

/** Fires `count` requests at once (creates and lists, alternately); each one's status, code, Retry-After and time to answer. */
async function storm(service: Service, templateId: number, count: number, tag: string) {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const started = performance.now();
      const answer =
        index % 2 === 0
          ? await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { seat: `${tag}-${index}` }, serialNumber: `${tag}-${index}` })
          : await service.call('GET', `/v1/passes?templateId=${templateId}&limit=10`);
      return {
        status: answer.status,
        code: answer.body?.code as string | undefined,
        retryAfter: answer.headers.get('retry-after'),
        ms: performance.now() - started,
      };
    }),
  );
}

describe('fail fast on PostgreSQL: a table locked by another connection', () => {
  let database: { url: string; drop: () => Promise<void> };
  let db: SqlDatabase;
  let service: Service;
  let locker: pg.Client | undefined;
  let templateId: number;
  const logged: unknown[] = [];

  beforeAll(async () => {
    database = await createPostgresDatabase();
    // Two connections, a second's statement timeout, 200 ms of waiting for a connection, four waiting at most.
    db = await openPostgres({ connectionString: database.url, max: 2, statementTimeoutMs: 1000, waitMs: 200, maxWaiting: 4 });
    await migrate(db);
    service = await startService({ db, url: database.url, dispose: async () => undefined }, { workers: false, onError: (error) => logged.push(error) });
    templateId = (await service.call('POST', '/v1/templates', template)).body.id as number;
    expect((await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { seat: '1A' }, serialNumber: 'S-0' })).status).toBe(201);
  });
  afterEach(async () => {
    await locker?.end();
    locker = undefined;
  });
  afterAll(async () => {
    await service?.close();
    await db?.close();
    await database?.drop();
  });

  test('every request is answered 503 database-unavailable with Retry-After within the bound; after the lock, each works again', async () => {
    locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    await locker.query('begin');
    await locker.query('lock table passmint_passes in access exclusive mode');
    const answers = await storm(service, templateId, 16, 'L');
    for (const answer of answers) {
      expect([answer.status, answer.code, answer.retryAfter]).toEqual([503, 'database-unavailable', '5']);
      // Statement timeout (1 s) + connection wait (0.2 s), and a second for a loaded machine.
      expect(answer.ms).toBeLessThan(2200);
    }
    expect(logged).toEqual([]);
    // The statement that ran into the lock was cancelled by the server, not left waiting: the lock holder sees no one queued.
    const waiters = await locker.query<{ n: number }>(`select count(*)::int as n from pg_locks where relation = 'passmint_passes'::regclass and not granted`);
    expect(waiters.rows[0]!.n).toBe(0);
    await locker.query('rollback');
    const after = await storm(service, templateId, 4, 'A');
    expect(after.map((answer) => answer.status).sort()).toEqual([200, 200, 201, 201]);
    expect((await db.query<{ n: number }>(`select count(*)::int as n from passmint_passes where serial_number like 'L-%'`))[0]!.n).toBe(0);
  });

  test('a statement past statement_timeout is cancelled (57014), recognised as unavailable, and its connection kept', async () => {
    const started = performance.now();
    const error = await db.query('select pg_sleep(5)').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: '57014' });
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(performance.now() - started).toBeLessThan(4000);
    // In a transaction too: rolled back, the connection given back and used again.
    const inTransaction = await db.transaction((tx) => tx.query('select pg_sleep(5)')).catch((caught: unknown) => caught);
    expect(inTransaction).toMatchObject({ code: '57014' });
    expect(await db.query<{ one: number }>('select 1 as one')).toEqual([{ one: 1 }]);
  });
});

describe('fail fast on PGlite: the database held by a long transaction', () => {
  let db: SqlDatabase;
  let service: Service;
  let templateId: number;
  const logged: unknown[] = [];

  beforeAll(async () => {
    db = await openPglite({ waitMs: 200, maxWaiting: 4 });
    await migrate(db);
    service = await startService({ db, url: undefined, dispose: async () => undefined }, { workers: false, onError: (error) => logged.push(error) });
    templateId = (await service.call('POST', '/v1/templates', template)).body.id as number;
    expect((await service.call('POST', `/v1/templates/${templateId}/passes`, { values: { seat: '1A' }, serialNumber: 'S-0' })).status).toBe(201);
  });
  afterAll(async () => {
    await service?.close();
    await db?.close();
  });

  test('every request waiting behind it is answered 503 database-unavailable with Retry-After within the wait; after it, each works again', async () => {
    let finish!: () => void;
    const held = db.transaction(async (tx) => {
      await tx.query('select 1');
      await new Promise<void>((resolve) => (finish = resolve));
    });
    const answers = await storm(service, templateId, 16, 'L');
    for (const answer of answers) {
      expect([answer.status, answer.code, answer.retryAfter]).toEqual([503, 'database-unavailable', '5']);
      // The wait (0.2 s), and a second for a loaded machine.
      expect(answer.ms).toBeLessThan(1200);
    }
    expect(logged).toEqual([]);
    finish();
    await held;
    const after = await storm(service, templateId, 4, 'A');
    expect(after.map((answer) => answer.status).sort()).toEqual([200, 200, 201, 201]);
    expect((await db.query<{ n: number }>(`select count(*)::int as n from passmint_passes where serial_number like 'L-%'`))[0]!.n).toBe(0);
  });
});
