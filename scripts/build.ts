/**
 * Builds the product into `dist/` (run by `npm ci` / `npm install` through `prepare`, and by `npm run build`):
 *
 *   dist/server/          the server and the command line: one esbuild bundle of the TypeScript sources and the
 *                         packages they use (but {@link EXTERNAL}), split at every dynamic `import()` so that each
 *                         command loads only what it runs; ES modules for Node 20, source maps beside each file
 *                         (stack traces name the .ts lines). `bin/coinwallet.js` runs `dist/server/cli.js`.
 *   dist/server/meta.json what each output file holds and imports (esbuild's metafile; the CLI test reads it)
 *   dist/server/subgraphs.json  the four subgraph schemas compiled ahead of time (subgraphs/shared/schema.ts)
 *   dist/pglite/          an empty store prepared once (PGlite's initdb and our migrations), copied into a new
 *                         DATA_DIR instead of running initdb at first start
 *   dist/kits/            the 20 kit packages and their npm tarballs (scripts/build-kits.ts)
 *
 *   node bin/run-ts.js scripts/build.ts [--only server,store,kits]
 *
 * Type checking is `npm run typecheck` (tsc --noEmit), not this: the build only strips types, in well under a second.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import type { Metafile, Plugin } from 'esbuild';
import { PROJECT_ROOT } from '../src/core/project-root.ts';
import { COMPILED_SUBGRAPHS_FILE, compileSubgraphs } from '../subgraphs/shared/schema.ts';

export const SERVER_OUT = join(PROJECT_ROOT, 'dist', 'server');
/** The CLI's entry point in the build (what `bin/coinwallet.js` imports). */
export const CLI_ENTRY = join(SERVER_OUT, 'cli.js');

/**
 * Packages left to node_modules: those that find files of their own next to their modules (PGlite's wasm, the query
 * planner's native binary, esbuild's binary, @fastify/swagger's package.json), ccxt (loaded only for exchange sources,
 * and large), the drivers loaded only when configured (pg, redis) and pino (its transports run files of its own). Any
 * other package is bundled: loading them from node_modules, about 3,000 files resolved and compiled one by one, took
 * 2.2 s of a start; bundled, 0.8 s (bench/README.md, Start-up). `graphql` and every package that uses it are bundled
 * alike, so there is one graphql.
 */
export const EXTERNAL = [
  '@electric-sql/pglite',
  '@graphql-hive/router-query-planner',
  'esbuild',
  '@fastify/swagger',
  'ccxt',
  'pg',
  'redis',
  '@keyv/redis',
  'pino',
  'pino-pretty',
  // optional native speed-ups of ws, not installed
  'bufferutil',
  'utf-8-validate',
];

