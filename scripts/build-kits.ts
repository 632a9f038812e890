/**
 * Builds the kits (docs/kit.md) from the one source in src/kit/: the complete kit `@coinwallet/kit` and one kit per
 * coin, `@coinwallet/kit-<ticker>`, each a publishable package directory under `dist/kits/`:
 *
 *   index.js                    ESM bundle (esbuild, platform neutral: browsers, Node ≥ 18, bundlers)
 *   coinwallet-kit.browser.js   the same as a minified <script> global (`CoinWalletKit`, `CoinWalletKitLTC`, …)
 *   index.d.ts, types/          declarations (the TypeScript compiler over src/kit/tsconfig.json)
 *   provider.js                 the wallet provider script (src/rest/provider-build.ts), for dapps that self-host it
 *   persisted-documents.json    the kit's operations, for routers that safelist (docs/graph.md)
 *   README.md, package.json     from src/kit/README.template.md and the root package.json's version
 *   example/                    complete kit only: the example dapp (examples/dapp/index.html, app.js), copied as is;
 *                               it loads ../provider.js and ../coinwallet-kit.browser.js from the package itself
 *
 * A per-coin kit is the same code: its entry module is generated here (`bindTicker('<TICKER>')`), never copied.
 *
 *   node bin/run-ts.js scripts/build-kits.ts [--out DIR] [--only kit,kit-ltc,…] [--no-minify]
 *   node bin/run-ts.js scripts/build-kits.ts --tickers          rewrite src/kit/tickers.ts from the catalog
 *   node bin/run-ts.js scripts/build-kits.ts --check-tickers    exit 1 when src/kit/tickers.ts is out of date
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { DEFAULT_WALLET_HOST_ORIGINS } from '../src/core/wallet-hosts.ts';
import { buildProvider } from '../src/rest/provider-build.ts';
import { bundle } from './kits/bundle.ts';
import { coinDeclarations, emitDeclarations, reachable } from './kits/declarations.ts';
import { packageJson, renderTemplate } from './kits/package-files.ts';
import {
  BROWSER_BUNDLE,
  DEFAULT_OUT_DIR,
  EXAMPLE_FILES,
  EXAMPLE_SOURCE_DIR,
  MANIFEST,
  README_TEMPLATE,
  ROOT,
  TICKERS_FILE,
} from './kits/paths.ts';
import type { KitSpec } from './kits/specs.ts';
import { kitSpecs } from './kits/specs.ts';
import { tickersSource } from './kits/tickers.ts';

export {
  BROWSER_BUNDLE,
  DEFAULT_OUT_DIR,
  EXAMPLE_FILES,
  EXAMPLE_SOURCE_DIR,
  KIT_DIR,
  TICKERS_FILE,
} from './kits/paths.ts';
export { emitDeclarations } from './kits/declarations.ts';
export { renderTemplate } from './kits/package-files.ts';
export type { KitSpec } from './kits/specs.ts';
export { kitSpecs } from './kits/specs.ts';
export { tickersSource } from './kits/tickers.ts';

export interface BuiltFile {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface BuiltKit {
  spec: KitSpec;
  /** Absolute package directory. */
  path: string;
  files: BuiltFile[];
}

export interface BuildKitsOptions {
  /** Default dist/kits. */
  outDir?: string;
  /** Package directories to build (`kit`, `kit-ltc`, …); default all 20. */
  only?: readonly string[];
  /** Minify the browser bundles; default true. */
  minify?: boolean;
  log?: (line: string) => void;
}

