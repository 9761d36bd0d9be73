import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { fetchGoogleRootKeys, parseRootKeys, verifyGoogleCallback } from '../../src/google/index.js';
import { createCallbackSigner, ecKey } from './stand-in.js';

const issuerId = '3388000000012345678';
const now = Date.UTC(2026, 10, 26, 12, 0, 0);
const message = { classId: `${issuerId}.event`, objectId: `${issuerId}.event.A-1`, expTimeMillis: now + 60_000, eventType: 'save', nonce: 'n-1' };
const signer = createCallbackSigner();
const rootKeys = signer.rootKeys(now + 86_400_000);
const valid = (overrides: Partial<Parameters<typeof signer.sign>[0]> = {}): string =>
  signer.sign({ issuerId, message, intermediateExpiration: now + 3_600_000, ...overrides });

describe('verifyGoogleCallback', () => {
  test('accepts a callback signed as Google signs it, and reads the message', async () => {
    const body = valid();
    expect(body).toContain('\\u003d');
    const result = await verifyGoogleCallback(body, { issuerId, rootKeys, now });
    expect(result).toEqual({ ok: true, message });
  });

  test('accepts the body already parsed (the signed texts are strings inside it)', async () => {
    const result = await verifyGoogleCallback(JSON.parse(valid()) as object, { issuerId, rootKeys, now });
    expect(result.ok).toBe(true);
  });

  test('accepts a delete event', async () => {
    const result = await verifyGoogleCallback(signer.sign({ issuerId, message: { ...message, eventType: 'del' }, intermediateExpiration: now + 1000 }), {
      issuerId,
      rootKeys,
      now,
    });
    expect(result.ok && result.message.eventType).toBe('del');
  });

  test('a tampered message is refused: signature-invalid', async () => {
    const body = JSON.parse(valid()) as { signedMessage: string };
    body.signedMessage = body.signedMessage.replace('A-1', 'A-2');
    expect(await verifyGoogleCallback(body, { issuerId, rootKeys, now })).toEqual({ ok: false, reason: 'signature-invalid' });
  });

  test('a message for another issuer id is refused: signature-invalid', async () => {
    expect(await verifyGoogleCallback(valid(), { issuerId: '3388000000099999999', rootKeys, now })).toEqual({ ok: false, reason: 'signature-invalid' });
  });

  test('an expired intermediate key is refused: intermediate-expired', async () => {
    expect(await verifyGoogleCallback(valid({ intermediateExpiration: now - 1 }), { issuerId, rootKeys, now })).toEqual({
      ok: false,
      reason: 'intermediate-expired',
    });
  });

  test('an intermediate key signed by another root is refused: intermediate-signature-invalid', async () => {
    expect(await verifyGoogleCallback(valid({ root: ecKey() }), { issuerId, rootKeys, now })).toEqual({ ok: false, reason: 'intermediate-signature-invalid' });
  });

  test('a tampered intermediate key is refused: intermediate-signature-invalid', async () => {
    const body = JSON.parse(valid()) as { intermediateSigningKey: { signedKey: string } };
    body.intermediateSigningKey.signedKey = body.intermediateSigningKey.signedKey.replace(/"keyExpiration":"\d+"/, `"keyExpiration":"${now + 9_000_000}"`);
    expect(await verifyGoogleCallback(body, { issuerId, rootKeys, now })).toEqual({ ok: false, reason: 'intermediate-signature-invalid' });
  });

  test('a wrong protocol version is refused: wrong-protocol', async () => {
    expect(await verifyGoogleCallback(valid({ protocolVersion: 'ECv1' }), { issuerId, rootKeys, now })).toEqual({ ok: false, reason: 'wrong-protocol' });
  });

  test('an expired message is refused: message-expired', async () => {
    const body = signer.sign({ issuerId, message: { ...message, expTimeMillis: now - 1 }, intermediateExpiration: now + 1000 });
    expect(await verifyGoogleCallback(body, { issuerId, rootKeys, now })).toEqual({ ok: false, reason: 'message-expired' });
  });

  test('root keys that are expired or of another protocol are not used: no-root-key', async () => {
    expect(await verifyGoogleCallback(valid(), { issuerId, rootKeys: signer.rootKeys(now - 1), now })).toEqual({ ok: false, reason: 'no-root-key' });
    expect(await verifyGoogleCallback(valid(), { issuerId, rootKeys: signer.rootKeys(now + 1000, 'ECv2'), now })).toEqual({ ok: false, reason: 'no-root-key' });
  });

  test('a signed message that is not a callback message is refused: message-malformed', async () => {
    const body = signer.sign({ issuerId, message: { hello: 'world' }, intermediateExpiration: now + 1000 });
    expect(await verifyGoogleCallback(body, { issuerId, rootKeys, now })).toEqual({ ok: false, reason: 'message-malformed' });
  });

  test.each([
    ['not json'],
    ['{}'],
    ['[]'],
    ['null'],
    ['{"protocolVersion":"ECv2SigningOnly"}'],
    ['{"protocolVersion":"ECv2SigningOnly","signature":"x","signedMessage":"{}","intermediateSigningKey":{"signedKey":"{}","signatures":["%%%"]}}'],
  ])('malformed input %s never throws', async (body) => {
    const result = await verifyGoogleCallback(body, { issuerId, rootKeys, now });
    expect(result.ok).toBe(false);
    expect(['malformed', 'intermediate-signature-invalid']).toContain(!result.ok && result.reason);
  });

  test('hostile bodies (huge, deeply nested, wrong types, thousands of signatures) are refused before any key is fetched or checked', async () => {
    let fetches = 0;
    const keyServer = (async () => {
      fetches++;
      return new Response(JSON.stringify({ keys: rootKeys }));
    }) as typeof fetch;
    const parsed = JSON.parse(valid()) as { signedMessage: string; intermediateSigningKey: { signedKey: string; signatures: string[] } };
    const bodies: (string | object)[] = [
      valid().replace(/}$/, `,"padding":"${'x'.repeat(70_000)}"}`),
      `${'['.repeat(500_000)}${']'.repeat(500_000)}`,
      `{"protocolVersion":"ECv2SigningOnly","a":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`,
      { ...parsed, signedMessage: 5 },
      { ...parsed, intermediateSigningKey: [] },
      { ...parsed, intermediateSigningKey: { ...parsed.intermediateSigningKey, signatures: 'x' } },
      { ...parsed, signedMessage: parsed.signedMessage + ' '.repeat(70_000) },
      { ...parsed, protocolVersion: ['ECv2SigningOnly'] },
    ];
    for (const body of bodies) expect(await verifyGoogleCallback(body, { issuerId, now, fetch: keyServer })).toEqual({ ok: false, reason: 'malformed' });
    expect(fetches).toBe(0);
    // Thousands of signatures: only the first few are tried, and a good one among them still verifies.
    const many = {
      ...parsed,
      intermediateSigningKey: {
        ...parsed.intermediateSigningKey,
        signatures: [...parsed.intermediateSigningKey.signatures, ...Array.from({ length: 5000 }, () => 'AAAA')],
      },
    };
    expect((await verifyGoogleCallback(many, { issuerId, rootKeys, now })).ok).toBe(true);
    const junkFirst = {
      ...parsed,
      intermediateSigningKey: {
        ...parsed.intermediateSigningKey,
        signatures: [...Array.from({ length: 5000 }, () => 'AAAA'), ...parsed.intermediateSigningKey.signatures],
      },
    };
    expect(await verifyGoogleCallback(junkFirst, { issuerId, rootKeys, now })).toEqual({ ok: false, reason: 'intermediate-signature-invalid' });
  });

  test('without root keys they are fetched; an unreachable key server is root-keys-unavailable', async () => {
    const failing = (async () => new Response('nope', { status: 503 })) as typeof fetch;
    expect(await verifyGoogleCallback(valid(), { issuerId, now, fetch: failing })).toEqual({ ok: false, reason: 'root-keys-unavailable' });
  });
});

