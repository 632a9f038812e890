/**
 * `npm run example:apps`: the dapp's build, as its CI would run it.
 *
 * 1. **Codegen**: the client preset with `persistedDocuments` over `operations/*.graphql` (`codegen.ts`) into
 *    `generated/` (committed, as `clients/graph/generated/` is: a changed operation shows up in review as a changed id).
 * 2. **Bundle**: `src/app.ts` into `dist/app.js` with esbuild (the page's only script; ids only, no query text).
 * 3. **Publish**: `coinwallet apps publish --activate generated/persisted-documents.json` with the app's publish token
 *    (`COINWALLET_PUBLISH_TOKEN`) to the platform at `COINWALLET_URL`. Skipped, with a line saying so, when no token
 *    is set or with `--no-publish`.
 *
 *   node bin/run-ts.js examples/apps-dapp/build.ts [--no-publish] [--app apps-dapp] [--version V]
 *
 * The version defaults to `docs-<first 12 hex of the manifest's SHA-256>`: the same documents are the same version,
 * so a build that changed nothing the router runs publishes nothing new (the platform's `409 VERSION_EXISTS` is then
 * taken as "already published", and the version is activated again).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generate } from '@graphql-codegen/cli';
import { build } from 'esbuild';
import { dappCodegen, GENERATED_DIR } from './codegen.ts';
import type { DocumentMode } from './codegen.ts';

const HERE = import.meta.dirname;
const ROOT = join(HERE, '..', '..');
/** The page's bundle, beside `index.html` (`dist/` is not committed). */
export const PAGE_BUNDLE = join(HERE, 'dist', 'app.js');
export const DEFAULT_APP = 'apps-dapp';

/** Runs the client preset: `generated/` (or `outDir`) with `persisted-documents.json`. */
export async function generateClient(
  outDir: string = GENERATED_DIR,
  mode: DocumentMode = 'replaceDocumentWithHash',
): Promise<void> {
  await generate(dappCodegen(outDir, mode), true);
}

/** Bundles the page's script from `src/app.ts` and the generated documents into `outFile`. */
export async function bundlePage(outFile: string = PAGE_BUNDLE): Promise<void> {
  await build({
    entryPoints: [join(HERE, 'src', 'app.ts')],
    outfile: outFile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning',
  });
}

/** The content-derived version of a manifest: `docs-<12 hex>`. */
export const versionOf = (manifest: string): string =>
  `docs-${createHash('sha256').update(manifest).digest('hex').slice(0, 12)}`;

export interface PublishResult {
  /** `published`, `already published` (the same version was there: activated again), or `refused` (exit 1). */
  outcome: 'published' | 'already published' | 'refused';
  version: string;
  /** What the CLI printed (its JSON answer, or `<status> <code>: <message>`). */
  output: string;
}

/** `coinwallet apps …` as a child process (the CLI a CI job runs), with `env` over this process's environment. */
function coinwallet(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'coinwallet.js'), 'apps', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', fail);
    child.once('exit', (code) => ok({ code: code ?? 1, output }));
  });
}

/**
 * Publishes `file` as a version of `app` and activates it, with the publish token and URL of `env` (default this
 * process's `COINWALLET_PUBLISH_TOKEN` and `COINWALLET_URL`, which the CLI reads).
 */
export async function publishDocuments(
  o: { app?: string; version?: string; file?: string; env?: Record<string, string> } = {},
): Promise<PublishResult> {
  const app = o.app ?? DEFAULT_APP;
  const file = o.file ?? join(GENERATED_DIR, 'persisted-documents.json');
  const version = o.version ?? versionOf(readFileSync(file, 'utf8'));
  const env = o.env ?? {};
  const published = await coinwallet(
    ['publish', '--app', app, '--version', version, '--activate', file],
    env,
  );
  if (published.code === 0) return { outcome: 'published', version, output: published.output };
  if (!published.output.includes('409 VERSION_EXISTS'))
    return { outcome: 'refused', version, output: published.output };
  const activated = await coinwallet(['activate', '--app', app, '--version', version], env);
  return {
    outcome: activated.code === 0 ? 'already published' : 'refused',
    version,
    output: activated.output,
  };
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'no-publish': { type: 'boolean' },
      app: { type: 'string' },
      version: { type: 'string' },
    },
  });
  const say = (line: string) => process.stdout.write(`${line}\n`);
  await generateClient();
  say(`codegen: ${join('examples/apps-dapp/generated', 'persisted-documents.json')}`);
  await bundlePage();
  say('bundle: examples/apps-dapp/dist/app.js');
  if (values['no-publish']) return 0;
  if (!process.env.COINWALLET_PUBLISH_TOKEN) {
    say('publish: skipped (set COINWALLET_PUBLISH_TOKEN, and COINWALLET_URL, to publish the documents)');
    return 0;
  }
  const r = await publishDocuments({
    ...(values.app ? { app: values.app } : {}),
    ...(values.version ? { version: values.version } : {}),
  });
  say(`publish: ${r.outcome}, version ${r.version}`);
  if (r.outcome === 'refused') process.stderr.write(r.output.endsWith('\n') ? r.output : `${r.output}\n`);
  return r.outcome === 'refused' ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`example:apps: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
