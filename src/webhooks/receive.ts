import { checkFunction, checkInteger, checkNonNegative } from './check-option.js';
import { checkEvent } from './event-check.js';
import type { WebhookEvent } from './event-types.js';
import { alreadyParsed, readBody } from './read-body.js';
import { parseSignatureHeader, toSecretList, verifySignature } from './signature.js';
import { parseEventTime } from './timestamp.js';
import { WebhookError } from './webhook-error.js';

/** Request headers: a Fetch `Headers`, or a plain object such as Node's `request.headers` (names in any case). */
export type HeadersLike = { readonly get: (name: string) => string | null } | { readonly [name: string]: string | readonly string[] | undefined };

/**
 * A request as frameworks hand it over: `headers` plus the raw `body` (bytes,
 * text, a stream). A Node `IncomingMessage` fits without a `body`: it is read
 * as a stream. A parsed object in `body` is refused (`body-already-parsed`).
 */
export interface WebhookRequestLike {
  readonly headers: HeadersLike;
  readonly body?: unknown;
}

/** Options of `receiveWebhook`. */
export interface ReceiveWebhookOptions {
  /**
   * Refuse events whose `created` is more than this many seconds away from now,
   * either way (`stale-event`); a replay guard. Off unless given. A retry
   * carries the event's original `created`, so a tolerance shorter than the
   * sender's retry window refuses late retries: deduplicate on `event.id`
   * instead when every delivery must get through. A finite number ≥ 0.
   */
  readonly toleranceSeconds?: number;
  /** Clock for `toleranceSeconds`, in milliseconds since the epoch; default `Date.now`. */
  readonly now?: () => number;
  /** Largest body read, in bytes: an integer ≥ 0, default 1 MiB (`body-too-large` beyond). */
  readonly maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Receives one webhook: reads the raw body itself, checks `X-Service-Signature`
 * against it (constant time, any of `secrets`), parses and checks the event,
 * and returns it typed. Unknown event types are returned, not refused.
 *
 * Throws `WebhookError` with `code`: `missing-signature`, `invalid-signature`,
 * `malformed-body` (not UTF-8 JSON), `invalid-event` (not an event object),
 * `stale-event` (with `toleranceSeconds`), `body-already-parsed`,
 * `body-too-large`; `invalid-secret` for an empty secret list.
 *
 * @example
 * ```ts
 * // Fetch handler (Deno, Bun, workers, Hono …)
 * const event = await receiveWebhook(request, env.WEBHOOK_SECRET);
 * // node:http — pass the request itself
 * const event = await receiveWebhook(req, process.env.WEBHOOK_SECRET);
 * // Express with express.raw({ type: 'application/json' })
 * const event = await receiveWebhook({ body: req.body, headers: req.headers }, secret);
 * ```
 */
export async function receiveWebhook(
  input: Request | WebhookRequestLike,
  secrets: string | readonly string[],
  options: ReceiveWebhookOptions = {},
): Promise<WebhookEvent> {
  const secretList = toSecretList(secrets);
  if (typeof options !== 'object' || options === null) throw new WebhookError('invalid-argument', 'options must be an object');
  const toleranceSeconds = options.toleranceSeconds === undefined ? undefined : checkNonNegative('toleranceSeconds', options.toleranceSeconds);
  const now = checkFunction('now', options.now) ?? Date.now;
  const maxBodyBytes = checkInteger('maxBodyBytes', options.maxBodyBytes === undefined ? DEFAULT_MAX_BODY_BYTES : options.maxBodyBytes, 0);
  if (typeof input !== 'object' || input === null || typeof input.headers !== 'object' || input.headers === null) {
    throw new WebhookError('invalid-argument', 'Expected a Request, a node:http request, or { body, headers }');
  }

  const header = getHeader(input.headers, 'x-service-signature');
  if (header === undefined || header === '') {
    throw new WebhookError('missing-signature', 'The request has no X-Service-Signature header');
  }

  const bytes = await readBody(bodySource(input), maxBodyBytes);
  if (!(await verifySignature(bytes, header, secretList))) {
    throw new WebhookError(
      'invalid-signature',
      parseSignatureHeader(header) === undefined
        ? 'The X-Service-Signature header is not "sha1=" followed by 40 hex digits'
        : `The X-Service-Signature does not match the body under ${secretList.length === 1 ? 'the secret' : `any of the ${secretList.length} secrets`}`,
    );
  }

  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch (cause) {
    throw new WebhookError('malformed-body', 'The body is not UTF-8 JSON', { cause });
  }
  const problem = checkEvent(value);
  if (problem !== undefined) {
    throw new WebhookError('invalid-event', `${problem.message} (at ${problem.path || '/'})`);
  }
  const event = value as WebhookEvent;

  if (toleranceSeconds !== undefined) {
    const time = now();
    if (!Number.isFinite(time)) {
      throw new WebhookError('invalid-argument', `now() must return a finite number of milliseconds, not ${String(time)}`);
    }
    const skewSeconds = Math.abs(time - (parseEventTime(event.created) ?? 0)) / 1000;
    if (skewSeconds > toleranceSeconds) {
      throw new WebhookError(
        'stale-event',
        `The event was created at ${event.created}, ${Math.round(skewSeconds)} s from now; the tolerance is ${toleranceSeconds} s`,
      );
    }
  }
  return event;
}

function bodySource(input: Request | WebhookRequestLike): unknown {
  if (isRequest(input)) {
    if (input.bodyUsed) alreadyParsed('The Request body was already read');
    return input.body ?? '';
  }
  if (input.body !== undefined) return input.body;
  // A node:http IncomingMessage: the request is itself the body stream.
  if (Symbol.asyncIterator in input) {
    const stream = input as { readonly readableEnded?: boolean; readonly readableDidRead?: boolean };
    if (stream.readableEnded === true || stream.readableDidRead === true) alreadyParsed('The request stream was already read');
    return input;
  }
  throw new WebhookError('invalid-argument', 'No body: pass a Request, a node:http request, or { body, headers } with the raw body');
}

function isRequest(input: Request | WebhookRequestLike): input is Request {
  return typeof (input as Request).arrayBuffer === 'function' && typeof (input as Request).bodyUsed === 'boolean';
}

function getHeader(headers: HeadersLike, lowerName: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get: (name: string) => string | null }).get(lowerName) ?? undefined;
  const record = headers as { readonly [name: string]: string | readonly string[] | undefined };
  for (const name of Object.keys(record)) {
    if (name.toLowerCase() !== lowerName) continue;
    const value = record[name];
    // Repeated headers are joined as HTTP does; two signatures then fail verification.
    return typeof value === 'string' ? value : Array.isArray(value) ? value.join(', ') : undefined;
  }
  return undefined;
}
