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
