// Once per `vitest run`, in the main process before any test file: a folder
// for the playground's production build, which the end-to-end files share
// (test/e2e/browser.ts builds it there on first use, so a run without e2e
// files builds nothing). The workers inherit the variable.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  // A folder per run: two runs at once (say, a watcher and CI) must not share or empty each other's build.
  const folder = mkdtempSync(join(tmpdir(), 'passmint-playground-e2e-'));
  process.env['PASSMINT_PLAYGROUND_BUILD'] = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}
