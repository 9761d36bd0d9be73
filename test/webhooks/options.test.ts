import { describe, expect, test } from 'vitest';
import {
  createDelivery,
  createEvent,
  deliver,
  dispatchEvent,
  nextRetryDelay,
  receiveWebhook,
  signPayload,
  verifyEndpoint,
  WebhookError,
} from '../../src/webhooks/index.js';
import type { FetchLike } from '../../src/webhooks/index.js';
import { passData } from './fixtures.js';

// Every numeric option is checked: NaN fails every comparison, so an unchecked
// `maxBodyBytes: NaN` removed the body cap and `maxAgeMs: NaN` meant "retry
// forever"; a timer over 2³¹−1 ms fires at once, so every delivery failed.
const secret = 'whsec_options';
const event = createEvent('pass.created', passData);
const url = 'https://hooks.example.com/in';
let sent = 0;
const fetch: FetchLike = async () => {
  sent++;
  return new Response(null, { status: 204 });
};

function code(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof WebhookError ? error.code : `not a WebhookError: ${String(error)}`;
  }
  return undefined;
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => (error instanceof WebhookError ? error.code : `not a WebhookError: ${String(error)}`),
  );
}

const badTimeouts: unknown[] = [Number.NaN, 0, -1, 1.5, 2 ** 31, Number.POSITIVE_INFINITY, 1e300, '1000', null];

describe('timeoutMs: an integer from 1 to 2³¹−1', () => {
  test.each(badTimeouts)('%j is invalid-argument for deliver, verifyEndpoint and dispatchEvent, before anything is sent', async (timeoutMs) => {
    sent = 0;
    const options = { fetch, timeoutMs: timeoutMs as number };
    const delivery = await createDelivery(event, secret);
    expect(await codeOf(deliver(url, delivery, options))).toBe('invalid-argument');
    expect(await codeOf(verifyEndpoint(url, secret, options))).toBe('invalid-argument');
    expect(await codeOf(dispatchEvent(event, [{ url, secret, state: 'enabled' }], options))).toBe('invalid-argument');
    expect(sent).toBe(0);
  });

  test('the largest timer, 2³¹−1 ms, is accepted (and a quick answer is received)', async () => {
    const delivery = await createDelivery(event, secret);
    expect(await deliver(url, delivery, { fetch, timeoutMs: 2 ** 31 - 1 })).toEqual({ ok: true, outcome: 'received', status: 204 });
  });

  test('the message names the option and the value', async () => {
    const error = await deliver(url, await createDelivery(event, secret), { fetch, timeoutMs: 2 ** 31 }).catch((caught: unknown) => caught);
    expect((error as WebhookError).message).toBe('timeoutMs must be an integer from 1 to 2147483647, not 2147483648');
  });

  test('a fetch that ignores its signal still ends at the time limit', async () => {
    const never: FetchLike = () => new Promise<Response>(() => undefined);
    expect(await deliver(url, await createDelivery(event, secret), { fetch: never, timeoutMs: 30 })).toEqual({
      ok: false,
      outcome: 'retry',
      reason: 'timeout',
      error: 'No response within 30 ms',
    });
    expect(await verifyEndpoint(url, secret, { fetch: never, timeoutMs: 30 })).toMatchObject({ verified: false, reason: 'timeout' });
  });

  test('a fetch that throws synchronously is a network error, not a crash', async () => {
    const broken: FetchLike = () => {
      throw new TypeError('boom');
    };
    expect(await deliver(url, await createDelivery(event, secret), { fetch: broken })).toMatchObject({ reason: 'network-error' });
  });
});

describe('other options of the senders', () => {
  test.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '4'])('dispatchEvent concurrency %j is invalid-argument', async (concurrency) => {
    sent = 0;
    const result = dispatchEvent(event, [{ url, secret, state: 'enabled' }], { fetch, concurrency: concurrency as number });
    expect(await codeOf(result)).toBe('invalid-argument');
    expect(sent).toBe(0);
  });

  test('a delivery that is not { body, headers } is invalid-argument, not a TypeError', async () => {
    for (const delivery of [undefined, null, 'body', { body: 1, headers: {} }, { body: '{}' }]) {
      expect(await codeOf(deliver(url, delivery as never, { fetch }))).toBe('invalid-argument');
    }
  });

  test('a signal that is not an AbortSignal is invalid-argument', async () => {
    const delivery = await createDelivery(event, secret);
    expect(await codeOf(deliver(url, delivery, { fetch, signal: {} as AbortSignal }))).toBe('invalid-argument');
  });

  test('fetch and now must be functions', async () => {
    const delivery = await createDelivery(event, secret);
    expect(await codeOf(deliver(url, delivery, { fetch: 'fetch' as unknown as FetchLike }))).toBe('invalid-argument');
    expect(await codeOf(deliver(url, delivery, { fetch, now: 5 as unknown as () => number }))).toBe('invalid-argument');
  });

  test('a clock that gives NaN is invalid-argument when a Retry-After date needs it', async () => {
    const busy: FetchLike = async () => new Response(null, { status: 503, headers: { 'Retry-After': 'Tue, 21 Oct 2025 08:28:00 GMT' } });
    expect(await codeOf(deliver(url, await createDelivery(event, secret), { fetch: busy, now: () => Number.NaN }))).toBe('invalid-argument');
  });
});

