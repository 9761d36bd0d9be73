import { checkFunction, checkInteger, checkNonNegative } from './check-option.js';
import { WebhookError } from './webhook-error.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Waits after attempt 1, 2, 3 …, in milliseconds, before jitter: 5 s, 1 min,
 * 5 min, 30 min, 2 h, 6 h, 12 h, then 24 h for every later attempt.
 *
 * @example
 * ```ts
 * RETRY_SCHEDULE_MS[0]; // 5000: the wait after the first attempt
 * ```
 */
export const RETRY_SCHEDULE_MS: readonly number[] = Object.freeze([5 * SECOND, 1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR, 12 * HOUR, 24 * HOUR]);

/**
 * Longest wait a `Retry-After` can ask for: 24 h.
 *
 * @example
 * ```ts
 * nextRetryDelay(1, { retryAfterMs: 7 * 86_400_000 }) === MAX_RETRY_AFTER_MS; // true
 * ```
 */
export const MAX_RETRY_AFTER_MS: number = DAY;

/** Options of `nextRetryDelay`. All are optional; without any it retries forever. */
export interface RetryDelayOptions {
  /** `retryAfterMs` of the last `deliver` result: honoured when longer than the schedule, up to 24 h. */
  readonly retryAfterMs?: number | undefined;
  /** Give up once this many attempts (the first one included) have been made. */
  readonly maxAttempts?: number | undefined;
  /** Give up when the next attempt would start more than this long after the first attempt; needs `firstAttemptAt`. */
  readonly maxAgeMs?: number | undefined;
  /** When the first attempt was made (ms since the epoch, or a Date); used with `maxAgeMs`. */
  readonly firstAttemptAt?: number | Date | undefined;
  /** Clock, ms since the epoch; default `Date.now`. */
  readonly now?: () => number;
  /** Source of jitter in [0, 1); default `Math.random`. */
  readonly random?: () => number;
  /** Spread around each scheduled wait: 0.1 (default) draws from ±10 %. */
  readonly jitter?: number;
}

/**
 * How long to wait before the next attempt, after `attempt` attempts have
 * failed (1 after the first); `undefined` means give up.
 *
 * The wait is `RETRY_SCHEDULE_MS[attempt - 1]` (24 h from the 8th on) ± 10 %
 * jitter. A `retryAfterMs` longer than that wins, capped at 24 h. It gives up
 * when `attempt >= maxAttempts`, or when `now + wait` would be later than
 * `firstAttemptAt + maxAgeMs`. It keeps no state and sets no timer: store the
 * attempt count with the job and schedule it in your own queue.
 *
 * @example
 * ```ts
 * nextRetryDelay(1); // ≈ 5000 (4500–5500)
 * nextRetryDelay(3, { maxAttempts: 3 }); // undefined: three attempts were made, give up
 * nextRetryDelay(2, { retryAfterMs: 600_000 }); // 600000: the receiver asked for 10 min
 * ```
 */
export function nextRetryDelay(attempt: number, options: RetryDelayOptions = {}): number | undefined {
  if (typeof options !== 'object' || options === null) throw new WebhookError('invalid-argument', 'options must be an object');
  // Every number is checked: a NaN maxAgeMs or maxAttempts would fail every
  // comparison below and so silently mean "retry forever".
  checkInteger('attempt (attempts made so far)', attempt, 1);
  const retryAfterMs = optional(options.retryAfterMs, (value) => checkNonNegative('retryAfterMs', value));
  const maxAttempts = optional(options.maxAttempts, (value) => checkInteger('maxAttempts', value, 1));
  const maxAgeMs = optional(options.maxAgeMs, (value) => checkNonNegative('maxAgeMs', value));
  const firstAttemptAt = optional(options.firstAttemptAt, (value) =>
    checkNonNegative('firstAttemptAt', typeof value === 'number' ? value : value instanceof Date ? value.getTime() : Number.NaN),
  );
  const now = checkFunction('now', options.now) ?? Date.now;
  const random = checkFunction('random', options.random) ?? Math.random;
  const jitter = options.jitter === undefined ? 0.1 : options.jitter;
  if (typeof jitter !== 'number' || !(jitter >= 0 && jitter < 1)) {
    throw new WebhookError('invalid-argument', `jitter must be a number in [0, 1), not ${String(jitter)}`);
  }
  if (maxAgeMs !== undefined && firstAttemptAt === undefined) {
    throw new WebhookError('invalid-argument', 'maxAgeMs needs firstAttemptAt (when the first attempt was made)');
  }
  if (maxAttempts !== undefined && attempt >= maxAttempts) return undefined;

  const scheduled = RETRY_SCHEDULE_MS[Math.min(attempt, RETRY_SCHEDULE_MS.length) - 1] ?? DAY;
  const draw = random();
  if (typeof draw !== 'number' || !(draw >= 0 && draw < 1)) {
    throw new WebhookError('invalid-argument', `random() must return a number in [0, 1), not ${String(draw)}`);
  }
  let delay = Math.round(scheduled * (1 + jitter * (2 * draw - 1)));
  if (retryAfterMs !== undefined && retryAfterMs > delay) delay = Math.max(delay, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));

  if (maxAgeMs !== undefined && firstAttemptAt !== undefined) {
    const time = now();
    if (typeof time !== 'number' || !Number.isFinite(time)) {
      throw new WebhookError('invalid-argument', `now() must return a finite number of milliseconds, not ${String(time)}`);
    }
    if (time - firstAttemptAt + delay > maxAgeMs) return undefined;
  }
  return delay;
}

function optional<TValue, TResult>(value: TValue | undefined, check: (value: TValue) => TResult): TResult | undefined {
  return value === undefined ? undefined : check(value);
}
