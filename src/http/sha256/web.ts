import type { Sha256 } from './contract.js';

/**
 * SHA-256 through Web Crypto (`crypto.subtle.digest`).
 *
 * @example
 * ```ts
 * (await sha256(new TextEncoder().encode('abc')))[0]; // 0xba
 * ```
 */
export const sha256: Sha256 = async (bytes) => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
