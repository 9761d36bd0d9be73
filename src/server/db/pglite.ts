import { createConnectionGate } from './connection-gate.js';
import { lockDataDir } from './data-lock.js';
import { MissingPackageError } from './missing-package.js';
import { restrictFolder, withPrivateUmask } from './private-files.js';
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
  /**
   * The longest a statement waits for its turn, in ms, before it fails (503) without running; default no
   * bound (`createServer`: 1000). PGlite runs one statement at a time, in this process's own thread: a
   * statement that runs cannot be interrupted (PostgreSQL's `statement_timeout` does nothing here), so
   * what bounds a request is its wait behind the others (a long transaction, a large import).
   */
  readonly waitMs?: number | undefined;
  /** Most statements waiting for their turn at once; one more fails (503) at once. Default no bound (`createServer`: 256). */
  readonly maxWaiting?: number | undefined;
  /**
   * For an in-memory database: the files to start from, a tarball made by PGlite's `dumpDataDir()`, instead of a new empty
   * database (making one runs PostgreSQL's initdb, seconds on a busy machine; loading a dump is faster). Not used with `dataDir`.
   */
  readonly loadDataDir?: Blob | undefined;
}

// PostgreSQL type OIDs the store reads: int8 → number (ids and counters stay below 2^53).
const INT8 = 20;

/**
 * Opens an embedded PGlite database (real PostgreSQL compiled to
 * WebAssembly, in this process) — `@electric-sql/pglite` must be installed
 * (an optional peer dependency). One process owns a data folder at a time:
 * another that tries while it runs gets an error (a folder left by a killed
 * process is taken over). The folder and its files are the owner's alone
 * (0700 / 0600) whatever the umask: made so when created, and put right at
 * each open and close.
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
    const dataDir = options.dataDir;
    if (dataDir === undefined) db = await PGlite.create({ parsers, ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir }) });
    else {
      db = await withPrivateUmask(() => PGlite.create({ dataDir, parsers }));
      restrictFolder(dataDir);
    }
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
  // PGlite serializes every statement and transaction itself; the gate keeps the same order but bounds the line.
  const gate = createConnectionGate({ permits: 1, waitMs: options.waitMs, maxWaiting: options.maxWaiting });
  const direct = queryable(db);
  return {
    engine: 'pglite',
    query<TRow>(text: string, params?: readonly unknown[]): Promise<TRow[]> {
      return gate.run(() => direct.query<TRow>(text, params));
    },
    exec(text: string): Promise<void> {
      return gate.run(() => direct.exec(text));
    },
    transaction: (work) => gate.run(() => db.transaction((tx) => work(queryable(tx)))),
    async close() {
      try {
        await db.close();
        if (options.dataDir !== undefined) restrictFolder(options.dataDir);
      } finally {
        release();
      }
    },
  };
}

/** Imports an optional peer dependency; a {@link MissingPackageError} naming it when it is not installed. */
export async function importPeer<TModule>(name: string): Promise<TModule> {
  try {
    return (await import(name)) as TModule;
  } catch (cause) {
    const code = (cause as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND') {
      throw new MissingPackageError(name, { cause });
    }
    throw cause;
  }
}
