import './test/node20-polyfills.js';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that run in a fresh process each: the end-to-end ones (Chromium; sharing their workers saved
 * nothing measurable), and those that replace a module or a global for the whole file — the web crypto in
 * place of node's (`vi.mock`), a refusing `Function` that the template compiler remembers.
 */
const ISOLATED = [
  'test/e2e/**/*.test.ts',
  'test/pkpass/signer-web.test.ts',
  'test/pkpass/web-signing-key.test.ts',
  'test/pkpass/web-crypto.test.ts',
  'test/template/codegen.test.ts',
];

/**
 * Files that mostly wait rather than compute: for leases to lapse (lease, queue-claims), for statement
 * timeouts under a locked table (fail-fast-serve), for the listener's 10 s header timeout (attack-http).
 * Side by side they left both cores idle for most of 40 s; each now runs beside a busy file.
 */
const WAITING = ['lease', 'queue-claims', 'fail-fast-serve', 'attack-http'].map((name) => `/test/server/${name}.test.ts`);

/**
 * The slowest files first, so none starts near the end of a run and keeps one worker busy after the other
 * is done: the kill -9 files (a minute or two each), each beside an end-to-end file (Chromium) rather than
 * two at once, and a waiting file after each such pair; then the rest in Vitest's own order (the slowest of
 * the last run first, else the largest — CI starts with no last run, and these files are small), those that
 * share workers last and together (a worker is reused only from one such file to the next).
 */
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waiting = sorted.filter((file) => WAITING.some((name) => file.moduleId.endsWith(name)));
    const crash = sorted.filter((file) => /\/test\/server\/[^/]*crash[^/]*\.test\.ts$/.test(file.moduleId));
    const e2e = sorted.filter((file) => file.moduleId.includes('/test/e2e/'));
    const slow: TestSpecification[] = [];
    for (let index = 0; index < Math.max(crash.length, e2e.length, waiting.length); index++) {
      slow.push(...crash.slice(index, index + 1), ...e2e.slice(index, index + 1), ...waiting.slice(index, index + 1));
    }
    const rest = sorted.filter((file) => !slow.includes(file));
    const shared = rest.filter((file) => file.project.config.isolate === false);
    return [...slow, ...rest.filter((file) => !shared.includes(file)), ...shared];
  }
}

export default defineConfig({
  test: {
    setupFiles: ['test/node20-polyfills.ts', 'test/setup.ts'],
    // The playground's production build, once per run for every end-to-end file (test/e2e/browser.ts).
    globalSetup: ['test/global-setup.ts'],
    // Vitest's default is the cores less one: a single worker on a 2-core machine (CI's), so every
    // file waited for the one before. Most slow files wait on child processes, PostgreSQL or
    // Chromium rather than on the CPU: ten of them took 94 s on one worker, 59 s on two, 61 s on three.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for a condition; Vitest gives up after 1 s, which a page in Chromium beside a
    // kill -9 file on a busy 2-core machine can take to update (a failure then says "did not succeed in time").
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED,
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
      {
        extends: true,
        // Every other file: a worker runs one after another, each file closing what it opened (services,
        // databases, child processes). A fresh worker per file loaded the library, the service and their
        // dependencies again each time: the service's 99 files took 246 s alone that way, 190 s sharing.
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false },
      },
    ],
  },
});
