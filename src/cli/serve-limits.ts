// `passmint serve`'s limit options (docs/limits.md), read into createServer's `limits`.
import type { DatabaseLimits, ServiceLimits } from '../server/index.js';
import { flag, stringOption, type OptionTable, type ParsedCommandLine } from './args.js';
import { UsageError } from './usage-error.js';

/** The limit options of `passmint serve` (each also PASSMINT_<NAME>). */
export const LIMIT_SERVE_OPTIONS: OptionTable = {
  'max-registrations-per-pass': { type: 'string' },
  'max-registrations-per-device': { type: 'string' },
  'rate-per-address': { type: 'string' },
  'rate-per-token': { type: 'string' },
  'repeat-window-seconds': { type: 'string' },
  'pkpass-cache-mb': { type: 'string' },
  'max-template-files': { type: 'string' },
  'max-template-mb': { type: 'string' },
  'trust-proxy': { type: 'boolean' },
  'max-import-rows': { type: 'string' },
  'max-import-mb': { type: 'string' },
  'imports-at-once': { type: 'string' },
  'job-retention-days': { type: 'string' },
  'db-statement-timeout-ms': { type: 'string' },
  'db-wait-ms': { type: 'string' },
  'db-max-waiting': { type: 'string' },
};

/** Their lines of `--help`. */
export const LIMIT_SERVE_HELP = `  --max-registrations-per-pass N    devices one pass may be registered on (default 20; 0 = no cap)
  --max-registrations-per-device N  passes one device may register (default 1000; 0 = no cap)
  --rate-per-address N    requests a minute from one address to the download link and /wallet (default 600; 0 = off)
  --rate-per-token N      requests a minute with one pass's token (default 60; 0 = off)
  --repeat-window-seconds N  a repeated download of a pass by one client adds no pass.downloaded
                          event within this time (default 600; 0 = an event each time)
  --pkpass-cache-mb N     memory for signed .pkpass files, one per pass version (default 64; 0 = none)
  --max-template-files N  files one template may have (default 64)
  --max-template-mb N     megabytes all files of one template may have together (default 20)
  --trust-proxy           take the client address from X-Forwarded-For (behind a reverse proxy)
  --max-import-rows N     records one import may have (default 1000000)
  --max-import-mb N       megabytes one import's file may have (default 256)
  --imports-at-once N     imports this process runs at once (default 1; 0 = none here, other processes run them)
  --job-retention-days N  keep ended imports and their results N days (default 30; 0 = keep them)
  --db-statement-timeout-ms N  PostgreSQL: cancel a statement that runs longer (statement_timeout; default 5000;
                          0 = none); the request is answered 503 database-unavailable with Retry-After
  --db-wait-ms N          the longest a statement waits for a free database connection (PGlite: for its turn)
                          before the request is answered 503 (default 1000; 0 = no wait)
  --db-max-waiting N      statements that may wait at once; past it a request is answered 503 at once (default 256)`;

const MIB = 1024 * 1024;

/**
 * The limits given on the command line (or in the environment); a value that
 * is not a whole number is a {@link UsageError} naming its option.
 */
export function readLimitOptions(parsed: ParsedCommandLine): ServiceLimits {
  const number = (name: string, min = 0): number | undefined => {
    const text = stringOption(parsed, name);
    if (text === undefined) return undefined;
    if (!/^\d{1,9}$/.test(text) || Number(text) < min)
      throw new UsageError(`--${name} is a whole number${min === 0 ? '' : ` of at least ${min}`}, not "${text}"`);
    return Number(text);
  };
  const megabytes = (name: string, min = 0): number | undefined => {
    const value = number(name, min);
    return value === undefined ? undefined : value * MIB;
  };
  return {
    maxRegistrationsPerPass: number('max-registrations-per-pass'),
    maxRegistrationsPerDevice: number('max-registrations-per-device'),
    ratePerAddress: number('rate-per-address'),
    ratePerToken: number('rate-per-token'),
    repeatWindowSeconds: number('repeat-window-seconds'),
    pkpassCacheBytes: megabytes('pkpass-cache-mb'),
    maxTemplateFiles: number('max-template-files', 1),
    maxTemplateBytes: megabytes('max-template-mb', 1),
    trustProxy: flag(parsed, 'trust-proxy'),
    maxImportRows: number('max-import-rows', 1),
    maxImportBytes: megabytes('max-import-mb', 1),
    importsAtOnce: number('imports-at-once'),
    jobRetentionDays: number('job-retention-days'),
  };
}

/**
 * The database limits given on the command line (or in the environment); a
 * value that is not a whole number is a {@link UsageError} naming its option.
 */
export function readDatabaseLimitOptions(parsed: ParsedCommandLine): DatabaseLimits {
  const number = (name: string): number | undefined => {
    const text = stringOption(parsed, name);
    if (text === undefined) return undefined;
    if (!/^\d{1,9}$/.test(text)) throw new UsageError(`--${name} is a whole number, not "${text}"`);
    return Number(text);
  };
  return { statementTimeoutMs: number('db-statement-timeout-ms'), waitMs: number('db-wait-ms'), maxWaiting: number('db-max-waiting') };
}
