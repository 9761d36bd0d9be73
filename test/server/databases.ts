// The two engines every server test runs on: PGlite in memory, and a fresh
// database on the PostgreSQL server .ci/run makes sure of (127.0.0.1:5432,
// trust auth; PASSMINT_TEST_POSTGRES to point elsewhere). Each PostgreSQL
// database is made for one test and dropped after it, so test files running
// in parallel never share tables.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { migrate } from '../../src/server/db/schema.js';
import { openPglite } from '../../src/server/db/pglite.js';
import { openPostgres } from '../../src/server/db/postgres.js';
import type { SqlDatabase } from '../../src/server/db/sql.js';

export const POSTGRES_SERVER = process.env['PASSMINT_TEST_POSTGRES'] ?? 'postgres://postgres@127.0.0.1:5432';

export interface TestDatabase {
  readonly db: SqlDatabase;
  /** The URL of the PostgreSQL database (for child processes); undefined on PGlite. */
  readonly url: string | undefined;
  dispose(): Promise<void>;
}

/** Makes an empty database on the PostgreSQL server; returns its URL and how to drop it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `passmint_test_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: `${POSTGRES_SERVER}/postgres` });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: `${POSTGRES_SERVER}/${name}`,
    drop: async () => {
      const again = new pg.Client({ connectionString: `${POSTGRES_SERVER}/postgres` });
      await again.connect();
      try {
        await again.query(`drop database if exists ${name} with (force)`);
      } finally {
        await again.end();
      }
    },
  };
}

export const ENGINES: readonly { readonly name: 'pglite' | 'postgres'; open(options?: { migrate?: boolean }): Promise<TestDatabase> }[] = [
  {
    name: 'pglite',
    async open(options = {}) {
      const migrated = options.migrate !== false;
      const db = await openPglite(migrated ? { loadDataDir: await migratedPglite() } : {});
      if (migrated) await migrate(db);
      return { db, url: undefined, dispose: () => db.close() };
    },
  },
  {
    name: 'postgres',
    async open(options = {}) {
      const { url, drop } = await createPostgresDatabase();
      const db = await openPostgres({ connectionString: url });
      if (options.migrate !== false) await migrate(db);
      return {
        db,
        url,
        dispose: async () => {
          await db.close();
          await drop();
        },
      };
    },
  },
];

/**
 * A new in-memory PGlite runs PostgreSQL's initdb (3–5 s on a busy 2-core machine) and migrating it takes
 * another second; hundreds of tests open one. So every migrated PGlite of a run starts from the same dump
 * (PGlite's dumpDataDir, loaded by `openPglite({ loadDataDir })` in about a second) of a database made and
 * migrated once: written under the run's folder (test/global-setup.ts) by the first worker that needs it,
 * named after the schema's source so a changed migration makes a new one. `ENGINES.pglite.open` still
 * runs `migrate`, which finds nothing to do. Outside `vitest run` (no folder) the dump is made per process.
 */
let template: Promise<Blob> | undefined;
function migratedPglite(): Promise<Blob> {
  template ??= (async () => {
    const folder = process.env['PASSMINT_TEST_CACHE'];
    const db = fileURLToPath(new URL('../../src/server/db/', import.meta.url));
    const schemas = readdirSync(db).filter((name) => name.startsWith('schema'));
    const hash = createHash('sha256');
    for (const name of schemas.sort()) hash.update(name).update(readFileSync(join(db, name)));
    const file = folder === undefined ? undefined : join(folder, `pglite-migrated-${hash.digest('hex').slice(0, 16)}.tar`);
    if (file !== undefined && existsSync(file)) return new Blob([readFileSync(file)]);
    const { PGlite } = await import('@electric-sql/pglite');
    const raw = await PGlite.create();
    try {
      const on = (target: Pick<typeof raw, 'query' | 'exec'>) => ({
        query: async <TRow>(text: string, params: readonly unknown[] = []) => (await target.query<TRow>(text, [...params])).rows,
        exec: async (text: string) => void (await target.exec(text)),
      });
      await migrate({ engine: 'pglite', ...on(raw), transaction: (work) => raw.transaction((tx) => work(on(tx))), close: () => raw.close() });
      const dump = await raw.dumpDataDir('none');
      if (file !== undefined) {
        // Written whole, then renamed: a worker never reads half a file (two that make it at once both rename a whole one).
        const partial = `${file}.${process.pid}`;
        writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
        renameSync(partial, file);
      }
      return dump;
    } finally {
      await raw.close();
    }
  })();
  return template;
}
