// An in-process token bucket per key (a client address, a pass's token), in
// bounded memory. Each process keeps its own buckets: with several processes
// behind a load balancer, a client may get up to the limit from each.

/**
 * How many requests a key may make: `perMinute` on average, in bursts of up
 * to `burst` (default `perMinute`).
 *
 * @example
 * ```ts
 * const rate: Rate = { perMinute: 60, burst: 20 };
 * ```
 */
export interface Rate {
  readonly perMinute: number;
  readonly burst?: number | undefined;
}

/** What {@link RateLimiter.take} answers: allowed, or the seconds to wait before the next request is. */
export type RateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

/**
 * Token buckets keyed by text.
 *
 * @example
 * ```ts
 * const limiter: RateLimiter = createRateLimiter({ perMinute: 60 });
 * if (!limiter.take('203.0.113.7').allowed) return new Response(null, { status: 429 });
 * ```
 */
export interface RateLimiter {
  /** Takes one token from the key's bucket, if there is one. */
  take(key: string, now?: number): RateDecision;
  /** How many keys are tracked now (at most `maxKeys`). */
  readonly size: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Makes a limiter. A bucket unused for as long as it takes to fill again is
 * forgotten (a key seen again starts with a full bucket: the same answer),
 * so the buckets kept are those of keys used lately, not of every key ever
 * seen; and at most `maxKeys` are kept (default 100,000): past that, the
 * least recently used key is forgotten, so memory stays bounded whatever
 * keys clients send.
 *
 * @example
 * ```ts
 * const perAddress = createRateLimiter({ perMinute: 600 }, { maxKeys: 50_000 });
 * perAddress.take('203.0.113.7'); // { allowed: true }
 * ```
 */
export function createRateLimiter(rate: Rate, options: { readonly maxKeys?: number | undefined } = {}): RateLimiter {
  if (!(rate.perMinute > 0) || (rate.burst !== undefined && !(rate.burst >= 1)))
    throw new RangeError('A rate is more than 0 requests a minute, in bursts of at least 1');
  const capacity = Math.max(1, rate.burst ?? rate.perMinute);
  const perMs = rate.perMinute / 60_000;
  const maxKeys = Math.max(1, options.maxKeys ?? 100_000);
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const buckets = new Map<string, Bucket>();
  // How long an unused bucket takes to be full again: past that, keeping it changes nothing.
  const refillMs = capacity / perMs;
  return {
    take(key, now = Date.now()) {
      let bucket = buckets.get(key);
      if (bucket !== undefined) buckets.delete(key);
      // The least recently used sit at the front: drop those full again, then the oldest while too many.
      for (const [first, old] of buckets) {
        if (now - old.at < refillMs && buckets.size < maxKeys) break;
        buckets.delete(first);
      }
      if (bucket === undefined) bucket = { tokens: capacity, at: now };
      else {
        bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
        bucket.at = now;
      }
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true };
      }
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)) };
    },
    get size() {
      return buckets.size;
    },
  };
}
