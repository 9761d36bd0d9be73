// Nothing lost: a `passmint serve` process (on PostgreSQL, and on a PGlite
// data folder), delivering to a local receiver while passes are being
// created through its API, is killed with SIGKILL at random moments, round
// after round, and started again.
// In the end every event in the outbox has reached every registration, each
// pass's events in creation order (repeats allowed: same event id), and
// every pass whose creation was acknowledged exists.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openPglite } from '../../src/server/db/pglite.js';
import { bundleCli, startServe, type ServeProcess } from './child.js';
import { createPostgresDatabase } from './databases.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

const TUNING = ['--allow-private-webhooks', '--poll-ms', '20', '--lease-ms', '1500', '--timeout-ms', '1000'];
// A PGlite process runs its statements on its one thread, so under the clients' load its delivery timer can fire
// before it reads an answer that came in time: a spurious timeout, retried 5 s and then 1 min later (the run
// waited out that minute on a loaded machine). Its time limit is one the busy machine meets; the lease does not
// delay anything here, since a starting PGlite process frees every claim a killed one held.
const PGLITE_TUNING = ['--allow-private-webhooks', '--poll-ms', '20', '--lease-ms', '10500', '--timeout-ms', '10000'];

let cli: { script: string; remove: () => void };
let database: { url: string; drop: () => Promise<void> };
let receiver: Receiver;
let running: ServeProcess | undefined;
let dataDir: string;

beforeAll(async () => {
  [cli, database, receiver] = await Promise.all([bundleCli(), createPostgresDatabase(), startReceiver()]);
  dataDir = mkdtempSync(join(tmpdir(), 'passmint-crash-'));
});

afterAll(async () => {
  running?.child.kill('SIGKILL');
  await running?.exited;
  await receiver?.close();
  await database?.drop();
  cli?.remove();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

/** What the database holds after the rounds: read with the engine's own client once no process runs. */
interface Outcome {
  readonly events: { id: string; seq: number }[];
  readonly serials: Set<string>;
}

const engines = [
  {
    name: 'PostgreSQL',
    tuning: TUNING,
    rounds: 8,
    args: () => ['--database-url', database.url],
    read: async (): Promise<Outcome> => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const events = (await client.query<{ id: string; seq: string }>('select id, seq from passmint_events order by seq')).rows;
        const serials = (await client.query<{ serial_number: string }>('select serial_number from passmint_passes')).rows;
        return { events: events.map((row) => ({ id: row.id, seq: Number(row.seq) })), serials: new Set(serials.map((row) => row.serial_number)) };
      } finally {
        await client.end();
      }
    },
  },
  {
    name: 'a PGlite data folder',
    tuning: PGLITE_TUNING,
    rounds: 4,
    args: () => ['--data', join(dataDir, 'data')],
    read: async (): Promise<Outcome> => {
      const db = await openPglite({ dataDir: join(dataDir, 'data') });
      try {
        const events = await db.query<{ id: string; seq: number }>('select id, seq from passmint_events order by seq');
        const serials = await db.query<{ serial_number: string }>('select serial_number from passmint_passes');
        return { events, serials: new Set(serials.map((row) => row.serial_number)) };
      } finally {
        await db.close();
      }
    },
  },
];

