// Once per `vitest run`, in the main process before any test file: a folder
// for the playground's production build, which the end-to-end files share
// (test/e2e/browser.ts builds it there on first use, so a run without e2e
// files builds nothing), and one for what other files make once per run.
// The workers inherit the variables.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export default function setup(): () => Promise<void> {
  // A folder per run: two runs at once (say, a watcher and CI) must not share or empty each other's build.
  const folder = mkdtempSync(join(tmpdir(), 'passmint-playground-e2e-'));
  process.env['PASSMINT_PLAYGROUND_BUILD'] = folder;
  // What test files make once per run and share (test/server/databases.ts: the migrated PGlite).
  const cache = mkdtempSync(join(tmpdir(), 'passmint-test-run-'));
  process.env['PASSMINT_TEST_CACHE'] = cache;
  return async () => {
    rmSync(folder, { recursive: true, force: true });
    // The PostgreSQL template databases the run made (test/server/databases.ts), named by empty files.
    const templates = readdirSync(cache).filter((name) => name.startsWith('postgres-template-'));
    rmSync(cache, { recursive: true, force: true });
    if (templates.length > 0) await dropDatabases(templates.map((name) => name.slice('postgres-template-'.length)));
  };
}

async function dropDatabases(names: readonly string[]): Promise<void> {
  const server = process.env['PASSMINT_TEST_POSTGRES'] ?? 'postgres://postgres@127.0.0.1:5432';
  const admin = new pg.Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  try {
    for (const name of names) await admin.query(`drop database if exists ${name}`);
  } finally {
    await admin.end();
  }
}
