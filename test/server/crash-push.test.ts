// Nothing lost, pushes included: a `passmint serve` process (on PostgreSQL,
// and on a PGlite data folder) with an APNs client (pointed at the local HTTP/2 TLS stand-in), whose
// passes have devices registered through Apple's web service, is killed with
// SIGKILL at random moments while passes change (PUT values → pass.updated,
// one push per device) and devices register — mid-transaction, mid-delivery,
// mid-push — and started again, round after round.
// In the end every acknowledged change has its pass.updated event at every
// webhook registration, and every device registered before a pass's last
// change has received a push after that change (repeats allowed, none lost).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openPglite } from '../../src/server/db/pglite.js';
import { apnsPki, PASS_TYPE_IDENTIFIER } from '../apns/pki.js';
import { startApnsStandIn, type StandIn } from '../apns/stand-in.js';
import { bundleCli, startServe, type ServeProcess } from './child.js';
import { createPostgresDatabase } from './databases.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

const PASSES = 4;
const TUNING = ['--poll-ms', '20', '--lease-ms', '1500', '--timeout-ms', '1000'];
// A PGlite process runs its statements on its one thread, so under the clients' load its delivery timer can fire
// before it reads an answer that came in time: a spurious timeout, retried 5 s and then 1 min later (the run
// waited out that minute on a loaded machine). Its time limit is one the busy machine meets; the lease does not
// delay anything here, since a starting PGlite process frees every claim a killed one held.
const PGLITE_TUNING = ['--poll-ms', '20', '--lease-ms', '10500', '--timeout-ms', '10000'];

let cli: { script: string; remove: () => void };
let database: { url: string; drop: () => Promise<void> };
let receiver: Receiver;
let standIn: StandIn;
let running: ServeProcess | undefined;
let dataDir: string;
/** Tells the child where the stand-in is (see push-serve-main.ts). */
let apnsEnv: Record<string, string>;
/** Every push the stand-in answered, with when it arrived. */
const arrivals: { token: string; at: number }[] = [];

beforeAll(async () => {
  const pki = apnsPki();
  [cli, database, receiver, standIn] = await Promise.all([
    bundleCli('test/server/push-serve-main.ts'),
    createPostgresDatabase(),
    startReceiver(),
    startApnsStandIn(pki, {
      answer: (push) => {
        arrivals.push({ token: push.pushToken, at: Date.now() });
        return { status: 200 };
      },
    }),
  ]);
  dataDir = mkdtempSync(join(tmpdir(), 'passmint-crash-push-'));
  apnsEnv = { PASSMINT_TEST_APNS: JSON.stringify({ origin: standIn.origin, ca: pki.caPem, cert: pki.passCertPem, key: pki.passKeyPem }) };
});

afterAll(async () => {
  running?.child.kill('SIGKILL');
  await running?.exited;
  await standIn?.close();
  await receiver?.close();
  await database?.drop();
  cli?.remove();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

/** What committed, read with the engine's own client. */
interface Outcome {
  readonly passes: { serial_number: string; version: number; updated_at: Date }[];
  readonly registrations: { device_library_identifier: string; serial_number: string; push_token: string; created_at: Date }[];
  readonly updated: { id: string; body: string }[];
  /** Pushes not sent yet. */
  readonly unsent: number;
}
const QUERIES = {
  passes: 'select serial_number, version, updated_at from passmint_passes',
  registrations: 'select device_library_identifier, serial_number, push_token, created_at from passmint_wallet_registrations',
  updated: `select id, body from passmint_events where type = 'pass.updated'`,
  unsent: `select count(*)::int as n from passmint_pushes where status <> 'sent'`,
};

// PostgreSQL is read while the process runs; a PGlite folder only between
// processes (one process holds it), so its outcome is read after a clean stop.
const engines = [
  {
    name: 'PostgreSQL',
    tuning: TUNING,
    rounds: 6,
    live: true,
    args: () => ['--database-url', database.url],
    read: async (): Promise<Outcome> => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const rows = async (sql: string): Promise<any[]> => (await client.query(sql)).rows;
        return {
          passes: await rows(QUERIES.passes),
          registrations: await rows(QUERIES.registrations),
          updated: await rows(QUERIES.updated),
          unsent: (await rows(QUERIES.unsent))[0].n,
        };
      } finally {
        await client.end();
      }
    },
  },
  {
    name: 'a PGlite data folder',
    tuning: PGLITE_TUNING,
    rounds: 4,
    live: false,
    args: () => ['--data', join(dataDir, 'data')],
    read: async (): Promise<Outcome> => {
      const db = await openPglite({ dataDir: join(dataDir, 'data') });
      try {
        const rows = (sql: string): Promise<any[]> => db.query(sql);
        return {
          passes: await rows(QUERIES.passes),
          registrations: await rows(QUERIES.registrations),
          updated: await rows(QUERIES.updated),
          unsent: (await rows(QUERIES.unsent))[0].n,
        };
      } finally {
        await db.close();
      }
    },
  },
];

