import type { Digest } from './contract.js';

const names = { sha1: 'SHA-1', sha256: 'SHA-256' } as const;

/**
 * SHA-1 or SHA-256 through Web Crypto (`crypto.subtle.digest`).
 *
 * @example
 * ```ts
 * (await digest('sha1', new Uint8Array()))[0]; // 0xda
 * ```
 */
export const digest: Digest = async (name, bytes) =>
  new Uint8Array(await crypto.subtle.digest(names[name], bytes as Uint8Array<ArrayBuffer>));
