/**
 * The compiled product (`scripts/build.ts`, built before the tests by test/support/build-global-setup.ts): the CLI's
 * entry loads the command line and nothing of the product, each command's code is loaded when it runs, source maps
 * lead a stack trace back to the TypeScript, and nothing at run time needs tsx.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtinModules } from 'node:module';
import { CLI_ENTRY, EXTERNAL, SERVER_OUT } from '../../scripts/build.ts';
import { PROJECT_ROOT } from '../../src/core/project-root.ts';

const BUILTINS = new Set(builtinModules);

interface Meta {
  inputs: Record<string, unknown>;
  outputs: Record<
    string,
    {
      bytes: number;
      inputs: Record<string, unknown>;
      imports: { path: string; kind: string; external?: boolean }[];
    }
  >;
}
const meta = JSON.parse(readFileSync(join(SERVER_OUT, 'meta.json'), 'utf8')) as Meta;

/**
 * The output files a file loads before it runs (static imports, transitively): the packages it imports from
 * node_modules, the sources bundled into them, their size.
 */
function staticClosure(start: string): {
  files: string[];
  packages: string[];
  sources: string[];
  bytes: number;
} {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (f: string) => {
    if (files.has(f)) return;
    files.add(f);
    for (const i of meta.outputs[f]?.imports ?? []) {
      if (i.kind !== 'import-statement') continue;
      if (i.external) packages.add(i.path);
      else visit(i.path);
    }
  };
  visit(start);
  return {
    files: [...files],
    packages: [...packages],
    sources: [...files].flatMap((f) => Object.keys(meta.outputs[f]?.inputs ?? {})),
    bytes: [...files].reduce((n, f) => n + (meta.outputs[f]?.bytes ?? 0), 0),
  };
}

/** The output file that holds `source` (a path relative to the project). */
const holding = (source: string): string =>
  Object.keys(meta.outputs).find((f) => source in (meta.outputs[f]?.inputs ?? {})) ?? 'none';

describe('the CLI entry', () => {
  it('loads the command line only: Node built-ins, no package, a few tens of KB', () => {
    const c = staticClosure('cli.js');
    expect(c.packages.every((p) => p.startsWith('node:'))).toBe(true);
    expect(c.sources.filter((s) => s.startsWith('node_modules/'))).toEqual([]);
    expect(c.bytes).toBeLessThan(64 * 1024);
    expect(c.sources).toContain('src/cli/specs.ts');
    for (const heavy of ['src/config.ts', 'src/start/product.ts', 'src/store/open.ts', 'router/index.ts'])
      expect(c.sources).not.toContain(heavy);
  });

  it.each([
    [
      'serve',
      'src/start/product.ts',
      ['node_modules/fastify/', 'node_modules/@graphql-hive/gateway-runtime/'],
    ],
    ['keys', 'src/store/open.ts', ['src/store/pglite.ts']],
  ])('%s loads the product only when it runs (%s behind an import())', (command, module, parts) => {
    const own = holding(`src/cli/${command}.ts`);
    expect(staticClosure('cli.js').files).not.toContain(own);
    // What the command's chunk loads as it starts leaves the heavy part to a further import().
    expect(staticClosure(own).files).not.toContain(holding(module));
    const loaded = staticClosure(holding(module)).sources;
    for (const p of parts) expect(loaded.some((s) => s.startsWith(p))).toBe(true);
  });

  it('bundles the packages but those that must stay in node_modules, so there is one graphql', () => {
    const externals = new Set(
      Object.values(meta.outputs).flatMap((o) =>
        o.imports.filter((i) => i.external && !i.path.startsWith('node:')).map((i) => i.path),
      ),
    );
    const named = (p: string) => EXTERNAL.some((e) => p === e || p.startsWith(`${e}/`));
    expect([...externals].filter((p) => !named(p) && !BUILTINS.has(p))).toEqual([]);
    expect(Object.keys(meta.inputs).some((s) => s.startsWith('node_modules/graphql/'))).toBe(true);
    // Its ES module files only: Apollo's deep imports (`graphql/validation`) resolve to them too, not to a CommonJS copy.
    expect(Object.keys(meta.inputs).filter((s) => /^node_modules\/graphql\/.*\.js$/.test(s))).toEqual([]);
  });

  it('serves without loading the MCP SDK until an agent calls /mcp', () => {
    const product = staticClosure(holding('src/start/product.ts')).sources;
    expect(product).toContain('router/mcp/http.ts');
    expect(product.filter((s) => s.startsWith('node_modules/@modelcontextprotocol/'))).toEqual([]);
    expect(product.filter((s) => s.startsWith('node_modules/zod/'))).toEqual([]);
  });

  it('leaves out what the gateway runtime imports for features never configured: run-time composition, GraphOS reports', () => {
    const inputs = Object.keys(meta.inputs);
    for (const pkg of ['@theguild/federation-composition', '@graphql-yoga/plugin-apollo-usage-report']) {
      expect(inputs.filter((s) => s.startsWith(`node_modules/${pkg}/`))).toEqual([]);
      // The runtime still imports it, by name: what it gets says why it is not there, if it is ever called.
      expect(inputs).toContain(`omitted:${pkg}`);
    }
  });
});

