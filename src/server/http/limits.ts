// What one pass holder or one client can make the service do, and its defaults.
// docs/limits.md describes each limit, its option and its answer.

/**
 * Limits of `createServer` (`limits`). Every field is optional; a rate or a
 * cap of 0 turns that limit off.
 *
 * @example
 * ```ts
 * const limits: ServiceLimits = { maxRegistrationsPerPass: 5, ratePerAddress: 300, trustProxy: true };
 * ```
 */
export interface ServiceLimits {
  /** Devices one pass may be registered on (default 20). Past it a device is answered 200 and nothing is stored. */
  readonly maxRegistrationsPerPass?: number | undefined;
  /** Passes one device may register (default 1000). */
  readonly maxRegistrationsPerDevice?: number | undefined;
  /** Requests a minute from one client address to the public routes (default 600, bursts of as many). */
  readonly ratePerAddress?: number | undefined;
  /** Requests a minute with one pass's token (the download link's `?token=`, Wallet's `ApplePass`; default 60). */
  readonly ratePerToken?: number | undefined;
  /** Keys each rate limiter and repeat window tracks at most (default 100,000). */
  readonly maxTrackedKeys?: number | undefined;
  /** A download of the same pass by the same client within this many seconds adds no `pass.downloaded` (default 600). */
  readonly repeatWindowSeconds?: number | undefined;
  /** Bytes of signed `.pkpass` files kept in memory, one per pass version (default 64 MiB). */
  readonly pkpassCacheBytes?: number | undefined;
  /** Bytes of prepared template files kept in memory (default 128 MiB). */
  readonly preparedFilesCacheBytes?: number | undefined;
  /** Files one template may have (default 64). */
  readonly maxTemplateFiles?: number | undefined;
  /** Bytes all files of one template may have together (default 20 MiB). */
  readonly maxTemplateBytes?: number | undefined;
  /** Take the client address from the last `X-Forwarded-For` entry (behind a reverse proxy); default `false`. */
  readonly trustProxy?: boolean | undefined;
  /** Records one import may have (default 1,000,000). Past it the upload is refused (413 `too-many-rows`). */
  readonly maxImportRows?: number | undefined;
  /** Bytes one import's file may have (default 256 MiB). Past it the upload is refused (413 `body-too-large`). */
  readonly maxImportBytes?: number | undefined;
  /** Jobs (imports) one process runs at once (default 1; 0: this process runs none, other processes do). */
  readonly importsAtOnce?: number | undefined;
  /** Days a job and its results are kept after it ended (default 30; 0 keeps them). */
  readonly jobRetentionDays?: number | undefined;
}

/** {@link ServiceLimits} with every default filled in. */
export type Limits = { readonly [TKey in keyof ServiceLimits]-?: Exclude<ServiceLimits[TKey], undefined> };

const MIB = 1024 * 1024;

/**
 * The defaults.
 *
 * @example
 * ```ts
 * DEFAULT_LIMITS.maxTemplateFiles; // 64
 * ```
 */
export const DEFAULT_LIMITS: Limits = {
  maxRegistrationsPerPass: 20,
  maxRegistrationsPerDevice: 1000,
  ratePerAddress: 600,
  ratePerToken: 60,
  maxTrackedKeys: 100_000,
  repeatWindowSeconds: 600,
  pkpassCacheBytes: 64 * MIB,
  preparedFilesCacheBytes: 128 * MIB,
  maxTemplateFiles: 64,
  maxTemplateBytes: 20 * MIB,
  trustProxy: false,
  maxImportRows: 1_000_000,
  maxImportBytes: 256 * MIB,
  importsAtOnce: 1,
  jobRetentionDays: 30,
};

/**
 * The limits in force: the defaults with the given ones over them.
 *
 * @throws {RangeError} for a number that is negative or not finite.
 *
 * @example
 * ```ts
 * resolveLimits({ ratePerToken: 0 }).ratePerToken; // 0: off
 * ```
 */
export function resolveLimits(given: ServiceLimits = {}): Limits {
  const limits = { ...DEFAULT_LIMITS } as { -readonly [TKey in keyof Limits]: Limits[TKey] };
  for (const [name, value] of Object.entries(given) as [keyof Limits, unknown][]) {
    if (value === undefined) continue;
    if (name === 'trustProxy') {
      limits.trustProxy = value === true;
      continue;
    }
    if (!(name in DEFAULT_LIMITS)) throw new RangeError(`limits.${name} is not a limit`);
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new RangeError(`limits.${name} is a number of at least 0`);
    (limits as Record<string, unknown>)[name] = value;
  }
  return limits;
}
