import { createRequire } from 'node:module';
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
          testTimeout: 30_000,
        },
      },
      {
        resolve,
        test: {
          name: 'e2e',
          include: ['test/**/*.e2e.ts'],
          globalSetup: ['test/support/pg-global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
