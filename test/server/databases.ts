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

/** Makes an empty database on the PostgreSQL server (or a copy of `template`); returns its URL and how to drop it. */
export async function createPostgresDatabase(template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `passmint_test_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: `${POSTGRES_SERVER}/postgres` });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template === undefined ? '' : ` template ${template}`}`);
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
      const migrated = options.migrate !== false;
      const { url, drop } = await createPostgresDatabase(migrated ? await migratedPostgres() : undefined);
      const db = await openPostgres({ connectionString: url });
      if (migrated) await migrate(db);
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
    const file = folder === undefined ? undefined : join(folder, `pglite-migrated-${schemaHash()}.tar`);
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

/** A short hash of the migrations' source (src/server/db/schema*.ts). */
function schemaHash(): string {
  const db = fileURLToPath(new URL('../../src/server/db/', import.meta.url));
  const schemas = readdirSync(db).filter((name) => name.startsWith('schema'));
  const hash = createHash('sha256');
  for (const name of schemas.sort()) hash.update(name).update(readFileSync(join(db, name)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The same on PostgreSQL: a migrated database made once per run (and schema) on the server, which every
 * migrated test database is made from (`create database … template`, a copy of its files: the migrations'
 * 300 ms saved on each). Its name carries the run's folder and the schema's hash; test/global-setup.ts
 * drops it after the run. Made under an advisory lock, so two workers never make it at once.
 */
let postgresTemplate: Promise<string> | undefined;
function migratedPostgres(): Promise<string> {
  postgresTemplate ??= (async () => {
    const run = process.env['PASSMINT_TEST_CACHE'];
    const tag = createHash('sha256')
      .update(run ?? `${process.pid}`)
      .digest('hex')
      .slice(0, 8);
    const name = `passmint_template_${tag}_${schemaHash()}`;
    const admin = new pg.Client({ connectionString: `${POSTGRES_SERVER}/postgres` });
    await admin.connect();
    try {
      await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
      const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (exists.rowCount === 0) {
        const building = `${name}_building`;
        await admin.query(`drop database if exists ${building}`);
        await admin.query(`create database ${building}`);
        const db = await openPostgres({ connectionString: `${POSTGRES_SERVER}/${building}` });
        try {
          await migrate(db);
        } finally {
          await db.close();
        }
        // Renamed once whole: a database is never copied half-migrated. Its name is left where the run's teardown finds it.
        await admin.query(`alter database ${building} rename to ${name}`);
        if (run !== undefined) writeFileSync(join(run, `postgres-template-${name}`), '');
      }
      return name;
    } finally {
      await admin.end();
    }
  })();
  return postgresTemplate;
}
