// Once per `vitest run`, in the main process before any test file: a folder
// for the playground's production build, which the end-to-end files share
// (test/e2e/browser.ts builds it there on first use, so a run without e2e
// files builds nothing), and one for what other files make once per run.
// The workers inherit the variables.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  // A folder per run: two runs at once (say, a watcher and CI) must not share or empty each other's build.
  const folder = mkdtempSync(join(tmpdir(), 'passmint-playground-e2e-'));
  process.env['PASSMINT_PLAYGROUND_BUILD'] = folder;
  // What test files make once per run and share (test/server/databases.ts: the migrated PGlite).
  const cache = mkdtempSync(join(tmpdir(), 'passmint-test-run-'));
  process.env['PASSMINT_TEST_CACHE'] = cache;
  return () => {
    rmSync(folder, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  };
}
