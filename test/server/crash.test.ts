// Nothing lost: a `passmint serve` process on PostgreSQL, delivering to a
// local receiver while passes are being created through its API, is killed
// with SIGKILL at random moments, round after round, and started again.
// In the end every event in the outbox has reached every registration, in
// creation order per registration (repeats allowed: same event id), and
// every pass whose creation was acknowledged exists.
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bundleCli, startServe, type ServeProcess } from './child.js';
import { createPostgresDatabase } from './databases.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

const ROUNDS = 8;
const TUNING = ['--allow-private-webhooks', '--poll-ms', '20', '--lease-ms', '1500', '--timeout-ms', '1000'];

let cli: { script: string; remove: () => void };
let database: { url: string; drop: () => Promise<void> };
let receiver: Receiver;
let running: ServeProcess | undefined;

beforeAll(async () => {
  [cli, database, receiver] = await Promise.all([bundleCli(), createPostgresDatabase(), startReceiver()]);
});

afterAll(async () => {
  running?.child.kill('SIGKILL');
  await running?.exited;
  await receiver?.close();
  await database?.drop();
  cli?.remove();
});

test('SIGKILL at random moments loses no event and no pass', async () => {
  const start = async (): Promise<ServeProcess> => (running = await startServe(cli.script, ['--database-url', database.url, ...TUNING]));
  let service = await start();
  const key = service.apiKey!;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown): Promise<Response> =>
    fetch(`${service.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  const paths = ['/a', '/b', '/c'];
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
    await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 900));
    service.child.kill('SIGKILL');
    await service.exited;
    stopped = true;
    await Promise.all(clients);
    service = await start();
  }

  // What the outbox holds is what must arrive: every event, at every registration.
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const events = (await client.query<{ id: string; seq: string }>('select id, seq from passmint_events order by seq')).rows;
    expect(events.length).toBeGreaterThan(ROUNDS * 2);
    const expected = events.map((event) => event.id);
    await eventually(
      () => paths.every((path) => new Set(receiver.received.filter((entry) => entry.path === path).map((entry) => entry.event.id)).size === expected.length),
      30_000,
      'every event at every registration',
    );
    const seqOf = new Map(events.map((event) => [event.id, Number(event.seq)]));
    for (const path of paths) {
      const arrived = receiver.received.filter((entry) => entry.path === path);
      expect(arrived.every((entry) => entry.signatureValid)).toBe(true);
      const firstSeen = [...new Set(arrived.map((entry) => entry.event.id))];
      expect(new Set(firstSeen)).toEqual(new Set(expected));
      // Creation order per registration: first arrivals come in outbox order.
      const order = firstSeen.map((id) => seqOf.get(id)!);
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    // Every acknowledged pass exists, and its pass.created event was delivered.
    const stored = new Set((await client.query<{ serial_number: string }>('select serial_number from passmint_passes')).rows.map((row) => row.serial_number));
    for (const name of acknowledged) expect(stored.has(name)).toBe(true);
    const created = new Set(receiver.received.filter((entry) => entry.event.type === 'pass.created').map((entry) => entry.event.data['serialNumber']));
    for (const name of stored) expect(created.has(name)).toBe(true);
  } finally {
    await client.end();
  }
}, 120_000);
