import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether a presented secret (a bearer token, a download link's token) is the
 * expected one, in time that depends on neither text: both are hashed to 32
 * bytes first, so not even the expected secret's length shows in the timing.
 *
 * @example
 * ```ts
 * sameSecret(readBearerToken(header) ?? '', metricsToken); // true only for the very token
 * ```
 */
export function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
