import { readSchemeToken, sameDigest } from './auth-scheme.js';
import { sha256 } from './sha256/index.js';
import { isVisibleAscii } from './visible-ascii.js';

/**
 * Decides whether a request may read passes and templates. It may return a
 * promise; a function that throws or rejects makes the handler answer 500.
 *
 * @example
 * ```ts
 * const authenticate: Authenticate = (request) => request.headers.get('x-internal') === 'yes';
 * ```
 */
export type Authenticate = (request: Request) => boolean | PromiseLike<boolean>;

const encoder = new TextEncoder();

/**
 * Checks `Authorization: Bearer <key>` against a list of API keys in constant
 * time. Several keys allow rotation: add the new key, move clients over, drop
 * the old one.
 *
 * Both the presented token and every key are hashed with SHA-256 and the
 * fixed-length digests are compared byte by byte without an early exit, over
 * every key, so neither the content nor the length of a key shows in the
 * timing. A key is 1 or more visible ASCII characters (no spaces).
 *
 * @throws {TypeError} when `keys` is empty or a key is not such a string.
 *
 * @example
 * ```ts
 * const handler = createPassHandler({
 *   authenticate: bearerAuth([process.env.API_KEY!, process.env.PREVIOUS_API_KEY!]),
 *   findPass, findTemplate,
 * });
 * ```
 */
export function bearerAuth(keys: string | readonly string[]): (request: Request) => Promise<boolean> {
  const list: readonly unknown[] = typeof keys === 'string' ? [keys] : Array.isArray(keys) ? [...keys] : [];
  if (list.length === 0) throw new TypeError('bearerAuth needs at least one API key');
  const expected = list.map((key) => {
    if (typeof key !== 'string' || !isVisibleAscii(key)) {
      throw new TypeError('bearerAuth: every API key must be a non-empty string of visible ASCII characters');
    }
    return sha256(encoder.encode(key));
  });
  return async (request) => {
    const token = readBearerToken(request.headers.get('authorization'));
    if (token === undefined) return false;
    const presented = await sha256(encoder.encode(token));
    let matches = 0;
    for (const digest of expected) matches |= sameDigest(await digest, presented) ? 1 : 0;
    return matches === 1;
  };
}

/**
 * The token of a `Bearer` credential, or `undefined` when the header is
 * missing, uses another scheme, or has no token. The token is returned as
 * sent (it may still be malformed).
 *
 * @example
 * ```ts
 * readBearerToken('Bearer abc'); // 'abc'
 * readBearerToken('Basic abc'); // undefined
 * ```
 */
export function readBearerToken(authorization: string | null): string | undefined {
  return readSchemeToken(authorization, 'bearer');
}
