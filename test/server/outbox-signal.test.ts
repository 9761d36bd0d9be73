// LISTEN/NOTIFY between processes on one PostgreSQL: a commit in one wakes the others' workers at once,
// and the listening connection comes back by itself when it is lost.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer, type PassmintServer } from '../../src/server/create-server.js';
import { createOutboxSignal, type OutboxSignal } from '../../src/server/db/outbox-signal.js';
import { openPostgres } from '../../src/server/db/postgres.js';
import type { SqlDatabase } from '../../src/server/db/sql.js';
import { createPostgresDatabase } from './databases.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';
import { TEST_SECRET_KEY } from './test-secret-key.js';

describe('the outbox signal on PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> };
  let db: SqlDatabase;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    db = await openPostgres({ connectionString: database.url });
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  test('another instance is signalled, the sender is not; after its connection is terminated the listener is back', async () => {
    const heard = { a: 0, b: 0 };
    const a: OutboxSignal = await createOutboxSignal({
      connectionString: database.url,
      db,
      instanceId: 'instance-a',
      onSignal: () => heard.a++,
      maxRetryMs: 200,
    });
    const b: OutboxSignal = await createOutboxSignal({
      connectionString: database.url,
      db,
      instanceId: 'instance-b',
      onSignal: () => heard.b++,
      maxRetryMs: 200,
    });
    try {
      // Each is signalled once when it starts listening.
      await eventually(() => heard.a === 1 && heard.b === 1, 5000, 'both listening');
      a.notify();
      await eventually(() => heard.b === 2, 5000, 'b hears a');
      expect(heard.a).toBe(1);

      const terminated = await db.query<{ n: number }>(
        `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and query = 'LISTEN passmint_outbox'`,
      );
      expect(terminated[0]!.n).toBe(2);
      // Connected again: each is signalled for what may have been queued meanwhile, then hears the other again.
      await eventually(() => heard.a === 2 && heard.b === 3, 10_000, 'both listening again');
      b.notify();
      await eventually(() => heard.a === 3, 5000, 'a hears b after the reconnection');
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('a pass made through one process is delivered by another whose worker polls once a minute', async () => {
    const receiver: Receiver = await startReceiver();
    const servers: PassmintServer[] = [];
    try {
      const front = await createServer({
        databaseUrl: database.url,
        secretKey: TEST_SECRET_KEY,
        workers: false,
        delivery: { allowPrivateNetworks: true },
        onError: (error) => expect.fail(String(error)),
      });
      servers.push(front);
      const worker = await createServer({
        databaseUrl: database.url,
        secretKey: TEST_SECRET_KEY,
        delivery: { allowPrivateNetworks: true, pollMs: 60_000 },
        onError: (error) => expect.fail(String(error)),
      });
      servers.push(worker);
      const key = front.firstApiKey ?? (await front.addApiKey());
      const call = async (method: string, path: string, body: unknown) => {
        const response = await front.fetch(
          new Request(`http://front${path}`, {
            method,
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }),
        );
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      // Enabled without the handshake (the front runs no workers, and this is about the wake-up).
      const hook = await call('POST', '/v1/webhooks', { url: `${receiver.url}/signal` });
      expect(hook.status).toBe(201);
      await db.query(`update passmint_webhooks set state = 'enabled' where id = $1`, [hook.body['id']]);
      receiver.secrets.set('/signal', [hook.body['secret'] as string]);
      // Past the worker's first poll, which found nothing.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const template = await call('POST', '/v1/templates', {
        name: 'Signal',
        formatVersion: 1,
        passType: 'pass.com.example.signal',
        description: { generic: { primaryFields: [{ key: 'name', label: 'Name', value: '${name}' }] } },
        placeholder: ['name'],
      });
      expect((await call('POST', `/v1/templates/${template.body['id']}/passes`, { values: { name: 'Ada' } })).status).toBe(201);
      await eventually(
        () => receiver.received.some((entry) => entry.path === '/signal' && entry.event.type === 'pass.created'),
        10_000,
        'delivered long before the next poll',
      );
    } finally {
      for (const server of servers) await server.close();
      await receiver.close();
    }
  });
});