describe.each(engines)('on $name', ({ name, rounds: ROUNDS, tuning, live, args, read }) => {
  test('SIGKILL mid-change and mid-push loses no pass.updated event and no push', async () => {
    receiver.received.length = 0;
    arrivals.length = 0;
    const prefix = name.startsWith('Postgre') ? 'pg' : 'lite';
    const start = async (): Promise<ServeProcess> => (running = await startServe(cli.script, [...args(), ...tuning], apnsEnv));
    const stop = async (): Promise<void> => {
      service.child.kill('SIGTERM');
      await service.exited;
      running = undefined;
    };
    let service = await start();
    const key = service.apiKey!;
    const call = async (method: string, path: string, body?: unknown): Promise<Response> =>
      fetch(`${service.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    const hooks = [`/${prefix}/a`, `/${prefix}/b`];
    for (const path of hooks) {
      const hook = await (await call('POST', '/v1/webhooks', { url: `${receiver.url}${path}` })).json();
      expect(hook.state).toBe('enabled');
      receiver.secrets.set(path, [hook.secret]);
    }
    const template = await (
      await call('POST', '/v1/templates', {
        name: 'Card',
        formatVersion: 1,
        passType: PASS_TYPE_IDENTIFIER,
        description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
        placeholder: ['n'],
      })
    ).json();
    const serials = Array.from({ length: PASSES }, (_, index) => `C-${index}`);
    const tokens = new Map<string, string>();
    for (const serial of serials) {
      expect((await call('POST', `/v1/templates/${template.id}/passes`, { values: { n: '0' }, serialNumber: serial })).status).toBe(201);
      const pass = await (await call('GET', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${serial}/passjson`)).json();
      expect(pass.webServiceURL).toBe(`${service.url}/wallet`);
      tokens.set(serial, pass.authenticationToken);
    }
    // Apple's register call, against whichever process runs now (its port changes on every start).
    let devices = 0;
    const register = async (serial: string): Promise<{ device: string; status: number }> => {
      const device = `${prefix}-device-${devices++}`;
      const pushToken = Buffer.from(device.padEnd(32, '.')).toString('hex');
      const response = await fetch(`${service.url}/wallet/v1/devices/${device}/registrations/${PASS_TYPE_IDENTIFIER}/${serial}`, {
        method: 'POST',
        headers: { authorization: `ApplePass ${tokens.get(serial)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pushToken }),
      });
      return { device, status: response.status };
    };
    const registered = new Set<string>();
    for (const serial of serials) {
      for (let i = 0; i < 2; i++) {
        const { device, status } = await register(serial);
        expect(status).toBe(201);
        registered.add(device);
      }
    }

    const changed = new Map<string, number>(serials.map((serial) => [serial, 0]));
    let value = 0;
    const pick = (): string => serials[Math.floor(Math.random() * serials.length)]!;
    for (let round = 0; round < ROUNDS; round++) {
      // Load: clients changing passes (each change queues a push per device) and now and then a new device registering.
      let stopped = false;
      const clients = Array.from({ length: 3 }, async () => {
        while (!stopped) {
          const serial = pick();
          try {
            if (Math.random() < 0.15) {
              const { device, status } = await register(serial);
              if (status === 201) registered.add(device);
            } else {
              const response = await call('PUT', `/v1/passes/${PASS_TYPE_IDENTIFIER}/${serial}/values`, { n: String(++value) });
              await response.arrayBuffer();
              if (response.status === 200) changed.set(serial, changed.get(serial)! + 1);
            }
          } catch {
            // The process was killed under this request: it may or may not have committed.
          }
        }
      });
      // Killed at a random moment once this round has changed passes (a loaded machine may take seconds to make the first change).
      const before = [...changed.values()].reduce((a, b) => a + b);
      await eventually(() => [...changed.values()].reduce((a, b) => a + b) >= before + 3, 30_000, 'changes in this round');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 700));
      service.child.kill('SIGKILL');
      await service.exited;
      stopped = true;
      await Promise.all(clients);
      service = await start();
    }

    // What committed: on PostgreSQL read while the process runs on; a PGlite folder between a clean stop and a start.
    if (!live) await stop();
    const { passes, registrations, updated } = await read();
    if (!live) service = await start();

    // Every acknowledged change committed a new version; every version has its pass.updated event.
    expect(passes.map((pass) => pass.serial_number).sort()).toEqual(serials);
    const eventsOf = new Map<string, Set<string>>(serials.map((serial) => [serial, new Set()]));
    for (const event of updated) eventsOf.get(JSON.parse(event.body).data.serialNumber)!.add(event.id);
    for (const pass of passes) {
      expect(pass.version - 1).toBeGreaterThanOrEqual(changed.get(pass.serial_number)!);
      expect(eventsOf.get(pass.serial_number)!.size).toBe(pass.version - 1);
    }
    expect([...changed.values()].reduce((a, b) => a + b)).toBeGreaterThan(ROUNDS * 2);
    // Every acknowledged registration exists.
    const devicesThere = new Set(registrations.map((row) => row.device_library_identifier));
    for (const device of registered) expect(devicesThere.has(device)).toBe(true);

    // Every pass.updated event reaches every webhook registration.
    await eventually(
      () =>
        hooks.every((path) => {
          const got = new Set(receiver.received.filter((entry) => entry.path === path).map((entry) => entry.event.id));
          return updated.every((event) => got.has(event.id));
        }),
      // A delivery that timed out on a loaded machine waits its retry (5 s, then 1 min): the bound covers two.
      150_000,
      'every pass.updated at every webhook',
    );
    expect(receiver.received.every((entry) => entry.signatureValid)).toBe(true);

    // Every device registered before its pass's last change gets a push after that change.
    const lastChange = new Map(passes.map((pass) => [pass.serial_number, pass.updated_at.getTime()]));
    const owed = registrations.filter((row) => row.created_at.getTime() < lastChange.get(row.serial_number)!);
    expect(owed.length).toBeGreaterThanOrEqual(PASSES * 2);
    const pushedAfter = (row: (typeof owed)[number]): boolean =>
      arrivals.some((push) => push.token === row.push_token && push.at >= lastChange.get(row.serial_number)!);
    await eventually(() => owed.every(pushedAfter), 150_000, 'a push after the last change to every device');
    // And the queue ends empty: every push sent, none left pending or failed (a push a killed
    // process had claimed waits out its lease first).
    if (live) await eventually(async () => (await read()).unsent === 0, 150_000, 'every queued push sent');
    for (let attempt = 0; !live; attempt++) {
      await stop();
      if ((await read()).unsent === 0) break;
      expect(attempt).toBeLessThan(10);
      service = await start();
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    if (running !== undefined) await stop();
  }, 600_000);
});
