import './test/node20-polyfills.js';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest files first, so none starts near the end of a run and keeps one worker busy after the other
 * is done: the kill -9 files (a minute or two each), each beside an end-to-end file (Chromium) rather than
 * two at once; then the rest in Vitest's own order (the slowest of the last run first, else the largest —
 * CI starts with no last run, and these files are small).
 */
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const crash = sorted.filter((file) => /\/test\/server\/[^/]*crash[^/]*\.test\.ts$/.test(file.moduleId));
    const e2e = sorted.filter((file) => file.moduleId.includes('/test/e2e/'));
    const slow: TestSpecification[] = [];
    for (let index = 0; index < Math.max(crash.length, e2e.length); index++) slow.push(...crash.slice(index, index + 1), ...e2e.slice(index, index + 1));
    return [...slow, ...sorted.filter((file) => !slow.includes(file))];
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    setupFiles: ['test/node20-polyfills.ts', 'test/setup.ts'],
    // The playground's production build, once per run for every end-to-end file (test/e2e/browser.ts).
    globalSetup: ['test/global-setup.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    // Vitest's default is the cores less one: a single worker on a 2-core machine (CI's), so every
    // file waited for the one before. Most slow files wait on child processes, PostgreSQL or
    // Chromium rather than on the CPU: ten of them took 94 s on one worker, 59 s on two, 61 s on three.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
