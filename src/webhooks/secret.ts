import { randomToken } from './random-token.js';

/**
 * A new signing secret for one webhook registration: `whsec_` and 32 bytes
 * (256 bits) from `crypto.getRandomValues` as base64url — 49 characters, safe
 * in URLs, headers and dashboards. The prefix lets secret scanners spot it.
 * The HMAC key is the whole string as UTF-8.
 *
 * @example
 * ```ts
 * const secret = generateWebhookSecret(); // 'whsec_3q2Lk…'
 * ```
 */
export function generateWebhookSecret(): string {
  return `whsec_${randomToken(32)}`;
}
