// The Web Crypto HMAC imports each secret's key once and keeps at most 256:
// counted on crypto.subtle.importKey, so the cache's bound is observable
// without reaching into the module.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { webHmac } from '../../src/webhooks/hmac/web.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const imports = () => vi.spyOn(crypto.subtle, 'importKey');
const hex = (secret: string, body: string) => createHmac('sha1', secret).update(body).digest('hex');

describe('the Web Crypto key cache', () => {
  test('one import per secret, however many signatures and checks use it', async () => {
    const spy = imports();
    const secret = 'cache-once-a';
    for (let index = 0; index < 5; index++) expect(await webHmac.signHex(secret, `body ${index}`)).toBe(hex(secret, `body ${index}`));
    const digest = Buffer.from(hex(secret, 'b'), 'hex');
    expect(await webHmac.verifyDigest([secret], 'b', digest)).toBe(true);
    expect(await webHmac.verifyDigest([secret, 'cache-once-b'], 'b', digest)).toBe(true);
    expect(spy).toHaveBeenCalledTimes(2); // cache-once-a, then cache-once-b
  });

  test('bounded at 256 secrets: the least recently used is imported again, the 256 most recent are not', async () => {
    const spy = imports();
    const secrets = Array.from({ length: 300 }, (_, index) => `cache-bound-${index}`);
    for (const secret of secrets) await webHmac.signHex(secret, 'b');
    expect(spy).toHaveBeenCalledTimes(300);
    // The 256 most recent stay: no import for any of them (most recent first, so none is evicted meanwhile).
    for (const secret of secrets.slice(-256).reverse()) await webHmac.signHex(secret, 'b');
    expect(spy).toHaveBeenCalledTimes(300);
    // The 44 before them were dropped: each is imported again.
    expect(await webHmac.signHex('cache-bound-0', 'b')).toBe(hex('cache-bound-0', 'b'));
    expect(spy).toHaveBeenCalledTimes(301);
  });

  test('a secret Web Crypto refuses is not kept: the next call imports again', async () => {
    const spy = imports().mockRejectedValueOnce(new DOMException('refused', 'DataError'));
    await expect(webHmac.signHex('cache-refused', 'b')).rejects.toThrow('refused');
    expect(await webHmac.signHex('cache-refused', 'b')).toBe(hex('cache-refused', 'b'));
    expect(spy).toHaveBeenCalledTimes(2);
  });
});
