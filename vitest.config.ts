import './test/node20-polyfills.js';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    setupFiles: ['test/node20-polyfills.ts', 'test/setup.ts'],
    // The playground's production build, once per run for every end-to-end file (test/e2e/browser.ts).
    globalSetup: ['test/global-setup.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
