// The second node: import in src/, for the same reason as webhooks/hmac/node.ts:
// Web Crypto's digest in Node is a thread-pool round trip per call (15–130 µs
// measured), several times the cost of the rest of a response.
import { createHash } from 'node:crypto';
import type { Sha256 } from './contract.js';

/**
 * SHA-256 through `node:crypto`, synchronously.
 *
 * @example
 * ```ts
 * sha256(new TextEncoder().encode('abc'))[0]; // 0xba
 * ```
 */
export const sha256: Sha256 = (bytes) => createHash('sha256').update(bytes).digest();
