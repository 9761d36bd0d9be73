import { toHex } from '../hex.js';
import type { HmacSha1 } from './contract.js';

const encoder = new TextEncoder();

// importKey costs more than signing a small body, so keys are kept per secret.
// Bounded (least recently used goes first) so a service with many
// registrations does not grow without limit; no timers.
const MAX_CACHED_KEYS = 256;
const keys = new Map<string, Promise<CryptoKey>>();

function keyFor(secret: string): Promise<CryptoKey> {
  const cached = keys.get(secret);
  if (cached !== undefined) {
    keys.delete(secret);
    keys.set(secret, cached);
    return cached;
  }
  const key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-1' }, false, ['sign', 'verify']);
  keys.set(secret, key);
  key.catch(() => {
    if (keys.get(secret) === key) keys.delete(secret);
  });
  if (keys.size > MAX_CACHED_KEYS) {
    const oldest = keys.keys().next();
    if (oldest.done !== true) keys.delete(oldest.value);
  }
  return key;
}

function toBytes(body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return encoder.encode(body);
  // Web Crypto refuses views on a SharedArrayBuffer; copy those.
  return body.buffer instanceof ArrayBuffer ? (body as Uint8Array<ArrayBuffer>) : new Uint8Array(body);
}

/**
 * HMAC-SHA1 through Web Crypto (`crypto.subtle`), for browsers, Deno, Bun and edge workers.
 *
 * @example
 * ```ts
 * await webHmac.signHex('Jefe', 'what do ya want for nothing?'); // 'effcdf6a…'
 * ```
 */
export const webHmac: HmacSha1 = {
  async signHex(secret, body) {
    const signature = await crypto.subtle.sign('HMAC', await keyFor(secret), toBytes(body));
    return toHex(new Uint8Array(signature));
  },
  async verifyDigest(secrets, body, digest) {
    const bytes = toBytes(body);
    const expected = toBytes(digest);
    // crypto.subtle.verify compares in constant time; every secret is tried.
    const results = await Promise.all(secrets.map(async (secret) => crypto.subtle.verify('HMAC', await keyFor(secret), expected, bytes)));
    return results.includes(true);
  },
};

/** @see webHmac */
export const signHex: HmacSha1['signHex'] = webHmac.signHex;
/** @see webHmac */
export const verifyDigest: HmacSha1['verifyDigest'] = webHmac.verifyDigest;
