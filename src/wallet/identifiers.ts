/**
 * Longest identifier the handler accepts in a path (device, pass type or
 * serial), after decoding. Three of them together key a registration: at 256
 * UTF-16 units each (at most 768 bytes of UTF-8) they fit PostgreSQL's btree
 * key limit of 2704 bytes, which 1024 did not (a 500 instead of a 400).
 */
export const MAX_IDENTIFIER_LENGTH = 256;

/**
 * Whether a decoded path parameter can serve as an identifier: 1 to 256
 * characters, none of them a control character. The text is otherwise kept
 * as sent: use it as a key, never as a file path.
 *
 * @example
 * ```ts
 * isIdentifier('pass.com.example.member'); // true
 * isIdentifier('a\u0000b'); // false
 * ```
 */
export function isIdentifier(text: string): boolean {
  if (text.length === 0 || text.length > MAX_IDENTIFIER_LENGTH) return false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}

/** A push token is hexadecimal, 16 to 256 digits (APNs tokens are 64 today; Apple says their length may change). */
const pushTokenPattern = /^[0-9A-Fa-f]{16,256}$/;

/**
 * Whether a value is an APNs device token as Wallet sends it: a string of 16
 * to 256 hexadecimal digits.
 *
 * @example
 * ```ts
 * isPushToken('4a5f0e1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7'); // true
 * isPushToken('../../etc'); // false
 * ```
 */
export function isPushToken(value: unknown): value is string {
  return typeof value === 'string' && pushTokenPattern.test(value);
}
