// The service survives its database: two `passmint serve` processes on a
// PostgreSQL server of this test's own, under load (passes created and
// changed through both), while the server's backends are terminated
// (pg_terminate_backend) and the server is then stopped with `-m immediate`
// and started again. Both processes stay up; while the server is away they
// answer 503 database-unavailable with Retry-After (a wrong API key is still
// a 401; Apple's web service answers 503 too); once it is back they carry on by themselves, and the receiver ends
// with the event of every change that was acknowledged, each event once.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bundleCli, startServe, type ServeProcess } from './child.js';
import { createOwnPostgres, type OwnPostgres } from './own-postgres.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

let cli: { script: string; remove: () => void };
let server: OwnPostgres;
let receiver: Receiver;
const processes: ServeProcess[] = [];

beforeAll(async () => {
  [cli, server, receiver] = await Promise.all([bundleCli(), createOwnPostgres(), startReceiver()]);
  await server.start();
}, 60_000);

afterAll(async () => {
  for (const service of processes) service.child.kill('SIGKILL');
  await Promise.all(processes.map((service) => service.exited));
  await receiver?.close();
  await server?.remove();
  cli?.remove();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('two processes stay up through terminated backends and an immediate stop, answer 503 meanwhile, and deliver every acknowledged change', async () => {
  // The default lease (60 s): a claim whose answer was lost with its connection is freed by its own process once the database is back.
  const args = ['--database-url', server.url, '--allow-private-webhooks', '--poll-ms', '50'];
  processes.push(await startServe(cli.script, args));
  processes.push(await startServe(cli.script, args));
  const key = processes[0]!.apiKey!;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const call = (service: ServeProcess, method: string, path: string, body?: unknown, auth = headers): Promise<Response> =>
    fetch(`${service.url}${path}`, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  const hook = await (await call(processes[0]!, 'POST', '/v1/webhooks', { url: `${receiver.url}/fault` })).json();
  expect(hook.state).toBe('enabled');
  receiver.secrets.set('/fault', [hook.secret]);
  const template = await (
    await call(processes[1]!, 'POST', '/v1/templates', {
      name: 'Ticket',
      formatVersion: 1,
      passType: 'pass.com.example.fault',
      description: { generic: { primaryFields: [{ key: 'seat', value: '${seat}' }] } },
      placeholder: ['seat'],
    })
  ).json();

  // Load: four clients, two per process, creating a pass and then changing it, as fast as answered.
  const created = new Set<string>();
  const updated = new Set<string>();
  const statuses = new Map<number, number>();
  const unexpected: string[] = [];
  let stopped = false;
  let serial = 0;
  const clients = Array.from({ length: 4 }, async (_, index) => {
    const service = processes[index % 2]!;
    while (!stopped) {
      const name = `F-${serial++}`;
      for (const [method, path, body, done] of [
        ['POST', `/v1/templates/${template.id}/passes`, { values: { seat: name }, serialNumber: name }, created],
        ['PUT', `/v1/passes/pass.com.example.fault/${name}/values`, { seat: `${name}!` }, updated],
      ] as const) {
        let response: Response;
        try {
          response = await call(service, method, path, body);
        } catch (error) {
          unexpected.push(`${method} ${path}: ${String(error)}`); // the process did not answer at all
          break;
        }
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const problem = response.status >= 400 ? await response.json() : await response.arrayBuffer();
        if (response.status === 503) {
          if (problem.code !== 'database-unavailable' || response.headers.get('retry-after') === null) unexpected.push(`503 ${JSON.stringify(problem)}`);
          await sleep(100);
          break;
        }
        if (response.status !== 200 && response.status !== 201) {
          unexpected.push(`${method} ${path}: ${response.status} ${JSON.stringify(problem)}`);
          break;
        }
        done.add(name);
      }
    }
  });

  // Under load first, for a while and until changes are acknowledged (polled: a loaded machine is slow).
  await sleep(1500);
  await eventually(() => created.size >= 4 && updated.size >= 2, 30_000, 'changes acknowledged before the fault');
  expect(await server.terminateBackends()).toBeGreaterThan(0);
  await sleep(1000);
  await server.stopImmediately();

  // While the server is away: 503 with Retry-After from both; a wrong key is still 401.
  await sleep(500);
  for (const service of processes) {
    const away = await call(service, 'GET', '/v1/passes');
    expect(away.status).toBe(503);
    expect(away.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await away.json()).code).toBe('database-unavailable');
    const wrongKey = await call(service, 'GET', '/v1/passes', undefined, { authorization: 'Bearer pm_wrong', 'content-type': 'application/json' });
    expect(wrongKey.status).toBe(401);
    // Apple's web service too: Wallet retries later.
    const wallet = await fetch(`${service.url}/wallet/v1/devices/a1b2c3d4e5f6/registrations/pass.com.example.fault`);
    expect(wallet.status).toBe(503);
    expect(wallet.headers.get('retry-after')).toMatch(/^\d+$/);
  }
  await sleep(1500);
  const acknowledgedBefore = created.size + updated.size;
  await server.start();
  // Recovering by themselves: changes are acknowledged again (load for a while, and until then).
  await sleep(2500);
  await eventually(() => created.size + updated.size >= acknowledgedBefore + 8, 60_000, 'changes acknowledged after the database is back');
  stopped = true;
  await Promise.all(clients);

  expect(unexpected).toEqual([]);
  expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
  expect(created.size).toBeGreaterThan(0);
  for (const service of processes) {
    expect(service.child.exitCode).toBeNull();
    expect(service.child.signalCode).toBeNull();
    // Both answer again with the database back (each polled: a loaded machine may take a while).
    await eventually(async () => (await call(service, 'GET', '/v1/passes?limit=1')).status === 200, 30_000, `${service.url} answering 200 again`);
  }

  // Every acknowledged change's event reaches the receiver.
  const arrived = (type: string): Set<string> =>
    new Set(receiver.received.filter((entry) => entry.path === '/fault' && entry.event.type === type).map((entry) => String(entry.event.data['serialNumber'])));
  await eventually(
    () => [...created].every((name) => arrived('pass.created').has(name)) && [...updated].every((name) => arrived('pass.updated').has(name)),
    60_000,
    'the events of every acknowledged change',
  );
  // And nothing more is on its way (a repeat sent later would be missed below): the queue is empty.
  const pending = async (): Promise<string | undefined> =>
    /^passmint_webhook_queue_pending (\d+)$/m.exec(await (await call(processes[0]!, 'GET', '/metrics')).text())?.[1];
  await eventually(async () => (await pending()) === '0', 60_000, 'an empty delivery queue');
  const events = receiver.received.filter((entry) => entry.path === '/fault');
  process.stdout.write(
    `[database-fault] ${created.size} creations and ${updated.size} changes acknowledged, ${statuses.get(503) ?? 0} answers 503 while the database was away; ${events.length} events delivered\n`,
  );
  expect(events.every((entry) => entry.signatureValid)).toBe(true);
  // No repeats: an answer received while the database was away was recorded once it was back.
  const ids = events.map((entry) => entry.event.id);
  expect(ids.length).toBe(new Set(ids).size);
  for (const service of processes) {
    expect(service.output()).not.toMatch(/Unhandled|uncaught/i);
    // The outage is told in one line, without a stack trace, and once per outage and worker, not at every poll
    // (the workers poll every 50 ms: reported at each try, it would be dozens of lines).
    const told = service.output().match(/the database cannot be reached .*; the API answers 503/g) ?? [];
    process.stdout.write(`[database-fault] ${service.url}: the outage told in ${told.length} lines\n`);
    expect(told.length).toBeGreaterThan(0);
    expect(told.length).toBeLessThanOrEqual(4);
    expect(service.output()).not.toMatch(/\n\s+at /);
  }
}, 240_000);
