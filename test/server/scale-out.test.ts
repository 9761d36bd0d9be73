// Scaling out: three `passmint serve` processes on one PostgreSQL share the
// API and the outbox. In normal operation (no crash) each event reaches
// each registration exactly once — no two workers claim one delivery — and
// every delivery took one attempt. Throughput (3 processes against 1) is
// measured in the bench, not asserted here: bench/server.js.
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bundleCli, startServe, type ServeProcess } from './child.js';
import { createPostgresDatabase } from './databases.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

let cli: { script: string; remove: () => void };
let database: { url: string; drop: () => Promise<void> };
let receiver: Receiver;
const processes: ServeProcess[] = [];

beforeAll(async () => {
  [cli, database, receiver] = await Promise.all([bundleCli(), createPostgresDatabase(), startReceiver()]);
});

afterAll(async () => {
  for (const service of processes) service.child.kill('SIGTERM');
  await Promise.all(processes.map((service) => service.exited));
  await receiver?.close();
  await database?.drop();
  cli?.remove();
});

test('three processes started at once migrate once, make one API key, and deliver each event once per registration', async () => {
  const tuning = ['--allow-private-webhooks', '--poll-ms', '50'];
  const args = ['--database-url', database.url, ...tuning];
  // Started together: the migrations and the first key are taken under advisory locks.
  // One finds its database through DATABASE_URL, as an operator's would.
  processes.push(
    ...(await Promise.all([startServe(cli.script, tuning, { DATABASE_URL: database.url }), startServe(cli.script, args), startServe(cli.script, args)])),
  );
  expect(processes.every((service) => service.output().includes('(PostgreSQL at postgres://'))).toBe(true);
  const keys = processes.map((service) => service.apiKey).filter((key) => key !== undefined);
  expect(keys.length).toBe(1);
  const headers = { authorization: `Bearer ${keys[0]!}`, 'content-type': 'application/json' };

  const paths = ['/x', '/y', '/z'];
  for (const path of paths) {
    const hook = await (
      await fetch(`${processes[0]!.url}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: `${receiver.url}${path}` }) })
    ).json();
    receiver.secrets.set(path, [hook.secret]);
  }
  const template = await (
    await fetch(`${processes[1]!.url}/v1/templates`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'T',
        formatVersion: 1,
        passType: 'pass.com.example.t',
        description: { generic: { primaryFields: [{ key: 'k', value: '${v}' }] } },
        placeholder: ['v'],
      }),
    })
  ).json();

  // 90 passes, created through all three processes at once.
  const count = 90;
  await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const response = await fetch(`${processes[index % 3]!.url}/v1/templates/${template.id}/passes`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ values: { v: String(index) } }),
      });
      expect(response.status).toBe(201);
    }),
  );

  await eventually(() => receiver.received.length >= count * paths.length, 60_000, 'every delivery');
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    // Every delivery recorded (just after its receiver answered): nothing is left to send, so a double claim has shown up by now.
    const pending = async (): Promise<number> =>
      Number((await client.query<{ n: string }>(`select count(*) as n from passmint_deliveries where status = 'pending'`)).rows[0]!.n);
    await eventually(async () => (await pending()) === 0, 30_000, 'every delivery recorded');
    for (const path of paths) {
      const ids = receiver.received.filter((entry) => entry.path === path).map((entry) => entry.event.id);
      expect(ids.length).toBe(count);
      expect(new Set(ids).size).toBe(count);
    }
    const { rows } = await client.query<{ status: string; attempts: number; n: string }>(
      'select status, attempts, count(*) as n from passmint_deliveries group by status, attempts',
    );
    expect(rows).toEqual([{ status: 'delivered', attempts: 1, n: String(count * paths.length) }]);
    const migrations = await client.query('select version from passmint_migrations order by version');
    // Each migration applied once, in order: 1, 2, … with none missing.
    expect(migrations.rows.length).toBeGreaterThan(0);
    expect(migrations.rows).toEqual(migrations.rows.map((_: unknown, index: number) => ({ version: index + 1 })));
  } finally {
    await client.end();
  }
}, 150_000);