it('source maps lead from the compiled entry back to src/cli/main.ts', () => {
  const script = `
    import { findSourceMap } from 'node:module';
    import { readFileSync } from 'node:fs';
    process.setSourceMapsEnabled(true);
    const file = ${JSON.stringify(CLI_ENTRY)};
    await import(file);
    const lines = readFileSync(file, 'utf8').split('\\n');
    const line = lines.findIndex((l) => l.includes('unknown command'));
    const entry = findSourceMap(file).findEntry(line, lines[line].indexOf('unknown command'));
    console.log(JSON.stringify(entry));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: PROJECT_ROOT });
  const entry = JSON.parse(out.toString()) as { originalSource: string; originalLine: number };
  expect(entry.originalSource).toMatch(/src\/cli\/main\.ts$/);
  const mainTs = readFileSync(join(PROJECT_ROOT, 'src', 'cli', 'main.ts'), 'utf8').split('\n');
  expect(mainTs[entry.originalLine]).toContain('unknown command');
});

it('stack traces of the compiled product name the TypeScript line, maps read only when a stack is printed', () => {
  // An argument list that throws as main destructures it: the stack passes through main in dist/server/cli.js.
  const script = `
    const { main, mapStackTraces } = await import(${JSON.stringify(pathToFileURL(CLI_ENTRY).href)});
    mapStackTraces();
    const argv = { [Symbol.iterator]() { throw new Error('probe'); } };
    try { await main(argv); } catch (err) { console.log(JSON.stringify(err.stack)); }`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: PROJECT_ROOT });
  const stack = JSON.parse(out.toString()) as string;
  const mainTs = readFileSync(join(PROJECT_ROOT, 'src', 'cli', 'main.ts'), 'utf8').split('\n');
  const line = mainTs.findIndex((l) => l.includes('const [cmd, ...rest] = argv')) + 1;
  expect(stack).toMatch(/^Error: probe\n/);
  expect(stack).toContain(
    `at main (${pathToFileURL(join(PROJECT_ROOT, 'src', 'cli', 'main.ts')).href}:${line}:`,
  );
  expect(stack).not.toContain('dist/server/cli.js');
});

it('runs without tsx: a development dependency, not imported by the CLI or the build it runs', () => {
  const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  expect(pkg.dependencies).not.toHaveProperty('tsx');
  expect(pkg.devDependencies).toHaveProperty('tsx');
  expect(readFileSync(join(PROJECT_ROOT, 'bin', 'coinwallet.js'), 'utf8')).not.toContain('tsx');
  const externals = Object.values(meta.outputs).flatMap((o) => o.imports.filter((i) => i.external));
  expect(externals.map((i) => i.path)).not.toContain('tsx');
});