describe('Google root keys', () => {
  test('fetchGoogleRootKeys reads the keys document over HTTP; parseRootKeys keeps well-formed entries', async () => {
    const document = { keys: [...rootKeys, { protocolVersion: 'ECv2SigningOnly' }, { keyValue: 'x', protocolVersion: 'ECv1' }] };
    const server = createServer((_request, response) => response.end(JSON.stringify(document)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gp/m/issuer/keys`;
      expect(await fetchGoogleRootKeys({ url })).toEqual([...rootKeys, { keyValue: 'x', protocolVersion: 'ECv1' }]);
    } finally {
      server.close();
    }
    expect(() => parseRootKeys('nope')).toThrow(expect.objectContaining({ code: 'bad-response' }));
  });

  test('without rootKeys the keys are fetched once and kept, not refetched per callback', async () => {
    let fetches = 0;
    const keyServer = (async () => {
      fetches++;
      return new Response(JSON.stringify({ keys: rootKeys }));
    }) as typeof fetch;
    expect((await verifyGoogleCallback(valid(), { issuerId, now, fetch: keyServer })).ok).toBe(true);
    expect(await verifyGoogleCallback(valid({ root: ecKey() }), { issuerId, now, fetch: keyServer })).toEqual({
      ok: false,
      reason: 'intermediate-signature-invalid',
    });
    expect((await verifyGoogleCallback(valid(), { issuerId, now: now + 1000, fetch: keyServer })).ok).toBe(true);
    expect(fetches).toBe(1);
  });
});
