import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One graphql instance, as under Node: Vite would resolve `import 'graphql'` in our sources to graphql's .mjs build
// while Apollo's packages `require` the CommonJS one, and graphql refuses schemas built by "another realm".
const graphqlCjs = createRequire(import.meta.url).resolve('graphql');
const resolve = { alias: [{ find: /^graphql$/, replacement: graphqlCjs }] };

export default defineConfig({
  test: {
    // @apollo/gateway, the differential tests' reference, would report usage to Apollo and probe cloud metadata
    // endpoints: tests talk to loopback only.
    env: { APOLLO_TELEMETRY_DISABLED: 'true' },
    // Once for the run, before both projects: the build that tests start as processes (bin/coinwallet.js → dist/).
    globalSetup: ['test/support/build-global-setup.ts'],
    projects: [
      {
        resolve,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          // The empty store's dump that in-memory stores load instead of running initdb (support/memory-db.ts).
          globalSetup: ['test/support/store-template-global-setup.ts'],
          // Vitest's default is one worker per core but one: a single worker on a 2-core machine, the other core idle
          // but for the runner. Two workers there took ten of the slowest unit files from 287 s to 156 s (with the
          // store template above). Each file still runs alone in its own process.
          maxWorkers: Math.max(availableParallelism() - 1, 2),
          testTimeout: 30_000,
          // A store or a test market set up while the other worker computes: the default 10 s is too tight for that.
          hookTimeout: 30_000,
        },
      },
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
