import { lockDataDir } from './data-lock.js';
import type { SqlDatabase, SqlQueryable } from './sql.js';

/**
 * Options of {@link openPglite}.
 *
 * @example
 * ```ts
 * const options: PgliteOptions = { dataDir: './passmint-data' };
 * ```
 */
export interface PgliteOptions {
  /** The folder the database lives in; created when missing. Without it the database is in memory (tests). */
  readonly dataDir?: string | undefined;
}

// PostgreSQL type OIDs the store reads: int8 → number (ids and counters stay below 2^53).
const INT8 = 20;

/**
 * Opens an embedded PGlite database (real PostgreSQL compiled to
 * WebAssembly, in this process) — `@electric-sql/pglite` must be installed
 * (an optional peer dependency). One process owns a data folder at a time:
 * another that tries while it runs gets an error (a folder left by a killed
 * process is taken over).
 *
 * @example
 * ```ts
 * const db = await openPglite({ dataDir: './passmint-data' });
 * ```
 */
export async function openPglite(options: PgliteOptions = {}): Promise<SqlDatabase> {
  const { PGlite } = await importPeer<typeof import('@electric-sql/pglite')>('@electric-sql/pglite');
  const parsers = { [INT8]: (value: string): number => Number(value) };
  const release = options.dataDir === undefined ? () => undefined : lockDataDir(options.dataDir);
  let db: InstanceType<typeof PGlite>;
  try {
    db = options.dataDir === undefined ? await PGlite.create({ parsers }) : await PGlite.create({ dataDir: options.dataDir, parsers });
  } catch (error) {
    release();
    throw error;
  }
  const queryable = (target: Pick<typeof db, 'query' | 'exec'>): SqlQueryable => ({
    async query<TRow>(text: string, params: readonly unknown[] = []): Promise<TRow[]> {
      const result = await target.query<TRow>(text, [...params]);
      return result.rows;
    },
    async exec(text: string): Promise<void> {
      await target.exec(text);
    },
  });
  return {
    engine: 'pglite',
    ...queryable(db),
    transaction: (work) => db.transaction((tx) => work(queryable(tx))),
    async close() {
      try {
        await db.close();
      } finally {
        release();
      }
    },
  };
}

/** Imports an optional peer dependency, saying which one to install when it is missing. */
export async function importPeer<TModule>(name: string): Promise<TModule> {
  try {
    return (await import(name)) as TModule;
  } catch (cause) {
    const code = (cause as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error(`passmint/server needs the package "${name}": npm install ${name}`, { cause });
    }
    throw cause;
  }
}
