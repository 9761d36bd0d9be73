import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import * as selected from '../../src/webhooks/hmac/index.js';
import { nodeHmac } from '../../src/webhooks/hmac/node.js';
import { webHmac } from '../../src/webhooks/hmac/web.js';

// RFC 2202 test cases whose keys are valid UTF-8 text, plus edge cases of our own.
const vectors: { secret: string; body: string | Uint8Array; hex: string }[] = [
  { secret: 'Jefe', body: 'what do ya want for nothing?', hex: 'effcdf6ae5eb2fa2d27416d5f184df9c259a7c79' },
  {
    secret: '\u000b'.repeat(20),
    body: 'Hi There',
    hex: 'b617318655057264e28bc0b6fb378c8ef146be00',
  },
  {
    secret: '\u000c'.repeat(20),
    body: 'Test With Truncation',
    hex: '4c1a03424b55e07fe7f27be1d58bb9324a9a5a04',
  },
];

describe('HMAC-SHA1 implementations', () => {
  test('under Vitest (Node), #hmac resolves to the node:crypto implementation', () => {
    expect(selected.signHex).toBe(nodeHmac.signHex);
  });

  test.each(vectors)('RFC 2202: key $secret.length chars → $hex', async ({ secret, body, hex }) => {
    expect(nodeHmac.signHex(secret, body)).toBe(hex);
    expect(await webHmac.signHex(secret, body)).toBe(hex);
  });

  test('a 100-byte key (longer than the SHA-1 block) is hashed first, in both', async () => {
    const secret = 'k'.repeat(100);
    const expected = createHmac('sha1', secret).update('x').digest('hex');
    expect(await nodeHmac.signHex(secret, 'x')).toBe(expected);
    expect(await webHmac.signHex(secret, 'x')).toBe(expected);
  });

  test('multi-byte secret and body, as string and as bytes, agree byte for byte', async () => {
    const secret = 'sëcret-🔑';
    const body = '{"name":"Zoë 🎟️ ☃"}';
    const bytes = new TextEncoder().encode(body);
    const expected = createHmac('sha1', Buffer.from(secret, 'utf8')).update(bytes).digest('hex');
    expect(await nodeHmac.signHex(secret, body)).toBe(expected);
    expect(await nodeHmac.signHex(secret, bytes)).toBe(expected);
    expect(await webHmac.signHex(secret, body)).toBe(expected);
    expect(await webHmac.signHex(secret, bytes)).toBe(expected);
  });

  test('a view into a larger buffer signs only its own bytes', async () => {
    const whole = new TextEncoder().encode('xxhelloxx');
    const view = whole.subarray(2, 7);
    const expected = createHmac('sha1', 'k').update('hello').digest('hex');
    expect(await nodeHmac.signHex('k', view)).toBe(expected);
    expect(await webHmac.signHex('k', view)).toBe(expected);
  });

  test('verifyDigest: true for any matching secret in the list, false otherwise, in both', async () => {
    const digest = createHmac('sha1', 'new').update('body').digest();
    for (const hmac of [nodeHmac, webHmac]) {
      expect(await hmac.verifyDigest(['old', 'new'], 'body', digest)).toBe(true);
      expect(await hmac.verifyDigest(['old'], 'body', digest)).toBe(false);
      expect(await hmac.verifyDigest(['new'], 'body!', digest)).toBe(false);
    }
  });

  test('the web key cache stays correct past its bound (300 distinct secrets, then the first again)', async () => {
    for (let index = 0; index < 300; index++) {
      expect(await webHmac.signHex(`secret-${index}`, 'b')).toBe(createHmac('sha1', `secret-${index}`).update('b').digest('hex'));
    }
    expect(await webHmac.signHex('secret-0', 'b')).toBe(createHmac('sha1', 'secret-0').update('b').digest('hex'));
  });
});
