#!/usr/bin/env node
// The `coinwallet` CLI. It runs the compiled product in dist/ (built by `npm run build`, which `npm ci` runs); a stack
// trace names the TypeScript file and line, through the source maps beside the compiled files (src/core/stack-traces.ts).
import { existsSync } from 'node:fs';
import module from 'node:module';
import { URL } from 'node:url';

const entry = new URL('../dist/server/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('coinwallet: the build is missing (dist/server/cli.js): run `npm run build`\n');
  process.exit(1);
}
// Node 22.1 and later keep compiled code between runs (a no-op on Node 20).
module.enableCompileCache?.();
const { main, mapStackTraces } = await import(entry.href);
mapStackTraces();
// Every command resolves when it is done (serve: after its shutdown): nothing left open may keep the process alive.
process.exit(await main(process.argv.slice(2)));
