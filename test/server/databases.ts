// The two engines every server test runs on: PGlite in memory, and a fresh
// database on the PostgreSQL server .ci/run makes sure of (127.0.0.1:5432,
// trust auth; PASSMINT_TEST_POSTGRES to point elsewhere). Each PostgreSQL
// database is made for one test and dropped after it, so test files running
// in parallel never share tables.
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
      const db = await openPglite();
      if (options.migrate !== false) await migrate(db);
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
