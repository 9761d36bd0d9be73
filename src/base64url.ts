const plus = /\+/g;
const slash = /\//g;
const padding = /=+$/;

/**
 * Bytes as unpadded base64url text (RFC 4648 §5), with the web-standard `btoa`.
 *
 * @example
 * ```ts
 * toBase64url(new Uint8Array([251, 255])); // '-_8'
 * ```
 */
export function toBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(plus, '-').replace(slash, '_').replace(padding, '');
}
