// A lease outlasts the delivery it covers: a lease shorter than a
// delivery's time limit is refused, and a lease is extended while its
// delivery is in flight, so another worker or process never takes a
// delivery that is still being sent — no event arrives twice without a crash.
import { afterAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/main.js';
import { createServer } from '../../src/server/create-server.js';
import { createDeliveryWorker } from '../../src/server/queue/delivery-worker.js';
import { leaseProblem } from '../../src/server/queue/lease.js';
import { addEvents } from '../../src/server/db/outbox.js';
import { insertWebhook, setWebhookState } from '../../src/server/db/store.js';
import { createEvent } from '../../src/webhooks/event.js';
import { captureIo } from '../cli/io.js';
import { bundleCli, startServe, type ServeProcess } from './child.js';
import { createPostgresDatabase, ENGINES } from './databases.js';
import { eventually } from './receiver.js';
import { startScriptedReceiver } from './scripted-receiver.js';

const repeats = (ids: readonly string[]): string[] => ids.filter((id, index) => ids.indexOf(id) !== index);

describe('a lease shorter than a delivery is refused', () => {
  test('leaseProblem: at least the time limit and 500 ms', () => {
    expect(leaseProblem(15_500, 15_000)).toBeUndefined();
    expect(leaseProblem(15_499, 15_000)).toMatch(/must be longer than a delivery's time limit \(15000 ms\).*15500 ms or more/);
    expect(leaseProblem(1000, 15_000)).toMatch(/The lease \(1000 ms\)/);
  });

  test('createServer: a RangeError naming delivery.leaseMs, before opening anything', async () => {
    const error = await createServer({ delivery: { leaseMs: 1000 } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(/^delivery\.leaseMs: The lease \(1000 ms\) must be longer than a delivery's time limit \(15000 ms\)/);
    const withTimeout = await createServer({ delivery: { leaseMs: 2000, timeoutMs: 2000 } }).catch((caught: unknown) => caught);
    expect(withTimeout).toBeInstanceOf(RangeError);
  });

  test('passmint serve --lease-ms 1000 (default --timeout-ms 15000): a usage error, exit 2, nothing opened', async () => {
    const { io, stderr } = captureIo(process.cwd());
    expect(await run(['serve', '--lease-ms', '1000', '--data', '/nonexistent/never-made'], io)).toBe(2);
    expect(stderr()).toMatch(/--lease-ms: The lease \(1000 ms\) must be longer than a delivery's time limit \(15000 ms\)/);
    const again = captureIo(process.cwd());
    expect(await run(['serve', '--lease-ms', '3000', '--timeout-ms', '2600', '--data', '/nonexistent/never-made'], again.io)).toBe(2);
    expect(again.stderr()).toMatch(/lower --timeout-ms/);
  });
});

for (const engine of ENGINES) {
  test(`on ${engine.name}: two workers, a 2 s lease and a receiver answering in 5 s: the lease is extended, no event arrives twice`, async () => {
    const database = await engine.open();
    const receiver = await startScriptedReceiver(() => 5000);
    try {
      for (const path of ['/a', '/b']) {
        const hook = await insertWebhook(database.db, `${receiver.url}${path}`, 'whsec_lease_test_1');
        await setWebhookState(database.db, hook.id, 'enabled', null);
      }
      const events = Array.from({ length: 2 }, (_, index) =>
        createEvent('pass.created', { serialNumber: `L-${index}`, passTypeIdentifier: 'pass.com.example.l' }),
      );
      await database.db.transaction((tx) => addEvents(tx, events));
      // Below createServer's check on purpose: only the heartbeat (every third of the lease) keeps these claims,
      // each across two and a half leases; a loaded machine may delay a beat by most of a second.
      const options = { allowPrivateNetworks: true, pollMs: 20, leaseMs: 2000, timeoutMs: 10_000 };
      const workers = [createDeliveryWorker(database.db, options), createDeliveryWorker(database.db, options)];
      for (const worker of workers) worker.start();
      await eventually(() => ['/a', '/b'].every((path) => (receiver.arrived.get(path) ?? []).length >= events.length), 40_000, 'every event at both');
      await new Promise((resolve) => setTimeout(resolve, 2500)); // a repeat would come within a lease
      await Promise.all(workers.map((worker) => worker.stop()));
      // Two passes: both at once, in either order; each once.
      for (const path of ['/a', '/b']) expect([...receiver.arrived.get(path)!].sort()).toEqual(events.map((event) => event.id).sort());
    } finally {
      await receiver.close();
      await database.dispose();
    }
  }, 60_000);
}

describe('two passmint serve processes on one PostgreSQL', () => {
  const processes: ServeProcess[] = [];
  const cleanups: (() => unknown)[] = [];
  afterAll(async () => {
    for (const service of processes) service.child.kill('SIGTERM');
    await Promise.all(processes.map((service) => service.exited));
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  test('the shortest lease allowed (4.5 s for a 4 s time limit) and a receiver answering in 2 s: no event id delivered twice', async () => {
    const [cli, database, receiver] = await Promise.all([bundleCli(), createPostgresDatabase(), startScriptedReceiver(() => 2000)]);
    cleanups.push(cli.remove, database.drop, receiver.close);
    const args = ['--database-url', database.url, '--allow-private-webhooks', '--poll-ms', '20', '--lease-ms', '4500', '--timeout-ms', '4000'];
    processes.push(await startServe(cli.script, args));
    processes.push(await startServe(cli.script, args));
    const headers = { authorization: `Bearer ${processes[0]!.apiKey!}`, 'content-type': 'application/json' };
    for (const path of ['/one', '/two']) {
      const response = await fetch(`${processes[0]!.url}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: `${receiver.url}${path}` }) });
      expect((await response.json()).state).toBe('enabled');
    }
    const template = await (
      await fetch(`${processes[1]!.url}/v1/templates`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          name: 'T',
          formatVersion: 1,
          passType: 'pass.com.example.l',
          description: { generic: { primaryFields: [{ key: 'k', value: '${v}' }] } },
          placeholder: ['v'],
        }),
      })
    ).json();
    const count = 4;
    for (let index = 0; index < count; index++) {
      const response = await fetch(`${processes[index % 2]!.url}/v1/templates/${template.id}/passes`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ serialNumber: `L-${index}`, values: { v: String(index) } }),
      });
      expect(response.status).toBe(201);
    }
    await eventually(() => ['/one', '/two'].every((path) => (receiver.arrived.get(path) ?? []).length >= count), 30_000, 'every event at both');
    await new Promise((resolve) => setTimeout(resolve, 5000)); // a repeat would come within a lease
    for (const path of ['/one', '/two']) {
      expect(receiver.arrived.get(path)!.length).toBe(count);
      expect(repeats(receiver.arrived.get(path)!)).toEqual([]);
    }
  }, 60_000);
});
