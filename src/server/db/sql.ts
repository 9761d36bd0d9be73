/**
 * What the store needs of a database: parameterized queries and
 * transactions. Two engines implement it — embedded PGlite
 * ({@link openPglite}) and a PostgreSQL server through `pg`
 * ({@link openPostgres}) — and the same SQL runs on both.
 *
 * Results are normalized: `bigint` columns arrive as numbers (every counter
 * here stays far below 2^53), `bytea` as `Uint8Array`, `jsonb` parsed.
 *
 * @example
 * ```ts
 * const sql: SqlQueryable = await openPglite({ dataDir: './data' });
 * const rows = await sql.query<{ n: number }>('select 1 as n');
 * ```
 */
export interface SqlQueryable {
  /** Runs one statement with `$1 …` parameters; resolves to its rows. */
  query<TRow = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<TRow[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
}

/**
 * A database the service runs on: queries, transactions, and a way to let go.
 *
 * @example
 * ```ts
 * const db: SqlDatabase = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
 * await db.transaction(async (tx) => { await tx.query('insert …'); });
 * ```
 */
export interface SqlDatabase extends SqlQueryable {
  /** `pglite` (embedded) or `postgres` (a server). */
  readonly engine: 'pglite' | 'postgres';
  /**
   * A random id of this open database, written on the work this process
   * claims. On PostgreSQL every connection is named after it, so a process
   * that starts can tell which claims belong to processes that are gone.
   */
  readonly instanceId?: string | undefined;
  /**
   * Runs `work` in one transaction (READ COMMITTED) on one connection:
   * committed when it resolves, rolled back when it throws.
   */
  transaction<TResult>(work: (tx: SqlQueryable) => Promise<TResult>): Promise<TResult>;
  /** Closes the connections (PGlite: flushes and closes the data folder). */
  close(): Promise<void>;
}

/**
 * How long a statement may run and wait, and how many may wait: past a bound
 * it fails at once and the API answers `503 database-unavailable` with
 * `Retry-After`, so a slow or locked database never piles requests up
 * (docs/limits.md). `createServer` fills in what is not given:
 * {@link DEFAULT_DATABASE_LIMITS}.
 *
 * @example
 * ```ts
 * const limits: DatabaseLimits = { statementTimeoutMs: 5000, waitMs: 1000, maxWaiting: 256 };
 * ```
 */
export interface DatabaseLimits {
  /** PostgreSQL: the longest a statement runs (`statement_timeout`), in ms; 0: none. PGlite cannot interrupt a statement: not used there. */
  readonly statementTimeoutMs?: number | undefined;
  /** The longest a statement waits for a free connection (PGlite: for its turn), in ms; 0: no wait. */
  readonly waitMs?: number | undefined;
  /** Most statements waiting at once; one more fails at once. */
  readonly maxWaiting?: number | undefined;
}

/**
 * The database limits of a service `createServer` opens: a statement runs at
 * most 5 s and waits at most 1 s for a connection, and at most 256 wait.
 *
 * @example
 * ```ts
 * DEFAULT_DATABASE_LIMITS.statementTimeoutMs; // 5000
 * ```
 */
export const DEFAULT_DATABASE_LIMITS: { readonly statementTimeoutMs: number; readonly waitMs: number; readonly maxWaiting: number } = {
  statementTimeoutMs: 5000,
  waitMs: 1000,
  maxWaiting: 256,
};
