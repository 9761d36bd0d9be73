import type { Delivery } from './delivery.js';
import { WebhookError } from './webhook-error.js';

/** A `fetch`-compatible function (the global one by default). */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Options for one HTTP attempt. */
export interface AttemptOptions {
  /** Used instead of the global `fetch` (a test double, a proxy agent, a rate limiter …). */
  readonly fetch?: FetchLike;
  /** Give up after this many milliseconds, counted from the start of the request; default 15 000. */
  readonly timeoutMs?: number;
  /** Abort the attempt from outside (e.g. on shutdown); reported as not received. */
  readonly signal?: AbortSignal;
}

/** How one POST ended: a response the caller read within the timeout, or why there was none. */
export type PostOutcome<TValue> =
  | { readonly kind: 'response'; readonly value: TValue }
  | { readonly kind: 'failed'; readonly reason: 'timeout' | 'aborted' | 'network-error'; readonly error: string };

/**
 * Default time limit of one delivery attempt: 15 s.
 *
 * @example
 * ```ts
 * await deliver(url, delivery, { timeoutMs: DEFAULT_TIMEOUT_MS / 3 });
 * ```
 */
export const DEFAULT_TIMEOUT_MS = 15_000;

/** The URL as text when it is an absolute http(s) URL; throws `invalid-url` otherwise. */
export function checkUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookError('invalid-url', `Not an absolute URL: ${String(url)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new WebhookError('invalid-url', `A webhook URL must use http or https: ${parsed.href}`);
  }
  return parsed.href;
}

/**
 * POSTs a delivery once, never following redirects, and lets `read` look at the
 * response; the time limit covers both. Never throws for network trouble.
 */
export async function post<TValue>(
  url: string | URL,
  delivery: Delivery,
  options: AttemptOptions,
  read: (response: Response) => Promise<TValue> | TValue,
): Promise<PostOutcome<TValue>> {
  const href = checkUrl(url);
  const { fetch: fetchFn = globalThis.fetch, timeoutMs = DEFAULT_TIMEOUT_MS, signal } = options;
  if (!(timeoutMs > 0) || timeoutMs === Number.POSITIVE_INFINITY) {
    throw new WebhookError('invalid-argument', 'timeoutMs must be a positive, finite number of milliseconds');
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`No response within ${timeoutMs} ms`));
  }, timeoutMs);
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted === true) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await fetchFn(href, {
      method: 'POST',
      headers: { ...delivery.headers },
      body: delivery.body,
      redirect: 'manual',
      signal: controller.signal,
    });
    return { kind: 'response', value: await read(response) };
  } catch (error) {
    if (timedOut) return { kind: 'failed', reason: 'timeout', error: `No response within ${timeoutMs} ms` };
    if (signal?.aborted === true) return { kind: 'failed', reason: 'aborted', error: 'Aborted by the caller' };
    return { kind: 'failed', reason: 'network-error', error: describeError(error) };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Frees the connection without reading a body nobody needs. */
export function discardBody(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici reports "fetch failed" and puts the reason (ECONNREFUSED …) in `cause`.
  const cause: unknown = error.cause;
  return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
}
