// The limits of the routes anyone may call (the download link, Apple's web
// service): rates per client address and per pass token, and the window in
// which a repeated download adds no event. In-process: with several
// processes, each has its own buckets and window.
import { clientAddressOf, rateKeyOf } from './client-address.js';
import type { Limits } from './limits.js';
import { ServiceProblem } from '../../http/problem.js';
import { createRateLimiter, type RateLimiter } from './rate-limit.js';
import { createRepeatWindow, type RepeatWindow } from './repeat-window.js';

/**
 * What the public routes check before any work.
 *
 * @example
 * ```ts
 * const guard: PublicGuard = createPublicGuard(resolveLimits());
 * guard.admit(request, token); // throws a 429 ServiceProblem past a rate
 * ```
 */
export interface PublicGuard {
  /** Takes one request from the client address's bucket and, with a token, the token's; a 429 `rate-limited` problem with `Retry-After` when either is empty. */
  admit(request: Request, token?: string | undefined): void;
  /** The client's address as the limits see it (`undefined` when unknown). */
  addressOf(request: Request): string | undefined;
  /** Whether this key (a pass and a client) was seen within the repeat window; records it otherwise. */
  readonly repeats: RepeatWindow;
}

/**
 * Makes the guard of one service.
 *
 * @example
 * ```ts
 * const guard = createPublicGuard(resolveLimits({ ratePerAddress: 120 }));
 * ```
 */
export function createPublicGuard(limits: Limits): PublicGuard {
  const options = { maxKeys: limits.maxTrackedKeys };
  const perAddress: RateLimiter | undefined = limits.ratePerAddress > 0 ? createRateLimiter({ perMinute: limits.ratePerAddress }, options) : undefined;
  const perToken: RateLimiter | undefined = limits.ratePerToken > 0 ? createRateLimiter({ perMinute: limits.ratePerToken }, options) : undefined;
  const addressOf = (request: Request): string | undefined => clientAddressOf(request, limits.trustProxy);
  return {
    admit(request, token) {
      const address = addressOf(request);
      // IPv6 clients count by /64: a client can pick any address of its own network.
      const byAddress = address === undefined ? undefined : perAddress?.take(rateKeyOf(address));
      if (byAddress !== undefined && !byAddress.allowed) throw limited(byAddress.retryAfterSeconds, 'from this address');
      // Keys are bounded (a made-up token may be kilobytes long): a real token is far shorter than this.
      const byToken = token === undefined || token === '' ? undefined : perToken?.take(token.slice(0, MAX_KEY_LENGTH));
      if (byToken !== undefined && !byToken.allowed) throw limited(byToken.retryAfterSeconds, 'for this pass');
    },
    addressOf,
    repeats: createRepeatWindow({ windowMs: limits.repeatWindowSeconds * 1000, maxKeys: limits.maxTrackedKeys }),
  };
}

const MAX_KEY_LENGTH = 128;

function limited(seconds: number, what: string): ServiceProblem {
  return new ServiceProblem(429, 'rate-limited', `Too many requests ${what}; try again in ${seconds} s.`, { headers: { 'retry-after': String(seconds) } });
}
