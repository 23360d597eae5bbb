import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every test file gets its own temporary HOME and data directory (test/helpers/setup.ts).
    setupFiles: ['test/helpers/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The JSON report feeds the plain closing line printed by scripts/test-summary.mjs.
    reporters: ['default', 'json'],
    outputFile: { json: '.test-results.json' },
  },
});
