import { describe, expect, test } from 'vitest';
import { createDelivery, createEvent, deliver, nextRetryDelay, receiveWebhook, WebhookError } from '../../src/webhooks/index.js';
import type { DeliveryResult, FetchLike } from '../../src/webhooks/index.js';
import { passData } from './fixtures.js';
import { closedUrl, trackedServers } from './servers.js';

const secret = 'whsec_delivery';
const event = createEvent('pass.created', passData);
const server = trackedServers();
// The receivers run on 127.0.0.1, which deliveries refuse unless asked.
const local = { allowPrivateNetworks: true } as const;

describe('createDelivery', () => {
  test('is the event as JSON plus the three headers, signed over that exact body', async () => {
    const delivery = await createDelivery(event, secret);
    expect(JSON.parse(delivery.body)).toEqual(event);
    expect(delivery.headers).toEqual({
      'Content-Type': 'application/json',
      'X-Service': 'event',
      'X-Service-Signature': expect.stringMatching(/^sha1=[0-9a-f]{40}$/),
    });
  });

  test('refuses something that is not an event with invalid-event', async () => {
    await expect(createDelivery({ ...event, created: 'yesterday' }, secret)).rejects.toMatchObject({ code: 'invalid-event' });
  });
});

describe('deliver (one attempt against real receivers on 127.0.0.1)', () => {
  test('a receiver that verifies with the library gets the event: received', async () => {
    const seen: unknown[] = [];
    const headers: unknown[] = [];
    const receiver = await server(async (req, res) => {
      headers.push(req.method, req.headers['content-type'], req.headers['x-service']);
      seen.push(await receiveWebhook(req, secret));
      res.writeHead(200).end('thanks');
    });
    const result = await deliver(receiver.url, await createDelivery(event, secret), local);
    expect(result).toEqual({ ok: true, outcome: 'received', status: 200 });
    expect(seen).toEqual([event]);
    expect(headers).toEqual(['POST', 'application/json', 'event']);
  });

  test('any 2xx is received', async () => {
    const receiver = await server((_, res) => void res.writeHead(299).end());
    expect(await deliver(receiver.url, await createDelivery(event, secret), local)).toEqual({ ok: true, outcome: 'received', status: 299 });
  });

  test('500 twice then 200: retried on the schedule (checked with an injected clock, not waited out)', async () => {
    let calls = 0;
    const receiver = await server((_, res) => void res.writeHead(++calls <= 2 ? 500 : 200).end());
    const delivery = await createDelivery(event, secret);
    // A tiny queue driven by a fake clock: what a service's job runner does.
    let clock = Date.parse('2025-03-01T12:00:00Z');
    const firstAttemptAt = clock;
    const results: DeliveryResult[] = [];
    const waits: number[] = [];
    for (let attempt = 1; ; attempt++) {
      const result = await deliver(receiver.url, delivery, { ...local, now: () => clock });
      results.push(result);
      if (result.outcome !== 'retry') break;
      const wait = nextRetryDelay(attempt, {
        retryAfterMs: result.retryAfterMs,
        random: () => 0.5,
        now: () => clock,
        firstAttemptAt,
        maxAgeMs: 3 * 86_400_000,
      });
      if (wait === undefined) break;
      waits.push(wait);
      clock += wait;
    }
    expect(results.map((result) => [result.outcome, result.status])).toEqual([
      ['retry', 500],
      ['retry', 500],
      ['received', 200],
    ]);
    expect(results[0]).toMatchObject({ ok: false, error: 'HTTP 500 Internal Server Error' });
    expect(waits).toEqual([5_000, 60_000]);
    expect(clock - firstAttemptAt).toBe(65_000);
    expect(receiver.hits()).toBe(3);
  });

  test('a receiver that hangs: timeout, retry', async () => {
    const receiver = await server(() => undefined); // never answers
    const result = await deliver(receiver.url, await createDelivery(event, secret), { ...local, timeoutMs: 50 });
    expect(result).toEqual({ ok: false, outcome: 'retry', reason: 'timeout', error: 'No response within 50 ms' });
  });

  test('a receiver that redirects: not followed, retry', async () => {
    const target = await server((_, res) => void res.writeHead(200).end());
    const receiver = await server((_, res) => void res.writeHead(307, { Location: target.url }).end());
    const result = await deliver(receiver.url, await createDelivery(event, secret), local);
    expect(result).toMatchObject({ ok: false, outcome: 'retry', status: 307 });
    expect(result.ok ? '' : result.error).toMatch(/^Redirect to http:\/\/127\.0\.0\.1:\d+\/hooks not followed/);
    expect(target.hits()).toBe(0);
  });

  test('a receiver that answers 410: gone', async () => {
    const receiver = await server((_, res) => void res.writeHead(410).end());
    expect(await deliver(receiver.url, await createDelivery(event, secret), local)).toEqual({
      ok: false,
      outcome: 'gone',
      status: 410,
      error: 'HTTP 410 Gone',
    });
  });

  test('a receiver with the wrong secret refuses (401): retry', async () => {
    const receiver = await server(async (req, res) => {
      try {
        await receiveWebhook(req, 'whsec_someone_else');
        res.writeHead(200).end();
      } catch (error) {
        res.writeHead(error instanceof WebhookError && error.code === 'invalid-signature' ? 401 : 400).end();
      }
    });
    expect(await deliver(receiver.url, await createDelivery(event, secret), local)).toMatchObject({ ok: false, outcome: 'retry', status: 401 });
  });

  test('429 with Retry-After in seconds and 503 with an HTTP date give retryAfterMs', async () => {
    const now = Date.parse('2025-10-21T07:28:00Z');
    const slow = await server((_, res) => void res.writeHead(429, { 'Retry-After': '120' }).end());
    const down = await server((_, res) => void res.writeHead(503, { 'Retry-After': 'Tue, 21 Oct 2025 08:28:00 GMT' }).end());
    const other = await server((_, res) => void res.writeHead(500, { 'Retry-After': '120' }).end());
    const delivery = await createDelivery(event, secret);
    expect(await deliver(slow.url, delivery, { ...local, now: () => now })).toMatchObject({ outcome: 'retry', status: 429, retryAfterMs: 120_000 });
    expect(await deliver(down.url, delivery, { ...local, now: () => now })).toMatchObject({ outcome: 'retry', status: 503, retryAfterMs: 3_600_000 });
    expect(await deliver(other.url, delivery, local)).not.toHaveProperty('retryAfterMs');
    // …which nextRetryDelay honours, capped at 24 h.
    expect(nextRetryDelay(1, { retryAfterMs: 3_600_000, random: () => 0.5 })).toBe(3_600_000);
  });

  test('nobody listening: network error, retry', async () => {
    const result = await deliver(await closedUrl(), await createDelivery(event, secret), local);
    // The text says no more than that: no address, port or system error (see the SSRF tests).
    expect(result).toEqual({ ok: false, outcome: 'retry', reason: 'network-error', error: 'No HTTP response: the connection failed' });
  });

  test('an injected fetch gets a POST with manual redirects and the three headers', async () => {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const fetch: FetchLike = async (url, init) => {
      calls.push({ url: String(url), init });
      return new Response(null, { status: 202 });
    };
    const delivery = await createDelivery(event, secret);
    expect(await deliver('https://hooks.example/in', delivery, { fetch })).toEqual({ ok: true, outcome: 'received', status: 202 });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('https://hooks.example/in');
    expect(calls[0]?.init).toMatchObject({ method: 'POST', redirect: 'manual', body: delivery.body, headers: delivery.headers });
  });

  test('an opaque redirect (what browsers return for redirect: manual) is retry, without a status', async () => {
    const opaque = Response.error();
    Object.defineProperty(opaque, 'type', { value: 'opaqueredirect' });
    const result = await deliver('https://hooks.example/in', await createDelivery(event, secret), { fetch: async () => opaque });
    expect(result).toMatchObject({ ok: false, outcome: 'retry' });
    expect(result).not.toHaveProperty('status');
  });

  test('an abort from the caller is reported, not thrown', async () => {
    const receiver = await server(() => undefined);
    const controller = new AbortController();
    const pending = deliver(receiver.url, await createDelivery(event, secret), { ...local, signal: controller.signal });
    controller.abort();
    expect(await pending).toEqual({ ok: false, outcome: 'retry', reason: 'aborted', error: 'Aborted by the caller' });
  });

  test.each([['not a url'], ['ftp://hooks.example/in'], ['/relative']])('throws invalid-url for %j', async (url) => {
    await expect(deliver(url, await createDelivery(event, secret))).rejects.toMatchObject({ code: 'invalid-url' });
  });

  test('throws invalid-argument for a timeout that is not a positive number', async () => {
    await expect(deliver('https://hooks.example/in', await createDelivery(event, secret), { timeoutMs: 0 })).rejects.toMatchObject({
      code: 'invalid-argument',
    });
  });
});
