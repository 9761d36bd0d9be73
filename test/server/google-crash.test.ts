// No Google update lost: `passmint serve` (the real command, on PostgreSQL
// and on a PGlite data folder) with Google Wallet aimed at the local stand-in
// is killed with SIGKILL at random moments while passes change — mid-
// transaction, mid-sync (the stand-in holds its answers, so syncs are in
// flight) — and started again, round after round. In the end every pass's
// object at the stand-in holds the pass's last committed values, and no sync
// is left owed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openPglite } from '../../src/server/db/pglite.js';
import { testServiceAccount } from '../google/keys.js';
import { createCallbackSigner, startGoogleStandIn, type GoogleStandIn } from '../google/stand-in.js';
import { bundleCli, startServe, type ServeProcess } from './child.js';
import { createPostgresDatabase } from './databases.js';
import { eventually } from './receiver.js';

const ISSUER = '3388000000012345678';
const PASS_TYPE = 'pass.com.example.crash';
const PASSES = 4;
const TUNING = ['--poll-ms', '20', '--lease-ms', '1500', '--timeout-ms', '1000'];

let cli: { script: string; remove: () => void };
let database: { url: string; drop: () => Promise<void> };
let standIn: GoogleStandIn;
let running: ServeProcess | undefined;
let dir: string;
let googleArgs: string[];

beforeAll(async () => {
  const account = testServiceAccount();
  [cli, database, standIn] = await Promise.all([
    bundleCli(),
    createPostgresDatabase(),
    startGoogleStandIn({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail }),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'passmint-crash-google-'));
  writeFileSync(join(dir, 'service-account.json'), account.json);
  writeFileSync(join(dir, 'keys.json'), JSON.stringify({ keys: createCallbackSigner().rootKeys() }));
  googleArgs = [
    '--google-credentials',
    join(dir, 'service-account.json'),
    '--google-issuer-id',
    ISSUER,
    '--google-api-url',
    standIn.apiUrl,
    '--google-token-url',
    standIn.tokenUrl,
    '--google-callback-keys',
    join(dir, 'keys.json'),
  ];
});

afterAll(async () => {
  running?.child.kill('SIGKILL');
  await running?.exited;
  await standIn?.close();
  await database?.drop();
  cli?.remove();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** What committed: each pass's values, and how many syncs are still owed. */
interface Outcome {
  readonly passes: { serial_number: string; pass_values: { n: string } }[];
  readonly owed: number;
}
const QUERIES = {
  passes: `select serial_number, pass_values from passmint_passes where pass_type_identifier = '${PASS_TYPE}'`,
  owed: 'select count(*)::int as n from passmint_google_jobs where wanted > done',
};

const engines = [
  {
    name: 'PostgreSQL',
    rounds: 6,
    live: true,
    args: () => ['--database-url', database.url],
    read: async (): Promise<Outcome> => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        return { passes: (await client.query(QUERIES.passes)).rows, owed: (await client.query(QUERIES.owed)).rows[0].n };
      } finally {
        await client.end();
      }
    },
  },
  {
    name: 'a PGlite data folder',
    rounds: 4,
    live: false,
    args: () => ['--data', join(dir, 'data')],
    read: async (): Promise<Outcome> => {
      const db = await openPglite({ dataDir: join(dir, 'data') });
      try {
        return { passes: await db.query(QUERIES.passes), owed: (await db.query<{ n: number }>(QUERIES.owed))[0]!.n };
      } finally {
        await db.close();
      }
    },
  },
];

describe.each(engines)('on $name', ({ name, rounds: ROUNDS, live, args, read }) => {
  test('SIGKILL mid-change and mid-sync loses no Google update', async () => {
    const prefix = name.startsWith('Postgre') ? 'pg' : 'lite';
    const start = async (): Promise<ServeProcess> => (running = await startServe(cli.script, [...args(), ...TUNING, ...googleArgs]));
    const stop = async (): Promise<void> => {
      service.child.kill('SIGTERM');
      await service.exited;
      running = undefined;
    };
    let service = await start();
    expect(service.output()).toContain(`Google Wallet: issuer ${ISSUER}`);
    const key = service.apiKey!;
    const call = async (method: string, path: string, body?: unknown): Promise<Response> =>
      fetch(`${service.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    const template = await (
      await call('POST', '/v1/templates', {
        name: 'Card',
        formatVersion: 1,
        passType: PASS_TYPE,
        description: { generic: { primaryFields: [{ key: 'n', label: 'N', value: '${n}' }] } },
        placeholder: ['n'],
      })
    ).json();
    const serials = Array.from({ length: PASSES }, (_, index) => `${prefix}-${index}`);
    for (const serial of serials) {
      expect((await call('POST', `/v1/templates/${template.id}/passes`, { values: { n: `${prefix}-v0` }, serialNumber: serial })).status).toBe(201);
    }

    let value = 0;
    let acknowledged = 0;
    let owedAtKill = 0;
    const pick = (): string => serials[Math.floor(Math.random() * serials.length)]!;
    for (let round = 0; round < ROUNDS; round++) {
      // Google answers slowly this round, so syncs are in flight when the process dies.
      standIn.force({ status: 200, holdMs: 50 + Math.floor(Math.random() * 150) }, 40);
      let stopped = false;
      const clients = Array.from({ length: 3 }, async () => {
        while (!stopped) {
          try {
            const response = await call('PUT', `/v1/passes/${PASS_TYPE}/${pick()}/values`, { n: `${prefix}-v${++value}` });
            await response.arrayBuffer();
            if (response.status === 200) acknowledged++;
          } catch {
            // The process was killed under this request: it may or may not have committed.
          }
        }
      });
      // Kill at a random moment once the round has changed passes (a busy machine may take a while).
      const before = acknowledged;
      await eventually(() => acknowledged >= before + 2, 20_000, 'changes in this round');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 500));
      service.child.kill('SIGKILL');
      await service.exited;
      stopped = true;
      await Promise.all(clients);
      // The dead process's database: syncs still owed are what the next process must not lose.
      owedAtKill += (await read()).owed;
      service = await start();
    }
    expect(acknowledged).toBeGreaterThanOrEqual(ROUNDS * 2);
    expect(owedAtKill).toBeGreaterThan(0);

    // What committed: on PostgreSQL read while the process runs on; a PGlite folder between a clean stop and a start.
    if (!live) await stop();
    const { passes } = await read();
    if (!live) service = await start();
    expect(passes.map((pass) => pass.serial_number).sort()).toEqual(serials);

    // Every pass's object at Google ends with its last committed values.
    const objectOf = (serial: string): string =>
      JSON.stringify(standIn.store.get('genericObject')?.get(`${ISSUER}.pass_2ecom_2eexample_2ecrash.${serial}`) ?? null);
    await eventually(
      () => passes.every((pass) => objectOf(pass.serial_number).includes(JSON.stringify(pass.pass_values.n))),
      30_000,
      "every object with its pass's last values",
    );
    // And nothing is left owed (a sync a killed process had claimed waits out its lease first).
    if (live) await eventually(async () => (await read()).owed === 0, 20_000, 'no sync owed');
    for (let attempt = 0; !live; attempt++) {
      await stop();
      if ((await read()).owed === 0) break;
      expect(attempt).toBeLessThan(10);
      service = await start();
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    if (running !== undefined) await stop();
  }, 120_000);
});
