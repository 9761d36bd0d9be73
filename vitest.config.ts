import './test/node20-polyfills.js';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