/** Builds the kits into `outDir` (each package directory is replaced). */
export async function buildKits(o: BuildKitsOptions = {}): Promise<BuiltKit[]> {
  const outDir = resolve(o.outDir ?? DEFAULT_OUT_DIR);
  const log = o.log ?? (() => undefined);
  if (readFileSync(TICKERS_FILE, 'utf8') !== (await tickersSource())) {
    throw new Error(
      'src/kit/tickers.ts is out of date: run `node bin/run-ts.js scripts/build-kits.ts --tickers`',
    );
  }
  const all = kitSpecs();
  const unknown = (o.only ?? []).filter((d) => !all.some((s) => s.dir === d));
  if (unknown.length)
    throw new Error(`unknown kit(s) ${unknown.join(', ')}: ${all.map((s) => s.dir).join(' ')}`);
  const specs = o.only ? all.filter((s) => o.only?.includes(s.dir)) : all;
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
    license?: string;
  };
  const template = readFileSync(README_TEMPLATE, 'utf8');
  const manifest = readFileSync(MANIFEST, 'utf8');

  log('compiling declarations (src/kit/tsconfig.json)…');
  const decls = emitDeclarations();
  const shared = reachable(decls, ['index.d.ts', 'common.d.ts', 'types.d.ts']);
  log('building provider.js (src/rest/provider-build.ts)…');
  const provider = await buildProvider({
    hostOrigins: [...DEFAULT_WALLET_HOST_ORIGINS],
    identityOrigin: null,
  });

  const built: BuiltKit[] = [];
  for (const spec of specs) {
    const dir = join(outDir, spec.dir);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 'types'), { recursive: true });
    const write = (file: string, text: string) => {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    };
    write('index.js', await bundle(spec, 'esm', false));
    write(BROWSER_BUNDLE, await bundle(spec, 'iife', o.minify ?? true));
    for (const [file, text] of shared) write(`types/${file}`, text);
    write(
      'index.d.ts',
      spec.coin ? coinDeclarations({ ...spec, coin: spec.coin }) : `export * from './types/index.js';\n`,
    );
    write('provider.js', provider);
    write('persisted-documents.json', manifest);
    if (!spec.coin) {
      for (const f of EXAMPLE_FILES) write(`example/${f}`, readFileSync(join(EXAMPLE_SOURCE_DIR, f), 'utf8'));
    }
    const vars: Record<string, string> = {
      package: spec.name,
      version: root.version,
      globalName: spec.globalName,
      bundle: BROWSER_BUNDLE,
      ticker: spec.coin?.ticker ?? '',
      coinName: spec.coin?.name ?? '',
      coinId: spec.coin?.coinId ?? '',
      tarball: `${spec.dir}.tgz`, // served by the platform at /kits/<dir>.tgz (src/server/browser/kit-route.ts)
    };
    write('README.md', renderTemplate(template, vars, { coin: spec.coin !== null }));
    write('package.json', packageJson(spec, root.version, root.license ?? 'UNLICENSED', true));
    const files = [
      'index.js',
      BROWSER_BUNDLE,
      'index.d.ts',
      'provider.js',
      'persisted-documents.json',
      'README.md',
    ].map((file): BuiltFile => {
      const buf = readFileSync(join(dir, file));
      return { file, bytes: statSync(join(dir, file)).size, gzipBytes: gzipSync(buf).length };
    });
    built.push({ spec, path: dir, files });
    log(
      `${spec.name.padEnd(22)} ${relative(ROOT, dir)}/  ${files
        .map((f) => `${f.file} ${kb(f.bytes)} (${kb(f.gzipBytes)} gz)`)
        .slice(0, 2)
        .join(', ')}`,
    );
  }
  return built;
}

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: 'string' },
      only: { type: 'string' },
      'no-minify': { type: 'boolean' },
      tickers: { type: 'boolean' },
      'check-tickers': { type: 'boolean' },
    },
  });
  if (values.tickers || values['check-tickers']) {
    const want = await tickersSource();
    const have = existsSync(TICKERS_FILE) ? readFileSync(TICKERS_FILE, 'utf8') : '';
    if (want === have) return 0;
    if (values['check-tickers']) {
      process.stderr.write(
        'src/kit/tickers.ts is out of date: run `node bin/run-ts.js scripts/build-kits.ts --tickers`\n',
      );
      return 1;
    }
    writeFileSync(TICKERS_FILE, want);
    process.stderr.write('wrote src/kit/tickers.ts\n');
    return 0;
  }
  const built = await buildKits({
    ...(values.out ? { outDir: values.out } : {}),
    ...(values.only ? { only: values.only.split(',').map((s) => s.trim()) } : {}),
    minify: !values['no-minify'],
    log: (l) => process.stderr.write(`${l}\n`),
  });
  process.stderr.write(
    `built ${built.length} kit(s) into ${relative(ROOT, dirname(built[0]?.path ?? DEFAULT_OUT_DIR)) || '.'}\n`,
  );
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`build-kits: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
