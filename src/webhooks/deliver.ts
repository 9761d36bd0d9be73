import { checkFunction } from './check-option.js';
import type { Delivery } from './delivery.js';
import { discardBody, post } from './post.js';
import type { AttemptOptions, NoResponseReason } from './post.js';
import { parseRetryAfter } from './retry-after.js';
import { WebhookError } from './webhook-error.js';

/** `received`: 2xx. `gone`: 410, stop sending to this registration. `retry`: anything else. */
export type DeliveryOutcome = 'received' | 'retry' | 'gone';

/** How one delivery attempt ended. */
export type DeliveryResult =
  | { readonly ok: true; readonly outcome: 'received'; readonly status: number }
  | {
      readonly ok: false;
      readonly outcome: 'retry' | 'gone';
      /** HTTP status, when there was a response. */
      readonly status?: number;
      /**
       * Why there was no response: `timeout`, `aborted` (the caller's signal),
       * `network-error`, or `private-address` (the host name resolved to a
       * refused address; Node only, see `allowPrivateNetworks`).
       */
      readonly reason?: NoResponseReason;
      /** What went wrong, for a log line: never an address, a port, a system error or the URL's credentials. */
      readonly error?: string;
      /** What a `Retry-After` on a 429 or 503 asked for; pass it to `nextRetryDelay`. */
      readonly retryAfterMs?: number;
    };

/** Options of `deliver`. */
export interface DeliverOptions extends AttemptOptions {
  /** Clock for `Retry-After` dates, in milliseconds since the epoch; default `Date.now`. */
  readonly now?: () => number;
}

/**
 * Makes one delivery attempt — a POST that follows no redirect, with a time
 * limit (default 15 s) — and classifies it. Never throws for anything the
 * receiver or the network does. Throws `WebhookError` for misuse:
 * `invalid-url` (not absolute http(s), or with credentials), `private-address`
 * (a private, loopback, link-local or multicast IP literal, or `localhost`,
 * unless `allowPrivateNetworks`), `invalid-argument` (an option of the wrong
 * type or out of range).
 *
 * - 2xx → `{ ok: true, outcome: 'received' }`;
 * - 410 Gone → `outcome: 'gone'`: the receiver asks for no more events;
 * - any other status, a redirect, a network error, a timeout → `outcome: 'retry'`,
 *   with `retryAfterMs` when a 429 or 503 carried `Retry-After`;
 * - in Node, a host name that resolves to a refused address → `outcome: 'retry'`,
 *   `reason: 'private-address'`, and no connection is made.
 *
 * @example
 * ```ts
 * const result = await deliver(registration.url, delivery, { timeoutMs: 10_000 });
 * if (result.outcome === 'retry') queue.later(job, nextRetryDelay(job.attempt, { retryAfterMs: result.retryAfterMs }));
 * ```
 */
export async function deliver(url: string | URL, delivery: Delivery, options: DeliverOptions = {}): Promise<DeliveryResult> {
  const now = checkFunction('now', options.now) ?? Date.now;
  const outcome = await post(url, delivery, options, (response) => {
    discardBody(response);
    return classify(response, url);
  });
  // The clock is read outside the attempt: a misbehaving `now` is misuse to throw, not a network error.
  return outcome.kind === 'response' ? outcome.value(now) : { ok: false, outcome: 'retry', reason: outcome.reason, error: outcome.error };
}

function classify(response: Response, url: string | URL): (now: () => number) => DeliveryResult {
  const result = classifyStatus(response, url);
  const { status } = response;
  const header = status === 429 || status === 503 ? response.headers.get('retry-after') : null;
  return (now) => {
    const retryAfterMs = header === null || result.ok ? undefined : parseRetryAfter(header, checkedNow(now));
    return retryAfterMs === undefined ? result : { ...result, retryAfterMs };
  };
}

function classifyStatus(response: Response, url: string | URL): DeliveryResult {
  const { status } = response;
  if (status >= 200 && status <= 299) return { ok: true, outcome: 'received', status };
  if (status === 410) return { ok: false, outcome: 'gone', status, error: 'HTTP 410 Gone' };
  // Browsers hide a manual redirect behind an opaque response with status 0.
  if (response.type === 'opaqueredirect' || (status >= 300 && status <= 399)) {
    const location = redirectTarget(response.headers.get('location'), url);
    return {
      ok: false,
      outcome: 'retry',
      ...(status === 0 ? {} : { status }),
      error: `Redirect${location === undefined ? '' : ` to ${location}`} not followed: a webhook URL must answer itself`,
    };
  }
  return {
    ok: false,
    outcome: 'retry',
    status,
    error: `HTTP ${status}${response.statusText === '' ? '' : ` ${response.statusText}`}`,
  };
}

/** Where a redirect pointed, for the log line: resolved, without credentials, or `undefined` if unreadable. */
function redirectTarget(location: string | null, base: string | URL): string | undefined {
  if (location === null) return undefined;
  try {
    const target = new URL(location, base);
    target.username = '';
    target.password = '';
    return target.href.length > 2048 ? `${target.href.slice(0, 2048)}…` : target.href;
  } catch {
    return undefined;
  }
}

function checkedNow(now: () => number): number {
  const time = now();
  if (!Number.isFinite(time)) throw new WebhookError('invalid-argument', `now() must return a finite number of milliseconds, not ${String(time)}`);
  return time;
}
