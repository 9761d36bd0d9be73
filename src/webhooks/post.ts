import { timeLimit } from '../time-limit.js';
import { checkFlag, checkFunction, checkTimeout } from './check-option.js';
import type { Delivery } from './delivery.js';
import { guardedFetch } from './guarded-fetch/index.js';
import { PrivateAddressRefusal } from './guarded-fetch/contract.js';
import { isPrivateHost } from './private-address.js';
import { WebhookError } from './webhook-error.js';

/** A `fetch`-compatible function (the global one by default). */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Options for one HTTP attempt. */
export interface AttemptOptions {
  /**
   * Used instead of the built-in transport (a test double, a proxy agent, a
   * rate limiter …). URLs whose host is a private IP literal or `localhost`
   * are still refused before it is called; what a host *name* resolves to is
   * then this function's responsibility.
   */
  readonly fetch?: FetchLike;
  /** Give up after this many milliseconds, counted from the start of the request; an integer from 1 to 2³¹−1, default 15 000. */
  readonly timeoutMs?: number;
  /** Abort the attempt from outside (e.g. on shutdown); reported as not received. */
  readonly signal?: AbortSignal;
  /**
   * Deliver to private, loopback, link-local and multicast addresses too
   * (a receiver on your own network, tests on 127.0.0.1). Default `false`:
   * such URLs throw `private-address`, and in Node host names resolving to
   * them are refused on the address actually connected to.
   */
  readonly allowPrivateNetworks?: boolean;
}

/** Why a POST got no response. */
export type NoResponseReason = 'timeout' | 'aborted' | 'network-error' | 'private-address';

/** How one POST ended: a response the caller read within the timeout, or why there was none. */
export type PostOutcome<TValue> =
  | { readonly kind: 'response'; readonly value: TValue }
  | { readonly kind: 'failed'; readonly reason: NoResponseReason; readonly error: string };

/**
 * Default time limit of one delivery attempt: 15 s.
 *
 * @example
 * ```ts
 * await deliver(url, delivery, { timeoutMs: DEFAULT_TIMEOUT_MS / 3 });
 * ```
 */
export const DEFAULT_TIMEOUT_MS = 15_000;

// Error texts name no address, port or system error: a customer who can point
// a registration anywhere must not learn from them which ports are open,
// closed or filtered on hosts the service can reach.
const NETWORK_ERROR = 'No HTTP response: the connection failed';
const PRIVATE_ADDRESS = 'Not sent: the host name resolves to a private, loopback, link-local or multicast address';

/** The checked options of one attempt. */
export interface Attempt {
  readonly fetch: FetchLike | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly allowPrivateNetworks: boolean;
}

/** Checks the options every attempt shares; throws `invalid-argument`. */
export function checkAttemptOptions(options: AttemptOptions): Attempt {
  if (typeof options !== 'object' || options === null) throw new WebhookError('invalid-argument', 'options must be an object');
  const { signal } = options;
  if (signal !== undefined && typeof (signal as Partial<AbortSignal> | null)?.addEventListener !== 'function') {
    throw new WebhookError('invalid-argument', 'signal must be an AbortSignal');
  }
  return {
    fetch: checkFunction('fetch', options.fetch),
    timeoutMs: checkTimeout('timeoutMs', options.timeoutMs === undefined ? DEFAULT_TIMEOUT_MS : options.timeoutMs),
    signal,
    allowPrivateNetworks: checkFlag('allowPrivateNetworks', options.allowPrivateNetworks) ?? false,
  };
}

/**
 * A webhook URL as the library will use it: an absolute http(s) URL without
 * a user name or password, whose host is not a private IP literal or
 * `localhost` (unless `allowPrivateNetworks`). Throws `invalid-url` or
 * `private-address`; the message never repeats the URL, which may hold a password.
 */
export function checkUrl(url: string | URL, allowPrivateNetworks = false): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookError('invalid-url', 'A webhook URL must be an absolute http or https URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new WebhookError('invalid-url', `A webhook URL must use http or https, not ${parsed.protocol.slice(0, 20)}`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new WebhookError('invalid-url', 'A webhook URL must not carry a user name or password (user:password@host)');
  }
  if (!allowPrivateNetworks && isPrivateHost(parsed.hostname)) {
    throw new WebhookError(
      'private-address',
      'A webhook URL must not point to a private, loopback, link-local or multicast address (allowPrivateNetworks lets it)',
    );
  }
  return parsed;
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
  const { fetch: custom, timeoutMs, signal, allowPrivateNetworks } = checkAttemptOptions(options);
  const target = checkUrl(url, allowPrivateNetworks);
  if (
    typeof delivery !== 'object' ||
    delivery === null ||
    typeof delivery.body !== 'string' ||
    typeof delivery.headers !== 'object' ||
    delivery.headers === null
  ) {
    throw new WebhookError('invalid-argument', 'Expected a delivery: { body, headers } from createDelivery');
  }
  const limit = timeLimit(timeoutMs, signal);
  const { cutShort } = limit;
  const init = {
    method: 'POST',
    headers: { ...delivery.headers },
    body: delivery.body,
    signal: limit.signal,
  } as const;
  try {
    const sending =
      custom === undefined
        ? guardedFetch(target, init, allowPrivateNetworks)
        : Promise.resolve().then(() => custom(target.href, { ...init, redirect: 'manual' }));
    const response = await Promise.race([sending, cutShort]);
    return { kind: 'response', value: await Promise.race([read(response), cutShort]) };
  } catch (error) {
    if (limit.timedOut) return { kind: 'failed', reason: 'timeout', error: `No response within ${timeoutMs} ms` };
    if (signal?.aborted === true) return { kind: 'failed', reason: 'aborted', error: 'Aborted by the caller' };
    if (error instanceof PrivateAddressRefusal) return { kind: 'failed', reason: 'private-address', error: PRIVATE_ADDRESS };
    return { kind: 'failed', reason: 'network-error', error: NETWORK_ERROR };
  } finally {
    limit.dispose();
  }
}

/** The most of an unread answer's body read to its end, so its keep-alive connection is used again. */
const MAX_DISCARDED_BYTES = 64 * 1024;
/** How long that reading may take before the connection is given up instead. */
const MAX_DISCARD_MS = 5000;

/**
 * Frees the connection of a body nobody needs: a short body (most receivers
 * answer with none or a few bytes) is read to its end in the background, so
 * the connection goes back to the keep-alive pool (cancelling the body would
 * close it, and the next delivery would connect again); a body longer than
 * 64 KiB, or one still arriving after 5 s, is cut off.
 */
export function discardBody(response: Response): void {
  const body = response.body;
  if (body === null) return;
  const reader = body.getReader();
  let read = 0;
  const giveUp = (): void => {
    reader.cancel().catch(() => undefined);
  };
  const timer = setTimeout(giveUp, MAX_DISCARD_MS);
  // Never what keeps a process running (Node); a number elsewhere.
  (timer as { unref?: () => void }).unref?.();
  const next = (): void => {
    reader.read().then(
      ({ done, value }) => {
        if (done) return clearTimeout(timer);
        read += value.byteLength;
        if (read <= MAX_DISCARDED_BYTES) return next();
        clearTimeout(timer);
        giveUp();
      },
      () => clearTimeout(timer),
    );
  };
  next();
}
