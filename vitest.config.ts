// Test runner settings: long-running dataset builds happen in beforeAll hooks, so hooks get room. Three files at a
// time on two cores: many tests wait on child processes, servers or a browser, and vitest's default (cores - 1)
// would run one file at a time here.
import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/sequencer.js';

/** Files that replace modules (vi.mock): they get a module registry of their own. */
const ISOLATED = ['test/builder/writers/publish.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 3,
    sequence: { sequencer: SlowestFirst },
    projects: [
      // A worker keeps its imported modules from one file to the next: loading them again per file costs more
      // than many files' tests.
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
