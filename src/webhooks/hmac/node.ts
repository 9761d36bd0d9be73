// The one node: import in src/. Selected by the `node` condition of `#hmac`
// because Web Crypto in Node costs ~16× more per small HMAC than node:crypto.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { HmacSha1 } from './contract.js';

/**
 * HMAC-SHA1 through `node:crypto` (synchronous; the public API wraps it in a Promise).
 *
 * @example
 * ```ts
 * nodeHmac.signHex('Jefe', 'what do ya want for nothing?'); // 'effcdf6a…'
 * ```
 */
export const nodeHmac: HmacSha1 = {
  signHex(secret, body) {
    return createHmac('sha1', secret).update(body).digest('hex');
  },
  verifyDigest(secrets, body, digest) {
    let matched = false;
    // Every secret is tried, so the time taken does not tell which one matched.
    for (const secret of secrets) {
      if (timingSafeEqual(createHmac('sha1', secret).update(body).digest(), digest)) matched = true;
    }
    return matched;
  },
};

/** @see nodeHmac */
export const signHex: HmacSha1['signHex'] = nodeHmac.signHex;
/** @see nodeHmac */
export const verifyDigest: HmacSha1['verifyDigest'] = nodeHmac.verifyDigest;
