// A webhook secret is shown once: in the answer that creates the registration
// and in the answer that rotates it, never in a read, a list or a verification.
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { receiveWebhook, respondToVerification } from '../../src/webhooks/index.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { openApiChecker, recordAnswers, type Answer } from './openapi-check.js';

const FIRST = 'whsec_first-secret-of-the-receiver-0001';
const SECOND = 'whsec_second-secret-of-the-receiver-002';

/** A receiver that accepts events signed with any secret of its (changeable) list. */
async function startReceiver(): Promise<{ url: string; secrets: string[]; close(): Promise<void> }> {
  const secrets: string[] = [];
  const server: Server = createHttpServer((req, res) => {
    void (async () => {
      try {
        const answer = respondToVerification(await receiveWebhook(req, [...secrets]));
        if (answer) return res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(await answer.text());
        res.writeHead(204).end();
      } catch {
        res.writeHead(401).end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, secrets, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

for (const engine of ENGINES) {
  describe(`webhook secrets on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    const answers: Answer[] = [];
    let receiver: Awaited<ReturnType<typeof startReceiver>>;

    beforeAll(async () => {
      database = await engine.open();
      service = recordAnswers(await startService(database), answers);
      receiver = await startReceiver();
    });
    afterAll(async () => {
      await service?.close();
      await receiver?.close();
      await database?.dispose();
    });

    test('shown at creation, then never in a read, a list or a verification', async () => {
      receiver.secrets.splice(0, Infinity, FIRST);
      const created = await service.call('POST', '/v1/webhooks', { url: receiver.url, secret: FIRST });
      expect([created.status, created.body.secret, created.body.state]).toEqual([201, FIRST, 'enabled']);
      const id = created.body.id as string;

      const read = await service.call('GET', `/v1/webhooks/${id}`);
      expect(read.status).toBe(200);
      expect(read.body).not.toHaveProperty('secret');
      const listed = await service.call('GET', '/v1/webhooks');
      expect(listed.body.items.length).toBeGreaterThan(0);
      for (const item of listed.body.items) expect(item).not.toHaveProperty('secret');
      expect(listed.bytes.length).toBeGreaterThan(0);
      expect(new TextDecoder().decode(listed.bytes)).not.toContain(FIRST);
      const verified = await service.call('POST', `/v1/webhooks/${id}/verify`);
      expect(verified.body.verification).toEqual({ verified: true, status: 200 });
      expect(verified.body).not.toHaveProperty('secret');
    });

    test('rotation answers the new secret once (made, or the one given), and signs with it from then on', async () => {
      receiver.secrets.splice(0, Infinity, FIRST);
      const id = (await service.call('POST', '/v1/webhooks', { url: receiver.url, secret: FIRST })).body.id as string;

      // The receiver is given the new secret first (beside the old), then the registration moves to it.
      receiver.secrets.push(SECOND);
      const chosen = await service.call('POST', `/v1/webhooks/${id}/secret`, { secret: SECOND });
      expect([chosen.status, chosen.body.secret, chosen.body.id]).toEqual([200, SECOND, id]);
      receiver.secrets.splice(0, Infinity, SECOND);
      expect((await service.call('POST', `/v1/webhooks/${id}/verify`)).body.verification).toEqual({ verified: true, status: 200 });
      expect((await service.call('GET', `/v1/webhooks/${id}`)).body).not.toHaveProperty('secret');

      // Without a body the service makes one: the receiver, which knows only SECOND, now refuses the handshake.
      const made = await service.call('POST', `/v1/webhooks/${id}/secret`);
      expect(made.status).toBe(200);
      expect(made.body.secret).toMatch(/^whsec_/);
      expect(made.body.secret).not.toBe(SECOND);
      expect((await service.call('POST', `/v1/webhooks/${id}/verify`)).body.verification).toMatchObject({ verified: false, status: 401 });
    });

    test('a rotation with a secret that is too short or not a string is refused with 422, and the secret stays', async () => {
      receiver.secrets.splice(0, Infinity, FIRST);
      const id = (await service.call('POST', '/v1/webhooks', { url: receiver.url, secret: FIRST })).body.id as string;
      for (const body of [{ secret: 'short' }, { secret: 42 }, [1, 2]]) {
        const refused = await service.call('POST', `/v1/webhooks/${id}/secret`, body);
        expect([refused.status, refused.body.code]).toEqual([422, 'invalid-body']);
      }
      expect((await service.call('POST', `/v1/webhooks/${id}/verify`)).body.verification).toEqual({ verified: true, status: 200 });
    });

    test('every answer above is as the OpenAPI document says (status documented, body valid)', async () => {
      const check = await openApiChecker(service.url);
      expect(answers.length).toBeGreaterThan(5);
      expect(answers.map(check).filter((problem) => problem !== undefined)).toEqual([]);
    });
  });
}
