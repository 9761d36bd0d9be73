import { describe, expect, test } from 'vitest';
import {
  createDelivery,
  createEvent,
  deliver,
  isEventType,
  receiveWebhook,
  respondToVerification,
  transitionRegistration,
  verifyEndpoint,
  WebhookError,
} from '../../src/webhooks/index.js';
import type { FetchLike, PassEventData } from '../../src/webhooks/index.js';
import type { RegistrationState } from '../../src/webhooks/index.js';
import { passData } from './fixtures.js';
import { closedUrl, trackedServers } from './servers.js';
import type { TestServer } from './servers.js';

const secret = 'whsec_handshake';
const server = trackedServers();
// The receivers run on 127.0.0.1, which deliveries refuse unless asked.
const local = { allowPrivateNetworks: true } as const;

/** A receiver written as the README shows: verify, then answer the handshake with respondToVerification. */
async function libraryReceiver(receiverSecret: string): Promise<TestServer> {
  return server(async (req, res) => {
    try {
      const event = await receiveWebhook(req, receiverSecret);
      const answer = respondToVerification(event);
      if (answer === undefined) {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(await answer.text());
    } catch {
      res.writeHead(401).end();
    }
  });
}

describe('respondToVerification', () => {
  test('answers webhook.verify with 200 and the token as text/plain', async () => {
    const answer = respondToVerification(createEvent('webhook.verify', { token: 'tok-123' }));
    expect(answer?.status).toBe(200);
    expect(answer?.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await answer?.text()).toBe('tok-123');
  });

  test('gives undefined for any other event, known or not', () => {
    expect(respondToVerification(createEvent('pass.created', { serialNumber: 's', passTypeIdentifier: 'pass.x' }))).toBeUndefined();
    expect(respondToVerification(createEvent('webhook.ping', { token: 'x' }))).toBeUndefined();
  });
});

describe('verifyEndpoint (against real receivers)', () => {
  test('a receiver using the library is verified; its registration goes pending → enabled', async () => {
    const receiver = await libraryReceiver(secret);
    let state: RegistrationState = 'pending';
    const result = await verifyEndpoint(receiver.url, secret, local);
    state = transitionRegistration(state, result.verified ? 'verified' : 'verification-failed');
    expect(result).toMatchObject({ verified: true, status: 200, event: { type: 'webhook.verify' } });
    expect(result.event.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(state).toBe('enabled');
  });

  test('every handshake sends a fresh token', async () => {
    const tokens: string[] = [];
    const receiver = await server(async (req, res) => {
      const event = await receiveWebhook(req, secret);
      const answer = respondToVerification(event);
      tokens.push(await (answer as Response).text());
      res.end(tokens.at(-1));
    });
    await verifyEndpoint(receiver.url, secret, local);
    await verifyEndpoint(receiver.url, secret, local);
    expect(tokens).toHaveLength(2);
    expect(tokens[0]).not.toBe(tokens[1]);
  });

  test('accepts the token with surrounding whitespace, or as JSON {"token": …}', async () => {
    const answers = [(token: string) => `\n  ${token}\r\n`, (token: string) => JSON.stringify({ token: ` ${token} ` })];
    for (const answer of answers) {
      const receiver = await server(async (req, res) => {
        const event = await receiveWebhook(req, secret);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(answer((event.data as { token: string }).token));
      });
      expect(await verifyEndpoint(receiver.url, secret, local)).toMatchObject({ verified: true });
    }
  });

  test('a receiver with the wrong secret answers 401: not verified, unexpected-status; the registration stays pending', async () => {
    const receiver = await libraryReceiver('whsec_other');
    const result = await verifyEndpoint(receiver.url, secret, local);
    expect(result).toMatchObject({ verified: false, reason: 'unexpected-status', status: 401, error: 'HTTP 401' });
    expect(transitionRegistration('pending', 'verification-failed')).toBe('pending');
  });

  test.each<[string, (token: string) => string]>([
    ['an empty body', () => ''],
    ['another token', () => 'not-the-token'],
    ['the token inside other text', (token) => `token=${token}`],
    ['JSON without token', () => '{"ok":true}'],
    ['JSON with a number token', () => '{"token":1}'],
  ])('2xx with %s: wrong-token', async (_, answer) => {
    const receiver = await server(async (req, res) => {
      const event = await receiveWebhook(req, secret);
      res.writeHead(200).end(answer((event.data as { token: string }).token));
    });
    expect(await verifyEndpoint(receiver.url, secret, local)).toMatchObject({ verified: false, reason: 'wrong-token', status: 200 });
  });

  test('an answer over 64 KiB is not read to the end: wrong-token', async () => {
    const receiver = await server((_, res) => void res.writeHead(200).end('x'.repeat(100_000)));
    expect(await verifyEndpoint(receiver.url, secret, local)).toMatchObject({ verified: false, reason: 'wrong-token' });
  });

  test('a redirect is not followed: redirect', async () => {
    const target = await libraryReceiver(secret);
    const receiver = await server((_, res) => void res.writeHead(302, { Location: target.url }).end());
    expect(await verifyEndpoint(receiver.url, secret, local)).toMatchObject({ verified: false, reason: 'redirect', status: 302 });
    expect(target.hits()).toBe(0);
  });

  test('a receiver that hangs: timeout', async () => {
    const receiver = await server(() => undefined);
    expect(await verifyEndpoint(receiver.url, secret, { ...local, timeoutMs: 50 })).toMatchObject({ verified: false, reason: 'timeout' });
  });

  test('a receiver that sends headers and then stalls the body: timeout (the limit covers reading the answer)', async () => {
    const receiver = await server((_, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    expect(await verifyEndpoint(receiver.url, secret, { ...local, timeoutMs: 100 })).toMatchObject({ verified: false, reason: 'timeout' });
  });

  test('nobody listening: network-error', async () => {
    expect(await verifyEndpoint(await closedUrl(), secret, local)).toMatchObject({ verified: false, reason: 'network-error' });
  });

  test('misuse throws: invalid-url, invalid-secret', async () => {
    await expect(verifyEndpoint('mailto:me@example.com', secret)).rejects.toMatchObject({ code: 'invalid-url' });
    await expect(verifyEndpoint('https://example.com', '')).rejects.toMatchObject({ code: 'invalid-secret' });
  });
});

describe('a Fetch handler (the README example), driven in-process', () => {
  const env = { WEBHOOK_SECRET: secret };
  const created: PassEventData[] = [];
  const handler = async (request: Request): Promise<Response> => {
    try {
      const event = await receiveWebhook(request, env.WEBHOOK_SECRET);
      const answer = respondToVerification(event);
      if (answer) return answer;
      if (isEventType(event, 'pass.created')) created.push(event.data);
      return new Response(null, { status: 204 });
    } catch (error) {
      if (!(error instanceof WebhookError)) throw error;
      const unauthorized = error.code === 'missing-signature' || error.code === 'invalid-signature';
      return new Response(error.code, { status: unauthorized ? 401 : 400 });
    }
  };
  const fetch: FetchLike = async (url, init) => handler(new Request(url, init));

  test('answers the handshake, takes events, refuses a wrong secret', async () => {
    expect(await verifyEndpoint('https://receiver.example/hooks', secret, { fetch })).toMatchObject({ verified: true, status: 200 });
    const event = createEvent('pass.created', passData);
    expect(await deliver('https://receiver.example/hooks', await createDelivery(event, secret), { fetch })).toMatchObject({
      outcome: 'received',
      status: 204,
    });
    expect(created).toEqual([passData]);
    expect(await deliver('https://receiver.example/hooks', await createDelivery(event, 'whsec_wrong'), { fetch })).toMatchObject({
      outcome: 'retry',
      status: 401,
    });
  });
});
