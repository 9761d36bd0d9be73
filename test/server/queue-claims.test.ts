// Every durable queue (webhook deliveries, APNs pushes, Google Wallet syncs)
// follows one claim discipline: its table is a kind in QUEUE_KINDS, so a starting
// process frees the claims of processes that are gone (and not of one that
// may not have connected again since the server restarted); and a claim whose
// answer was lost with the connection is freed by the worker that made it
// once the database answers again, instead of waiting out its lease.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readGoogleCredentials } from '../../src/google/credentials.js';
import { QUEUE_KINDS, releaseClaimsAtStart, releaseOrphanedClaims } from '../../src/server/queue/queue.js';
import type { SqlDatabase } from '../../src/server/db/sql.js';
import { createCallbackSigner, startGoogleStandIn, type GoogleStandIn } from '../google/stand-in.js';
import { testServiceAccount } from '../google/keys.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { eventually } from './receiver.js';

const postgres = ENGINES.find((engine) => engine.name === 'postgres')!;

describe('the queue tables', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await postgres.open();
  });

  afterAll(async () => {
    await database?.dispose();
  });

  test('every table with claims (a claimed_by column) is a kind in QUEUE_KINDS, so a start frees its orphaned claims', async () => {
    const rows = await database.db.query<{ table_name: string }>(
      `select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'claimed_by' order by table_name`,
    );
    expect(rows.map((row) => row.table_name)).toEqual(QUEUE_KINDS.map((kind) => kind.table).sort());
  });

  test('a Google sync job claimed by a process that is gone is freed at the next start', async () => {
    await database.db.query(
      `insert into passmint_google_jobs (kind, pass_type_identifier, serial_number, locked_until, lease, claimed_by)
       values ('object', 'pass.com.example.q', 'Q-1', now() + interval '1 minute', gen_random_uuid(), 'gone-process/12345678')`,
    );
    expect(await releaseOrphanedClaims(database.db, 'gone')).toBeGreaterThanOrEqual(1);
    const [row] = await database.db.query<{ held: boolean; claimed_by: string | null }>(
      `select locked_until is not null as held, claimed_by from passmint_google_jobs where serial_number = 'Q-1'`,
    );
    expect(row).toEqual({ held: false, claimed_by: null });
  });

  test('right after the PostgreSQL server started, a process without a connection is not yet gone: its claims are freed once the grace has passed', async () => {
    const claim = async (serial: string): Promise<void> => {
      await database.db.query(
        `insert into passmint_google_jobs (kind, pass_type_identifier, serial_number, locked_until, lease, claimed_by)
         values ('object', 'pass.com.example.q', $1, now() + interval '1 minute', gen_random_uuid(), 'not-connected/12345678')`,
        [serial],
      );
    };
    const held = async (serial: string): Promise<boolean> =>
      (await database.db.query<{ held: boolean }>(`select locked_until is not null as held from passmint_google_jobs where serial_number = $1`, [serial]))[0]!
        .held;
    const uptime = async (): Promise<number> =>
      (await database.db.query<{ up: number }>('select extract(epoch from now() - pg_postmaster_start_time())::float8 as up'))[0]!.up;
    const up = await uptime();

    // A grace longer than the server has been up: nothing is freed, whatever pg_stat_activity says.
    await claim('Q-young');
    expect(await releaseOrphanedClaims(database.db, 'gone', up + 3600)).toBe(0);
    expect(await held('Q-young')).toBe(true);

    // At start, with the grace ending in about a second: not freed at once, freed when it ends.
    const errors: unknown[] = [];
    const release = await releaseClaimsAtStart(database.db, (error) => errors.push(error), (await uptime()) + 1.5);
    try {
      expect(await held('Q-young')).toBe(true);
      await eventually(async () => !(await held('Q-young')), 15_000, 'the claim freed after the grace');
    } finally {
      release.cancel();
    }
    expect(errors).toEqual([]);

    // A later round that is cancelled (the process stopped) frees nothing.
    await claim('Q-cancelled');
    const cancelled = await releaseClaimsAtStart(database.db, (error) => errors.push(error), (await uptime()) + 1);
    cancelled.cancel();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await held('Q-cancelled')).toBe(true);
  });
});

describe('a Google sync claim whose answer was lost with the connection', () => {
  const account = testServiceAccount();
  const issuer = '3388000000012345678';
  let database: TestDatabase;
  let standIn: GoogleStandIn;
  let service: Service;
  let lost = 0;
  const errors: string[] = [];

  beforeAll(async () => {
    [database, standIn] = await Promise.all([postgres.open(), startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail })]);
    // The same database, except that the first Google claim is made and its answer lost, as when the connection drops right after.
    const flaky: SqlDatabase = new Proxy(database.db, {
      get(target, name, receiver) {
        if (name === 'query') {
          return async (text: string, params?: readonly unknown[]) => {
            const rows = await target.query(text, params);
            if (lost === 0 && /^update passmint_google_jobs q set locked_until/.test(text.trim()) && rows.length > 0) {
              lost++;
              throw new Error('Connection terminated unexpectedly');
            }
            return rows;
          };
        }
        const value = Reflect.get(target, name, receiver) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    // The default lease (60 s): without the release, the job would wait for it.
    service = await startService(
      { ...database, db: flaky },
      {
        // The lost answer is an outage, reported once; any other error fails the test.
        onError: (error) => errors.push(String(error)),
        publicUrl: 'https://passes.example.com',
        issuer: { teamIdentifier: 'A93A5CM278', organizationName: 'Example' },
        google: {
          credentials: readGoogleCredentials(account.json),
          issuerId: issuer,
          apiUrl: standIn.apiUrl,
          tokenUrl: standIn.tokenUrl,
          callbackKeys: createCallbackSigner().rootKeys(),
        },
      },
    );
  });

  afterAll(async () => {
    await service?.close();
    await standIn?.close();
    await database?.dispose();
    expect(errors.filter((error) => !error.includes('Connection terminated unexpectedly'))).toEqual([]);
  });

  test('is freed by its own worker once the database answers, and the pass reaches Google well within the lease', async () => {
    const { body: template } = await service.call('POST', '/v1/templates', {
      name: 'Q',
      formatVersion: 1,
      passType: 'pass.com.example.q',
      description: { generic: { primaryFields: [{ key: 'k', value: '${v}' }] } },
      placeholder: ['v'],
    });
    const started = Date.now();
    expect((await service.call('POST', `/v1/templates/${template.id}/passes`, { serialNumber: 'Q-2', values: { v: '1' } })).status).toBe(201);
    await eventually(() => standIn.store.get('genericObject')?.get(`${issuer}.pass_2ecom_2eexample_2eq.Q-2`) !== undefined, 30_000, 'the object at Google');
    expect(lost).toBe(1);
    process.stdout.write(
      `[queue-claims] a lost Google claim: the object reached Google ${((Date.now() - started) / 1000).toFixed(1)} s after the change (lease: 60 s)\n`,
    );
    // Recorded just after Google answered.
    const job = async (): Promise<unknown> =>
      (await database.db.query(`select locked_until is not null as held, wanted > done as owed from passmint_google_jobs where serial_number = 'Q-2'`))[0];
    await expect.poll(job, { timeout: 10_000 }).toEqual({ held: false, owed: false });
  }, 60_000);
});
