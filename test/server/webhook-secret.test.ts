import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { receiveWebhook, respondToVerification } from '../../src/webhooks/index.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

// A receiver as the README writes one: receiveWebhook checks the signature of
// every event, the handshake included, so it must know the secret first.
const SECRET = 'whsec_chosen-by-the-customer-0123456789';

async function startCheckingReceiver(secret: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createHttpServer((req, res) => {
    void (async () => {
      try {
        const event = await receiveWebhook(req, secret);
        const answer = respondToVerification(event);
        if (answer) return res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(await answer.text());
        res.writeHead(204).end();
      } catch {
        res.writeHead(401).end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const engine = ENGINES[0]!; // PGlite: the route's logic is the same on both engines

describe('registering a webhook with a secret the receiver already has', () => {
  let database: TestDatabase;
  let service: Service;
  let receiver: Awaited<ReturnType<typeof startCheckingReceiver>>;

  beforeAll(async () => {
    database = await engine.open();
    service = await startService(database);
    receiver = await startCheckingReceiver(SECRET);
  });
  afterAll(async () => {
    await service?.close();
    await receiver?.close();
    await database?.dispose();
  });

  test('a chosen secret: the signed handshake passes the checking receiver, enabled in one call', async () => {
    const hook = await service.call('POST', '/v1/webhooks', { url: receiver.url, secret: SECRET });
    expect(hook.status).toBe(201);
    expect(hook.body.secret).toBe(SECRET);
    expect(hook.body.state).toBe('enabled');
    expect(hook.body.verification).toEqual({ verified: true, status: 200 });
  });

  test('without one, the service makes a secret the receiver cannot know yet: pending, the receiver answered 401', async () => {
    const hook = await service.call('POST', '/v1/webhooks', { url: receiver.url });
    expect(hook.status).toBe(201);
    expect(hook.body.secret).toMatch(/^whsec_/);
    expect(hook.body.state).toBe('pending');
    expect(hook.body.verification).toMatchObject({ verified: false, status: 401 });
  });

  test('a secret that is short, spaced, non-ASCII or not a string is refused, and nothing is stored', async () => {
    const before = (await service.call('GET', '/v1/webhooks')).body.items.length as number;
    for (const secret of ['short', 'has a space in it here', 'ünïcødé-secret-value-x', 42, null]) {
      const refused = await service.call('POST', '/v1/webhooks', { url: receiver.url, secret });
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('invalid-body');
    }
    expect((await service.call('GET', '/v1/webhooks')).body.items.length).toBe(before);
  });
});

describe('a service that refuses private webhook addresses', () => {
  let database: TestDatabase;
  let service: Service;
  beforeAll(async () => {
    database = await engine.open();
    service = await startService(database, { delivery: { allowPrivateNetworks: false, pollMs: 25 } });
  });
  afterAll(async () => {
    await service?.close();
    await database?.dispose();
  });

  test("names the service's own switch, not the library's option", async () => {
    const refused = await service.call('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hooks' });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('invalid-webhook-url');
    expect(refused.body.detail).toContain('--allow-private-webhooks');
    expect(refused.body.detail).not.toContain('(allowPrivateNetworks lets it)');
  });
});