describe('receiveWebhook options', () => {
  async function receive(options: object): Promise<string | undefined> {
    const delivery = await createDelivery(event, secret);
    return codeOf(receiveWebhook({ body: delivery.body, headers: delivery.headers }, secret, options));
  }

  test.each([Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY, '1024', null])('maxBodyBytes %j is invalid-argument', async (maxBodyBytes) => {
    expect(await receive({ maxBodyBytes })).toBe('invalid-argument');
  });

  test('maxBodyBytes: NaN no longer lifts the cap; a real cap still applies', async () => {
    expect(await receive({ maxBodyBytes: 10 })).toBe('body-too-large');
    expect(await receive({ maxBodyBytes: 1024 })).toBeUndefined();
  });

  test.each([Number.NaN, -1, Number.POSITIVE_INFINITY, '300'])('toleranceSeconds %j is invalid-argument', async (toleranceSeconds) => {
    expect(await receive({ toleranceSeconds })).toBe('invalid-argument');
  });

  test('a clock that gives NaN cannot switch the tolerance off', async () => {
    expect(await receive({ toleranceSeconds: 300, now: () => Number.NaN })).toBe('invalid-argument');
    expect(await receive({ toleranceSeconds: 300, now: 'now' })).toBe('invalid-argument');
  });

  test('a body signed with the right secret but created an hour ago is stale under a 5-minute tolerance', async () => {
    const old = createEvent('pass.created', passData, { created: Date.now() - 3_600_000 });
    const body = JSON.stringify(old);
    const headers = { 'x-service-signature': await signPayload(body, secret) };
    expect(await codeOf(receiveWebhook({ body, headers }, secret, { toleranceSeconds: 300 }))).toBe('stale-event');
  });
});

describe('nextRetryDelay options', () => {
  const first = Date.parse('2025-03-01T12:00:00Z');

  test.each<[string, object]>([
    ['maxAgeMs NaN', { maxAgeMs: Number.NaN, firstAttemptAt: first }],
    ['maxAgeMs -1', { maxAgeMs: -1, firstAttemptAt: first }],
    ['maxAgeMs Infinity', { maxAgeMs: Number.POSITIVE_INFINITY, firstAttemptAt: first }],
    ['maxAttempts NaN', { maxAttempts: Number.NaN }],
    ['maxAttempts 0', { maxAttempts: 0 }],
    ['maxAttempts 2.5', { maxAttempts: 2.5 }],
    ['retryAfterMs NaN', { retryAfterMs: Number.NaN }],
    ['retryAfterMs -5', { retryAfterMs: -5 }],
    ['firstAttemptAt NaN', { maxAgeMs: 1000, firstAttemptAt: Number.NaN }],
    ['firstAttemptAt an invalid Date', { maxAgeMs: 1000, firstAttemptAt: new Date('nope') }],
    ['jitter NaN', { jitter: Number.NaN }],
    ['jitter -0.1', { jitter: -0.1 }],
    ['random() giving NaN', { random: () => Number.NaN }],
    ['random() giving 1', { random: () => 1 }],
    ['now() giving NaN', { maxAgeMs: 1000, firstAttemptAt: first, now: () => Number.NaN }],
  ])('%s is invalid-argument', (_, options) => {
    expect(code(() => nextRetryDelay(2, options))).toBe('invalid-argument');
  });

  test('valid options still work: maxAgeMs gives up, maxAttempts gives up, retryAfterMs wins', () => {
    const now = () => first + 60_000;
    expect(nextRetryDelay(2, { maxAgeMs: 90_000, firstAttemptAt: first, now, random: () => 0.5 })).toBeUndefined();
    expect(nextRetryDelay(2, { maxAgeMs: 180_000, firstAttemptAt: new Date(first), now, random: () => 0.5 })).toBe(60_000);
    expect(nextRetryDelay(3, { maxAttempts: 3 })).toBeUndefined();
    expect(nextRetryDelay(1, { retryAfterMs: 0, random: () => 0.5 })).toBe(5_000);
    expect(nextRetryDelay(1, { retryAfterMs: 10_000, random: () => 0.5 })).toBe(10_000);
  });
});
