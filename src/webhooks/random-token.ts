/**
 * `byteCount` bytes from `crypto.getRandomValues`, as unpadded base64url text.
 *
 * @example
 * ```ts
 * randomToken(32); // 'kS1b…' (43 characters)
 * ```
 */
export function randomToken(byteCount: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(byteCount));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
