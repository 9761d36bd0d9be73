import { createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createEvent, receiveWebhook, signPayload, WebhookError } from '../../src/webhooks/index.js';
import type { WebhookErrorCode } from '../../src/webhooks/index.js';
import { passData } from './fixtures.js';
import { trackedServers } from './servers.js';

const secret = 'whsec_receiver';
const event = createEvent('pass.created', passData, { created: Date.parse('2025-03-01T12:00:00Z') });
const body = JSON.stringify(event);
const signature = `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;

function request(payload: BodyInit | null, headers: Record<string, string> = { 'X-Service-Signature': signature }): Request {
  return new Request('https://receiver.example/hooks', { method: 'POST', headers, body: payload });
}

async function codeOf(promise: Promise<unknown>): Promise<WebhookErrorCode | 'resolved'> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    if (error instanceof WebhookError) return error.code;
    throw error;
  }
}

describe('receiveWebhook with a Fetch Request', () => {
  test('returns the typed event for a correctly signed body', async () => {
    expect(await receiveWebhook(request(body), secret)).toEqual(event);
  });

  test('accepts any secret of a rotation list', async () => {
    expect(await receiveWebhook(request(body), ['whsec_new', secret])).toEqual(event);
  });

  test('accepts an unknown event type, data untouched', async () => {
    const unknown = JSON.stringify({ ...event, type: 'pass.voided', data: { reason: 'refund' } });
    const headers = { 'x-service-signature': await signPayload(unknown, secret) };
    expect(await receiveWebhook(request(unknown, headers), secret)).toMatchObject({ type: 'pass.voided', data: { reason: 'refund' } });
  });

  test.each<[string, () => Request, WebhookErrorCode]>([
    ['no signature header', () => request(body, {}), 'missing-signature'],
    ['an empty signature header', () => request(body, { 'X-Service-Signature': '' }), 'missing-signature'],
    ['a malformed signature header', () => request(body, { 'X-Service-Signature': 'sha256=abc' }), 'invalid-signature'],
    [
      "another secret's signature",
      () => request(body, { 'X-Service-Signature': `sha1=${createHmac('sha1', 'x').update(body).digest('hex')}` }),
      'invalid-signature',
    ],
    ['a body changed by one character', () => request(body.replace('E5982H', 'E5982X')), 'invalid-signature'],
    ['a re-serialized body (pretty-printed)', () => request(JSON.stringify(event, null, 2)), 'invalid-signature'],
  ])('refuses %s', async (_, make, code) => {
    expect(await codeOf(receiveWebhook(make(), secret))).toBe(code);
  });

  test.each<[string, string | Uint8Array, WebhookErrorCode]>([
    ['not JSON', 'not json', 'malformed-body'],
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), 'malformed-body'],
    ['empty', '', 'malformed-body'],
    ['JSON but not an event', '{"hello":"world"}', 'invalid-event'],
    ['an event with a bad created', JSON.stringify({ ...event, created: '2025-03-01T12:00:00.000Z' }), 'invalid-event'],
    ['a known type with incomplete data', JSON.stringify({ ...event, data: { serialNumber: 'x' } }), 'invalid-event'],
  ])('refuses a correctly signed body that is %s', async (_, payload, code) => {
    const headers = { 'X-Service-Signature': await signPayload(payload, secret) };
    expect(await codeOf(receiveWebhook(request(payload as BodyInit, headers), secret))).toBe(code);
  });

  test('toleranceSeconds: accepts an event inside the window, refuses one outside with stale-event', async () => {
    const created = Date.parse(event.created);
    expect(await receiveWebhook(request(body), secret, { toleranceSeconds: 300, now: () => created + 300_000 })).toEqual(event);
    expect(await codeOf(receiveWebhook(request(body), secret, { toleranceSeconds: 300, now: () => created + 301_000 }))).toBe('stale-event');
    // A clock far behind the sender's is refused too.
    expect(await codeOf(receiveWebhook(request(body), secret, { toleranceSeconds: 300, now: () => created - 301_000 }))).toBe('stale-event');
  });

  test('refuses a Request whose body was already read, saying how to fix it', async () => {
    const used = request(body);
    await used.json();
    const error = await receiveWebhook(used, secret).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'WebhookError', code: 'body-already-parsed' });
    expect((error as Error).message).toMatch(/already read/);
  });

  test('refuses a body over maxBodyBytes with body-too-large', async () => {
    expect(await codeOf(receiveWebhook(request(body), secret, { maxBodyBytes: 100 }))).toBe('body-too-large');
    expect(await receiveWebhook(request(body), secret, { maxBodyBytes: body.length })).toEqual(event);
  });

  test('checks arguments first: an empty secret list is invalid-secret', async () => {
    expect(await codeOf(receiveWebhook(request(body), []))).toBe('invalid-secret');
  });
});

describe('receiveWebhook with { body, headers }', () => {
  test('header names in any case, body as Buffer, string, ArrayBuffer or stream', async () => {
    const bytes = Buffer.from(body);
    for (const name of ['x-service-signature', 'X-SERVICE-SIGNATURE', 'X-Service-Signature']) {
      expect(await receiveWebhook({ body: bytes, headers: { [name]: signature } }, secret)).toEqual(event);
    }
    expect(await receiveWebhook({ body, headers: { 'x-service-signature': signature } }, secret)).toEqual(event);
    const buffer = new TextEncoder().encode(body).buffer;
    expect(await receiveWebhook({ body: buffer, headers: new Headers({ 'X-Service-Signature': signature }) }, secret)).toEqual(event);
    const stream = new Blob([body]).stream();
    expect(await receiveWebhook({ body: stream, headers: { 'x-service-signature': signature } }, secret)).toEqual(event);
  });

  test('a body that arrives in many chunks (split inside a multi-byte character) is joined before checking', async () => {
    const multiByte = createEvent('x.note', { text: 'Zoë 🎟️ ☃'.repeat(50) }, { created: 0 });
    const text = JSON.stringify(multiByte);
    const bytes = Buffer.from(text);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, index) => bytes.subarray(index * 7, index * 7 + 7));
    const headers = { 'x-service-signature': await signPayload(text, secret) };
    expect(await receiveWebhook({ body: Readable.from(chunks), headers }, secret)).toEqual(multiByte);
  });

  test('refuses a framework-parsed object with body-already-parsed and names express.raw', async () => {
    const error = await receiveWebhook({ body: JSON.parse(body) as unknown, headers: { 'x-service-signature': signature } }, secret).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'body-already-parsed' });
    expect((error as Error).message).toContain("express.raw({ type: 'application/json' })");
  });

  test('two X-Service-Signature headers (as an array) fail as invalid-signature', async () => {
    expect(await codeOf(receiveWebhook({ body, headers: { 'x-service-signature': [signature, signature] } }, secret))).toBe('invalid-signature');
  });

  test('no body and no stream is invalid-argument', async () => {
    expect(await codeOf(receiveWebhook({ headers: { 'x-service-signature': signature } }, secret))).toBe('invalid-argument');
  });
});

describe('receiveWebhook in a node:http server', () => {
  const server = trackedServers();

  test('reads the IncomingMessage itself and answers 204; a bad signature gets 401', async () => {
    const received: unknown[] = [];
    const receiver = await server(async (req, res) => {
      try {
        received.push(await receiveWebhook(req, secret));
        res.writeHead(204).end();
      } catch (error) {
        res.writeHead(error instanceof WebhookError && error.code === 'invalid-signature' ? 401 : 400).end();
      }
    });
    const ok = await fetch(receiver.url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Service-Signature': signature }, body });
    const bad = await fetch(receiver.url, { method: 'POST', headers: { 'X-Service-Signature': signature }, body: `${body} ` });
    expect([ok.status, bad.status]).toEqual([204, 401]);
    expect(received).toEqual([event]);
  });

  test('Express with express.raw: the request stream is consumed but req.body holds the bytes', async () => {
    const received: unknown[] = [];
    const receiver = await server(async (req, res) => {
      // What express.raw({ type: 'application/json' }) does before the route runs.
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      Object.assign(req, { body: Buffer.concat(chunks) });
      received.push(await receiveWebhook(req, secret));
      res.writeHead(200).end();
    });
    await fetch(receiver.url, { method: 'POST', headers: { 'X-Service-Signature': signature }, body });
    expect(received).toEqual([event]);
  });

  test('a stream already consumed by a body parser is body-already-parsed', async () => {
    const codes: string[] = [];
    const receiver = await server(async (req, res) => {
      for await (const chunk of req) void chunk; // what a JSON body parser does
      codes.push(await codeOf(receiveWebhook(req, secret)));
      res.end();
    });
    await fetch(receiver.url, { method: 'POST', headers: { 'X-Service-Signature': signature }, body });
    expect(codes).toEqual(['body-already-parsed']);
  });
});
