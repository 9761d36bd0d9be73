// What the kill -9 files of jobs share: the command bundled once, a
// PostgreSQL database and a PGlite data folder, a `passmint serve` started on
// either (and killed at the end whatever happened), and a way to read what
// the database holds once no process runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openPglite } from '../../src/server/db/pglite.js';
import { bundleCli, startServe, type ServeProcess } from './child.js';
import { createPostgresDatabase } from './databases.js';

/** Runs statements on the stopped service's database. */
export type Query = <T>(text: string) => Promise<T[]>;

/** One engine the service is crashed on. */
export interface CrashEngine {
  readonly name: string;
  /** Starts `passmint serve` on this engine with `extra` arguments (the file's tuning). */
  start(extra: readonly string[]): Promise<ServeProcess>;
  /** Stops the running service (SIGTERM) and waits for it. */
  stop(service: ServeProcess): Promise<void>;
  /** Opens the database while no process runs and reads it with `read`. */
  read<T>(read: (query: Query) => Promise<T>): Promise<T>;
}

/**
 * The two engines of a kill -9 file, with their `beforeAll` / `afterAll`
 * registered: `prefix` names the data folder.
 *
 * @example
 * ```ts
 * describe.each(crashEngines('passmint-programs-crash-'))('on $name', (engine) => { … });
 * ```
 */
export function crashEngines(prefix: string): CrashEngine[] {
  let cli: { script: string; remove: () => void };
  let database: { url: string; drop: () => Promise<void> };
  let running: ServeProcess | undefined;
  let dataDir: string;

  beforeAll(async () => {
    [cli, database] = await Promise.all([bundleCli(), createPostgresDatabase()]);
    dataDir = mkdtempSync(join(tmpdir(), prefix));
  });

  afterAll(async () => {
    running?.child.kill('SIGKILL');
    await running?.exited;
    await database?.drop();
    cli?.remove();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  const engine = (name: string, args: () => string[], read: CrashEngine['read']): CrashEngine => ({
    name,
    start: async (extra) => (running = await startServe(cli.script, [...args(), ...extra])),
    async stop(service) {
      service.child.kill('SIGTERM');
      await service.exited;
      running = undefined;
    },
    read,
  });

  return [
    engine(
      'PostgreSQL',
      () => ['--database-url', database.url],
      async (read) => {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          return await read(async (text) => (await client.query(text)).rows);
        } finally {
          await client.end();
        }
      },
    ),
    engine(
      'a PGlite data folder',
      () => ['--data', join(dataDir, 'data')],
      async (read) => {
        const db = await openPglite({ dataDir: join(dataDir, 'data') });
        try {
          return await read((text) => db.query(text));
        } finally {
          await db.close();
        }
      },
    ),
  ];
}
