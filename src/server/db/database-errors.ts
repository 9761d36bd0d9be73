// Telling "the database is away" apart from every other failure, for the
// problem mapper (503 instead of 500), the API key check (answer from the
// keys it already read) and the workers (back off instead of reporting
// every poll).

/** SQLSTATE classes and codes that mean the server cannot serve right now, not that the statement is wrong. */
const UNAVAILABLE_STATES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, a fast or immediate stop
  '57P02', // crash_shutdown: another backend crashed, the server restarts
  '57P03', // cannot_connect_now: the server is starting up or shutting down
  '57P05', // idle_session_timeout
  '53300', // too_many_connections
  '25006', // read_only_sql_transaction: writing to a standby during a failover
  '57014', // query_canceled: the statement ran past statement_timeout (a locked table, an overloaded server)
]);

/** Socket-level failures of the connection to the server. */
const UNAVAILABLE_SYSTEM_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOTCONN',
]);

/** What `pg` says when the connection went away under it (it has no code of its own for these). */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'server closed the connection unexpectedly',
];

/**
 * Whether an error thrown by a query means the database cannot be reached
 * right now (stopped, restarting, failing over, the connection cut), as
 * opposed to a statement it refused. Such an error is answered `503
 * database-unavailable` with `Retry-After`, and makes the workers back off.
 *
 * @example
 * ```ts
 * try {
 *   await db.query('select 1');
 * } catch (error) {
 *   if (isDatabaseUnavailable(error)) console.log('PostgreSQL is away; retry later');
 * }
 * ```
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 5; depth++) {
    if (current instanceof DatabaseBusyError) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (code.startsWith('08') && code.length === 5) return true; // connection_exception and its subclasses
      if (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_SYSTEM_CODES.has(code)) return true;
    }
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((text) => message.includes(text))) return true;
    // Node reports a refused dual-stack connect as an AggregateError of the attempts.
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Seconds a client is told to wait (`Retry-After`) while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * A statement that did not get a turn at the database: every connection was
 * busy and it waited past the bound (`waitMs`), or too many waited already
 * (`maxWaiting`). It never ran. {@link isDatabaseUnavailable} recognises it:
 * the API answers `503 database-unavailable` with `Retry-After`.
 *
 * @example
 * ```ts
 * const busy = new DatabaseBusyError('no database connection was free within 1000 ms');
 * isDatabaseUnavailable(busy); // true
 * ```
 */
export class DatabaseBusyError extends Error {
  /** Always `database-busy`. */
  readonly code: 'database-busy' = 'database-busy';
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseBusyError';
  }
}