/** The server bundle: `src/cli/main.ts` and everything it reaches, statically or through `import()`. */
export async function buildServer(out = SERVER_OUT): Promise<void> {
  // Built aside and swapped in, so that a process starting meanwhile never sees half a build.
  const partial = `${out}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const r = await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: partial,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    // A package's ES module build where it ships one: graphql's CommonJS build, imported by hundreds of modules, cost
    // ~130 ms of start-up in export copies (esbuild's CommonJS interop), and tree-shaking works on ES modules only.
    mainFields: ['module', 'main'],
    target: 'node20.19',
    external: EXTERNAL,
    // CommonJS packages in an ES module bundle still call require (for Node's built-ins and the external packages).
    banner: {
      js: "import { createRequire as __cwRequire } from 'node:module';\nconst require = __cwRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    // The maps point at the sources in the repository; their text is not copied into the maps.
    sourcesContent: false,
    chunkNames: 'chunks/[name]-[hash]',
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [oneGraphql, omitted],
  });
  writeFileSync(join(partial, 'meta.json'), JSON.stringify(outputsRelative(r.metafile, partial)));
  writeFileSync(
    join(partial, STAMPS),
    JSON.stringify(stampsOf(Object.keys(r.metafile.inputs).filter((f) => !f.startsWith(`${OMITTED}:`)))),
  );
  writeFileSync(join(partial, basename(COMPILED_SUBGRAPHS_FILE)), JSON.stringify(compileSubgraphs()));
  rmSync(out, { recursive: true, force: true });
  renameSync(partial, out);
}

/**
 * graphql's deep imports (`graphql/validation/validate`, required by Apollo's federation packages) resolved to the ES
 * module files that `import 'graphql'` loads: without this, graphql's CommonJS files were bundled beside them, a second
 * graphql (560 KB more to load at every start, and schemas of one copy refused by the other's checks).
 */
const oneGraphql: Plugin = {
  name: 'one-graphql',
  setup(b) {
    b.onResolve({ filter: /^graphql\/.+/ }, (args) => {
      const base = join(PROJECT_ROOT, 'node_modules', args.path.replace(/\.m?js$/, ''));
      const file = [`${base}.mjs`, join(base, 'index.mjs')].find((f) => existsSync(f));
      return file ? { path: file } : undefined;
    });
  },
};

/** The namespace of the modules the build writes in place of {@link OMITTED_PACKAGES} (no file to stamp). */
const OMITTED = 'omitted';

/**
 * Packages Hive Gateway's runtime imports, and evaluates at every start, for features our router never configures. The
 * bundle gets a module of the same names instead, each of which says why if it is ever called (an import of another
 * name fails the build).
 */
const OMITTED_PACKAGES: Record<string, { names: string[]; why: string }> = {
  // 585 KB: composing a supergraph from subgraph SDLs fetched at run time.
  '@theguild/federation-composition': {
    names: ['composeServices', 'compositionHasErrors'],
    why: 'composition at run time is not part of this build: the router serves the composed supergraph',
  },
  // 475 KB with Apollo's protobuf schema: usage reports sent to Apollo GraphOS.
  '@graphql-yoga/plugin-apollo-usage-report': {
    names: ['useApolloUsageReport'],
    why: 'usage reporting to Apollo GraphOS is not part of this build: the product sends nothing to a cloud',
  },
};

const omitted: Plugin = {
  name: 'omitted-packages',
  setup(b) {
    const names = Object.keys(OMITTED_PACKAGES).map((n) => n.replace(/[/.-]/g, '\\$&'));
    b.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => ({
      path: args.path,
      namespace: OMITTED,
    }));
    b.onLoad({ filter: /.*/, namespace: OMITTED }, (args) => {
      const { names: exported, why } = OMITTED_PACKAGES[args.path] as { names: string[]; why: string };
      const lines = exported.map((n) => `export const ${n} = omitted;`);
      return {
        contents: [`const omitted = () => {\n  throw new Error(${JSON.stringify(why)});\n};`, ...lines].join(
          '\n',
        ),
        loader: 'js',
      };
    });
  },
};

/** The metafile with its output paths relative to the output folder (`cli.js`, `chunks/…`), wherever it was built. */
function outputsRelative(meta: Metafile, dir: string): Metafile {
  const rel = (p: string) => relative(dir, join(PROJECT_ROOT, p));
  const outputs = Object.entries(meta.outputs).map(([file, o]) => [
    rel(file),
    { ...o, imports: o.imports.map((i) => (i.external ? i : { ...i, path: rel(i.path) })) },
  ]);
  return { ...meta, outputs: Object.fromEntries(outputs) as Metafile['outputs'] };
}

/** Every input of the server bundle with its size and modification time, to tell whether a build is current. */
const STAMPS = 'inputs.json';
type Stamps = Record<string, [number, number]>;

function stampsOf(inputs: readonly string[]): Stamps {
  return Object.fromEntries(
    inputs.map((f) => {
      const s = statSync(join(PROJECT_ROOT, f));
      return [f, [s.size, s.mtimeMs]];
    }),
  );
}

/** Whether `dist/server` was built from the files as they are now (none changed, moved or removed since). */
export function serverBuildCurrent(out = SERVER_OUT): boolean {
  try {
    const built = JSON.parse(readFileSync(join(out, STAMPS), 'utf8')) as Stamps;
    const now = stampsOf(Object.keys(built));
    return Object.entries(built).every(([f, [size, mtime]]) => now[f]?.[0] === size && now[f]?.[1] === mtime);
  } catch {
    return false;
  }
}

const PARTS = ['server', 'store', 'kits'] as const;
type Part = (typeof PARTS)[number];

/** Builds the parts asked for (default all), printing one line each. */
export async function buildProduct(parts: readonly Part[] = PARTS): Promise<void> {
  mkdirSync(join(PROJECT_ROOT, 'dist'), { recursive: true });
  for (const part of parts) {
    const t0 = performance.now();
    if (part === 'server') await buildServer();
    if (part === 'store') {
      const { prepareStoreTemplate } = await import('../src/store/template.ts');
      await prepareStoreTemplate();
    }
    if (part === 'kits') {
      const { buildKits } = await import('./build-kits.ts');
      await buildKits();
    }
    const where = part === 'server' ? relative(PROJECT_ROOT, SERVER_OUT) : part;
    process.stdout.write(`built ${where} in ${Math.round(performance.now() - t0)} ms\n`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
  const only = values.only?.split(',') ?? [...PARTS];
  const unknown = only.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length > 0) {
    process.stderr.write(`build: unknown part ${unknown.join(', ')} (parts: ${PARTS.join(', ')})\n`);
    process.exit(2);
  }
  await buildProduct(only as Part[]);
}
