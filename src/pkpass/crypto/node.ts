// node:crypto for the `node` condition of `#pkcrypto`: a Web Crypto digest in
// Node is a thread-pool round trip per call; a pass hashes several files.
import { createHash } from 'node:crypto';
import type { Digest } from './contract.js';

/**
 * SHA-1 or SHA-256 through `node:crypto`, synchronously.
 *
 * @example
 * ```ts
 * digest('sha1', new Uint8Array())[0]; // 0xda
 * ```
 */
export const digest: Digest = (name, bytes) => createHash(name).update(bytes).digest();
