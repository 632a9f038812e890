import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// One graphql instance, as under Node: Vite would resolve `import 'graphql'` in our sources to graphql's .mjs build
// while Apollo's packages `require` the CommonJS one, and graphql refuses schemas built by "another realm".
const graphqlCjs = createRequire(import.meta.url).resolve('graphql');
const resolve = { alias: [{ find: /^graphql$/, replacement: graphqlCjs }] };

/**
 * Unit files whose assertions read process-wide state of the product, which another file's market would have
 * changed in a shared worker (see `isolate` below): each runs in a process of its own.
 * - answer-cache: the process's figures cache (src/market/present/figures.ts) keeps the newest snapshot it was asked
 *   about, and the test holds it to its own market's snapshots.
 */
const ISOLATED = ['test/graph/answer-cache.test.ts'];

/** The unit files' settings, shared by the two unit projects. */
const unit = {
  include: ['test/**/*.test.ts'],
  // The empty store's dump that in-memory stores load instead of running initdb (support/memory-db.ts).
  globalSetup: ['test/support/store-template-global-setup.ts'],
  // Vitest's default is one worker per core but one: a single worker on a 2-core machine, the other core idle
  // but for the runner. Two workers there took ten of the slowest unit files from 287 s to 156 s (with the
  // store template above).
  maxWorkers: Math.max(availableParallelism() - 1, 2),
  testTimeout: 30_000,
  // A store or a test market set up while the other worker computes: the default 10 s is too tight for that.
  hookTimeout: 30_000,
};

export default defineConfig({
  test: {
    // @apollo/gateway, the differential tests' reference, would report usage to Apollo and probe cloud metadata
    // endpoints: tests talk to loopback only.
    env: { APOLLO_TELEMETRY_DISABLED: 'true' },
    // Once for the run, before every project: the build that tests start as processes (bin/coinwallet.js → dist/).
    globalSetup: ['test/support/build-global-setup.ts'],
    projects: [
      // Each unit worker runs file after file in one process (isolate: false): the product, Fastify, graphql, Apollo
      // and PGlite stay imported and warm instead of being imported again for every file. A file still gets its own
      // hooks, its mocks restored after it and its own stores and markets; it must not leave process-wide state
      // behind (env, timers, a module's singleton it changed), nor assert on what another file could have changed
      // (then it goes into ISOLATED). The whole unit run on this 2-core machine, one run each under other engineers'
      // load: 983 s wall and 1,365 s of CPU with a process per file, 686 s and 764 s shared (imports 343 -> 53 s).
      {
        resolve,
        test: { ...unit, name: 'unit', isolate: false, exclude: [...configDefaults.exclude, ...ISOLATED] },
      },
      { resolve, test: { ...unit, name: 'unit-isolated', include: ISOLATED } },
      {
        resolve,
        test: {
          name: 'e2e',
          include: ['test/**/*.e2e.ts'],
          globalSetup: ['test/support/pg-global-setup.ts', 'test/support/store-template-global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
