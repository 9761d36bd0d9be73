import { signHex, verifyDigest } from './hmac/index.js';
import { fromHex } from './hex.js';
import { WebhookError } from './webhook-error.js';

/** The one algorithm the spec uses: `X-Service-Signature: sha1=<hex>`. */
const PREFIX = 'sha1=';
const HEADER_LENGTH = PREFIX.length + 40;

/** Body bytes a signature covers: a string (signed as UTF-8) or raw bytes (a Node `Buffer` is one). */
export type WebhookBody = string | Uint8Array;

/**
 * Signs a body as the service does: `sha1=` and the lowercase hex HMAC-SHA1 of
 * the exact body bytes, keyed with the secret as UTF-8.
 *
 * @example
 * ```ts
 * await signPayload('{"id":"…"}', secret); // 'sha1=0b5c…' (40 hex digits)
 * ```
 */
export function signPayload(body: WebhookBody, secret: string): Promise<string> {
  // Not `async`: in Node the HMAC is synchronous, and skipping the async
  // machinery keeps sign + verify close to bare node:crypto (bench/webhooks.js).
  try {
    checkBody(body);
    checkSecret(secret);
    const hex = signHex(secret, body);
    return typeof hex === 'string' ? Promise.resolve(PREFIX + hex) : hex.then((value) => PREFIX + value);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Checks an `X-Service-Signature` header against the body, in constant time.
 *
 * Pass the header as it arrives (Node's `req.headers[…]` and Fetch's
 * `headers.get(…)` both fit). Hex may be upper or lower case. Give a list of
 * secrets while rotating: the header is accepted when any of them produced
 * it. Any header that is not
 * exactly `sha1=` and 40 hex digits (missing, empty, another algorithm,
 * whitespace, two signatures …) gives `false`, never an exception.
 *
 * @example
 * ```ts
 * const ok = await verifySignature(rawBody, request.headers.get('x-service-signature'), [newSecret, oldSecret]);
 * ```
 */
export function verifySignature(
  body: WebhookBody,
  header: string | readonly string[] | null | undefined,
  secretOrSecrets: string | readonly string[],
): Promise<boolean> {
  try {
    checkBody(body);
    const secrets = toSecretList(secretOrSecrets);
    const digest = parseSignatureHeader(header);
    return digest === undefined ? Promise.resolve(false) : Promise.resolve(verifyDigest(secrets, body, digest));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The 20 digest bytes of a well-formed `sha1=<40 hex>` header, or `undefined`. */
export function parseSignatureHeader(header: unknown): Uint8Array | undefined {
  if (typeof header !== 'string' || header.length !== HEADER_LENGTH || !header.startsWith(PREFIX)) return undefined;
  return fromHex(header.slice(PREFIX.length));
}

/** Normalizes `secretOrSecrets`; throws `invalid-secret` for an empty list or a secret that is not a non-empty string. */
export function toSecretList(secretOrSecrets: string | readonly string[]): readonly string[] {
  const secrets: readonly unknown[] = typeof secretOrSecrets === 'string' ? [secretOrSecrets] : secretOrSecrets;
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw new WebhookError('invalid-secret', 'Expected a secret or a non-empty list of secrets');
  }
  for (const secret of secrets) checkSecret(secret);
  return secrets as readonly string[];
}

/** Throws `invalid-secret` unless `secret` is a non-empty string. */
export function checkSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new WebhookError('invalid-secret', 'A webhook secret must be a non-empty string');
  }
}

function checkBody(body: unknown): asserts body is WebhookBody {
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
    throw new WebhookError(
      'invalid-argument',
      'The body to sign or verify must be the raw body: a string or a Uint8Array (a parsed object cannot be verified)',
    );
  }
}