describe.each(engines)('on $name', ({ name, rounds: ROUNDS, tuning, args, read }) => {
  test('SIGKILL at random moments loses no event and no pass', async () => {
    const prefix = name.startsWith('Postgre') ? '/pg' : '/lite';
    receiver.received.length = 0;
    const start = async (): Promise<ServeProcess> => (running = await startServe(cli.script, [...args(), ...tuning]));
    let service = await start();
    const key = service.apiKey!;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown): Promise<Response> =>
      fetch(`${service.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

    const paths = ['/a', '/b', '/c'].map((path) => `${prefix}${path}`);
    for (const path of paths) {
      const hook = await (await call('POST', '/v1/webhooks', { url: `${receiver.url}${path}` })).json();
      expect(hook.state).toBe('enabled');
      receiver.secrets.set(path, [hook.secret]);
    }
    const template = await (
      await call('POST', '/v1/templates', {
        name: 'Ticket',
        formatVersion: 1,
        passType: 'pass.com.example.ticket',
        description: { generic: { primaryFields: [{ key: 'seat', value: '${seat}' }] } },
        placeholder: ['seat'],
      })
    ).json();

    const acknowledged = new Set<string>();
    let serial = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Load: a few clients creating and changing passes as fast as the service answers.
      let stopped = false;
      const clients = Array.from({ length: 4 }, async () => {
        while (!stopped) {
          const name = `S-${round}-${serial++}`;
          try {
            const response = await call('POST', `/v1/templates/${template.id}/passes`, { values: { seat: name }, serialNumber: name });
            if (response.status === 201) {
              acknowledged.add(name);
              await call('PUT', `/v1/passes/pass.com.example.ticket/${name}/values`, { seat: `${name}!` });
            }
          } catch {
            // The process was killed under this request: it may or may not have committed.
          }
        }
      });
      // Killed at a random moment once this round has made passes (a loaded machine may take seconds to make the first).
      const before = acknowledged.size;
      await eventually(() => acknowledged.size >= before + 2, 30_000, 'passes made in this round');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 900));
      service.child.kill('SIGKILL');
      await service.exited;
      stopped = true;
      await Promise.all(clients);
      service = await start();
    }

    // Every event in the outbox (read through the API, page by page) must reach every registration.
    const allEvents = async (): Promise<Set<string>> => {
      const ids = new Set<string>();
      let before = '';
      for (;;) {
        const page = await (await call('GET', `/v1/events?limit=100${before}`)).json();
        for (const event of page.items) ids.add(event.id);
        if (page.next === null) return ids;
        before = `&before=${page.next}`;
      }
    };
    const outboxIds = await allEvents();
    await eventually(
      () =>
        paths.every((path) => {
          const got = new Set(receiver.received.filter((entry) => entry.path === path).map((entry) => entry.event.id));
          return [...outboxIds].every((id) => got.has(id));
        }),
      // A delivery that timed out on a loaded machine waits its retry (5 s, then 1 min): the bound covers two.
      150_000,
      'every event at every registration',
    );
    service.child.kill('SIGTERM');
    await service.exited;
    running = undefined;
    const { events, serials } = await read();
    expect(events.length).toBeGreaterThan(ROUNDS * 2);
    expect(new Set(events.map((event) => event.id))).toEqual(outboxIds);
    const expected = events.map((event) => event.id);
    const seqOf = new Map(events.map((event) => [event.id, event.seq]));
    for (const path of paths) {
      const arrived = receiver.received.filter((entry) => entry.path === path);
      expect(arrived.every((entry) => entry.signatureValid)).toBe(true);
      const firstSeen = [...new Set(arrived.map((entry) => entry.event.id))];
      expect(new Set(firstSeen)).toEqual(new Set(expected));
      // Each pass's events in creation order: a pass's first arrivals come in outbox order.
      const passOf = new Map(arrived.map((entry) => [entry.event.id, String(entry.event.data['serialNumber'])]));
      for (const serial of new Set(passOf.values())) {
        const order = firstSeen.filter((id) => passOf.get(id) === serial).map((id) => seqOf.get(id)!);
        expect(order).toEqual([...order].sort((a, b) => a - b));
      }
    }
    // Every acknowledged pass exists, and its pass.created event was delivered.
    for (const serial of acknowledged) expect(serials.has(serial)).toBe(true);
    const created = new Set(receiver.received.filter((entry) => entry.event.type === 'pass.created').map((entry) => entry.event.data['serialNumber']));
    for (const serial of serials) expect(created.has(serial)).toBe(true);
  }, 300_000);
});
