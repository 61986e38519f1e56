// Test runner settings: long-running dataset builds happen in beforeAll hooks, so hooks get room. Three files at a
// time on two cores: many tests wait on child processes, servers or a browser, and vitest's default (cores - 1)
// would run one file at a time here.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 3,
  },
});
