import { toBase64url } from '../base64url.js';

/**
 * `byteCount` bytes from `crypto.getRandomValues`, as unpadded base64url text.
 *
 * @example
 * ```ts
 * randomToken(32); // 'kS1b…' (43 characters)
 * ```
 */
export function randomToken(byteCount: number): string {
  return toBase64url(crypto.getRandomValues(new Uint8Array(byteCount)));
}
