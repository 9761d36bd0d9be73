import type { Delivery } from './delivery.js';
import { discardBody, post } from './post.js';
import type { AttemptOptions } from './post.js';
import { parseRetryAfter } from './retry-after.js';

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
      /** What went wrong, for a log line. */
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
 * receiver or the network does; throws `WebhookError` `invalid-url` for a URL
 * that is not absolute http(s).
 *
 * - 2xx → `{ ok: true, outcome: 'received' }`;
 * - 410 Gone → `outcome: 'gone'`: the receiver asks for no more events;
 * - any other status, a redirect, a network error, a timeout → `outcome: 'retry'`,
 *   with `retryAfterMs` when a 429 or 503 carried `Retry-After`.
 *
 * @example
 * ```ts
 * const result = await deliver(registration.url, delivery, { timeoutMs: 10_000 });
 * if (result.outcome === 'retry') queue.later(job, nextRetryDelay(job.attempt, { retryAfterMs: result.retryAfterMs }));
 * ```
 */
export async function deliver(url: string | URL, delivery: Delivery, options: DeliverOptions = {}): Promise<DeliveryResult> {
  const { now = Date.now } = options;
  const outcome = await post(url, delivery, options, (response): DeliveryResult => {
    discardBody(response);
    return classify(response, now);
  });
  return outcome.kind === 'response' ? outcome.value : { ok: false, outcome: 'retry', error: outcome.error };
}

function classify(response: Response, now: () => number): DeliveryResult {
  const { status } = response;
  if (status >= 200 && status <= 299) return { ok: true, outcome: 'received', status };
  if (status === 410) return { ok: false, outcome: 'gone', status, error: 'HTTP 410 Gone' };
  // Browsers hide a manual redirect behind an opaque response with status 0.
  if (response.type === 'opaqueredirect' || (status >= 300 && status <= 399)) {
    const location = response.headers.get('location');
    return {
      ok: false,
      outcome: 'retry',
      ...(status === 0 ? {} : { status }),
      error: `Redirect${location === null ? '' : ` to ${location}`} not followed: a webhook URL must answer itself`,
    };
  }
  const retryAfterMs =
    status === 429 || status === 503 ? parseRetryAfter(response.headers.get('retry-after'), now()) : undefined;
  return {
    ok: false,
    outcome: 'retry',
    status,
    error: `HTTP ${status}${response.statusText === '' ? '' : ` ${response.statusText}`}`,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}
