import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every test file gets its own temporary HOME and data directory (test/helpers/setup.ts).
    setupFiles: ['test/helpers/setup.ts'],
    // One id per run, and the host matrix (docs/hosts.md) written from the real-host results.
    globalSetup: ['test/e2e/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The JSON report feeds the plain closing line printed by scripts/test-summary.mjs.
    reporters: ['default', 'json'],
    outputFile: { json: '.test-results.json' },
  },
});
