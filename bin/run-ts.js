#!/usr/bin/env node
// Runs a TypeScript entry file through tsx's loader: `node bin/run-ts.js path/to/file.ts [args]`.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

// @apollo/gateway (a development dependency: scripts/api-schema.ts, the benchmarks) reports usage to Apollo and
// probes cloud metadata endpoints unless told not to: our tooling talks to loopback only.
process.env.APOLLO_TELEMETRY_DISABLED ??= 'true';
register();
const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: run-ts <file.ts> [args]');
  process.exit(2);
}
process.argv = [process.argv[0] ?? 'node', resolve(file), ...rest];
await import(pathToFileURL(resolve(file)).href);
