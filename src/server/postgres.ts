import { importPeer } from './pglite.js';
import type { SqlDatabase, SqlQueryable } from './sql.js';

/**
 * Options of {@link openPostgres}.
 *
 * @example
 * ```ts
 * const options: PostgresOptions = { connectionString: 'postgres://passmint@db.internal/passmint', max: 10 };
 * ```
 */
export interface PostgresOptions {
  /** A `postgres://user:password@host:port/database` URL (`DATABASE_URL`). */
  readonly connectionString: string;
  /** Most connections in the pool; default 10. */
  readonly max?: number | undefined;
}

const INT8 = 20;

/**
 * Opens a pool of connections to a PostgreSQL server through `pg` (an
 * optional peer dependency). Any number of processes may share one server.
 *
 * @example
 * ```ts
 * const db = await openPostgres({ connectionString: process.env.DATABASE_URL! });
 * ```
 */
export async function openPostgres(options: PostgresOptions): Promise<SqlDatabase> {
  const pg = await importPeer<typeof import('pg') & { default?: typeof import('pg') }>('pg');
  const { Pool, types } = pg.default ?? pg;
  const getTypeParser = ((oid: number, format?: string) =>
    oid === INT8 ? (value: string) => Number(value) : types.getTypeParser(oid, format as 'text')) as typeof types.getTypeParser;
  const pool = new Pool({ connectionString: options.connectionString, max: options.max ?? 10, types: { getTypeParser } });
  // An idle connection the server drops (a restart, a failover) must not crash the process.
  pool.on('error', () => undefined);
  // Fail now, not at the first request, when the server cannot be reached.
  await pool.query('select 1');

  const normalize = (row: Record<string, unknown>): Record<string, unknown> => {
    for (const key of Object.keys(row)) {
      const value = row[key];
      // bytea arrives as a Buffer; hand out plain Uint8Arrays like PGlite does.
      if (Buffer.isBuffer(value)) row[key] = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    }
    return row;
  };
  const queryable = (target: { query: (text: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }> }): SqlQueryable => ({
    async query<TRow>(text: string, params: readonly unknown[] = []): Promise<TRow[]> {
      const result = await target.query(text, [...params]);
      return result.rows.map(normalize) as TRow[];
    },
    async exec(text: string): Promise<void> {
      // Without parameters pg uses the simple protocol, which takes several statements.
      await target.query(text, []);
    },
  });

  return {
    engine: 'postgres',
    ...queryable(pool),
    async transaction(work) {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('begin');
        const result = await work(queryable(client));
        await client.query('commit');
        return result;
      } catch (error) {
        try {
          await client.query('rollback');
        } catch {
          broken = true; // a connection that cannot roll back is not given back to the pool
        }
        throw error;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
