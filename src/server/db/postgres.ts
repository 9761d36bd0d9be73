import { createConnectionGate } from './connection-gate.js';
import { isDatabaseUnavailable } from './database-errors.js';
import { importPeer } from './pglite.js';
import { INSTANCE_PREFIX } from './queue.js';
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
  /** How long to wait for a new connection before the query fails (and the API answers 503), in ms; default 5000. */
  readonly connectTimeoutMs?: number | undefined;
  /**
   * The longest a statement runs, in ms (PostgreSQL's `statement_timeout`, set on every connection); past it
   * the server cancels it and the API answers 503. Default none (`createServer` sets 5000); 0: none.
   */
  readonly statementTimeoutMs?: number | undefined;
  /** The longest a statement waits for a free connection, in ms, before it fails (503) without running; default no bound (`createServer`: 1000). */
  readonly waitMs?: number | undefined;
  /** Most statements waiting for a connection at once; one more fails (503) at once. Default no bound (`createServer`: 256). */
  readonly maxWaiting?: number | undefined;
}

const INT8 = 20;

/** Most statement texts run as named prepared statements (the service has a few dozen; any past this run unnamed). */
const MAX_PREPARED = 500;

/**
 * Opens a pool of connections to a PostgreSQL server through `pg` (an
 * optional peer dependency). Any number of processes may share one server.
 *
 * A lost connection never ends the process: the server going away (a
 * restart, a failover, `pg_terminate_backend`) fails the queries in flight
 * with an error {@link isDatabaseUnavailable} recognises, and the pool
 * connects again for the next ones. Every connection is named
 * `passmint:<instanceId>` (`application_name`), and one extra connection is
 * kept open for the pool's lifetime, so another process can tell that this
 * one still runs (see `releaseOrphanedClaims`).
 *
 * @example
 * ```ts
 * const db = await openPostgres({ connectionString: process.env.DATABASE_URL! });
 * ```
 */
export async function openPostgres(options: PostgresOptions): Promise<SqlDatabase> {
  const pg = await importPeer<typeof import('pg') & { default?: typeof import('pg') }>('pg');
  const { Pool, Client, types } = pg.default ?? pg;
  const getTypeParser = ((oid: number, format?: string) =>
    oid === INT8 ? (value: string) => Number(value) : types.getTypeParser(oid, format as 'text')) as typeof types.getTypeParser;
  const instanceId = crypto.randomUUID();
  const settings = {
    connectionString: options.connectionString,
    application_name: `${INSTANCE_PREFIX}${instanceId}`,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    keepAlive: true,
    types: { getTypeParser },
  };
  const max = options.max ?? 10;
  // Every connection of the pool cancels a statement past the timeout (sent at connect, no round trip per query).
  const statementTimeout =
    options.statementTimeoutMs === undefined || options.statementTimeoutMs === 0 ? {} : { statement_timeout: options.statementTimeoutMs };
  const pool = new Pool({ ...settings, ...statementTimeout, max });
  // The pool's own line has no bound on its length: statements wait for a connection here instead.
  const gate = createConnectionGate({ permits: max, waitMs: options.waitMs, maxWaiting: options.maxWaiting });
  // An idle connection the server drops (a restart, a failover) must not crash the process…
  pool.on('error', () => undefined);
  // …nor one in use: a checked-out client has no listener of the pool's, and an unheard
  // 'error' event ('Connection terminated unexpectedly') would end the process. The query
  // in flight fails on its own; the client is then thrown away (see transaction below).
  pool.on('connect', (client) => client.on('error', () => undefined));
  // Fail now, not at the first request, when the server cannot be reached.
  await pool.query('select 1');
  const presence = keepPresence(() => new Client(settings));

  const normalize = (row: Record<string, unknown>): Record<string, unknown> => {
    for (const key of Object.keys(row)) {
      const value = row[key];
      // bytea arrives as a Buffer; hand out plain Uint8Arrays like PGlite does.
      if (Buffer.isBuffer(value)) row[key] = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    }
    return row;
  };
  // Statements with parameters run as named prepared statements: each connection parses and plans one once.
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED) names.set(text, (name = `passmint_${names.size + 1}`));
    return name;
  };
  type Target = { query: (config: { text: string; values: unknown[]; name?: string }) => Promise<{ rows: Record<string, unknown>[] }> };
  const queryable = (target: Target): SqlQueryable => ({
    async query<TRow>(text: string, params: readonly unknown[] = []): Promise<TRow[]> {
      const name = params.length > 0 ? nameOf(text) : undefined;
      const result = await target.query(name === undefined ? { text, values: [...params] } : { name, text, values: [...params] });
      return result.rows.map(normalize) as TRow[];
    },
    async exec(text: string): Promise<void> {
      // Without parameters pg uses the simple protocol, which takes several statements.
      await target.query({ text, values: [] });
    },
  });

  const pooled = queryable(pool);
  return {
    engine: 'postgres',
    instanceId,
    query<TRow>(text: string, params?: readonly unknown[]): Promise<TRow[]> {
      return gate.run(() => pooled.query<TRow>(text, params));
    },
    exec(text: string): Promise<void> {
      return gate.run(() => pooled.exec(text));
    },
    transaction<TResult>(work: (tx: SqlQueryable) => Promise<TResult>): Promise<TResult> {
      return gate.run(() => transaction(work));
    },
    async close() {
      await presence.close();
      await pool.end();
    },
    // Read by GET /metrics (passmint_db_pool_connections); not part of SqlDatabase.
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount + gate.waiting }),
  } as SqlDatabase;

  /** One transaction on one connection of the pool (run under the gate). */
  async function transaction<TResult>(work: (tx: SqlQueryable) => Promise<TResult>): Promise<TResult> {
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query('begin');
      const result = await work(queryable(client));
      await client.query('commit');
      return result;
    } catch (error) {
      // A connection the server dropped is not given back to the pool, nor one that cannot roll back
      // (a statement cancelled by statement_timeout leaves its connection sound: rolled back and kept).
      broken = isDatabaseUnavailable(error) && (error as { code?: unknown }).code !== '57014';
      if (!broken) {
        try {
          await client.query('rollback');
        } catch {
          broken = true;
        }
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }
}

interface PresenceClient {
  connect(): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'error' | 'end', listener: () => void): unknown;
}

/**
 * One connection held open for as long as the database is open — connecting
 * again a second after it is lost — so `pg_stat_activity` shows this
 * process as long as it runs, even when its pool has no connection left.
 */
function keepPresence(create: () => PresenceClient): { close(): Promise<void> } {
  let closed = false;
  let client: PresenceClient | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const connect = (): void => {
    timer = undefined;
    if (closed) return;
    const current = create();
    client = current;
    let lost = false;
    const retry = (): void => {
      if (lost || closed) return;
      lost = true;
      timer = setTimeout(connect, 1000);
      timer.unref();
    };
    current.on('error', retry);
    current.on('end', retry);
    current.connect().catch(retry);
  };
  connect();
  return {
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  };
}
