/**
 * Where the router reaches the access module (issue 33): only through the plugins of the API key, the budgets and
 * the query cost (`router/plugins/`), which alone hold the access layer (`Access`); `router/options.ts` declares what
 * `createRouter` takes. Every other file reaches keys and budgets through the plugins' phases (`router/phases.ts`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The names a file imports from the access layer itself (`src/access/access.ts`). */
function accessImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const names: string[] = [];
  for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'[./]*src\/access\/access\.ts'/g))
    for (const n of (m[1] ?? '').split(',')) names.push(n.replace(/^\s*type\s+/, '').trim());
  return names.filter(Boolean);
}

describe('the router reaches the access layer', () => {
  it('through three plugins only (and the options that hand it to them)', () => {
    const holders = sources(join(ROOT, 'router'))
      .filter((f) => accessImports(f).some((n) => n === 'Access' || n === 'createAccess'))
      .map((f) => relative(ROOT, f))
      .sort();
    expect(holders).toEqual([
      'router/options.ts',
      'router/plugins/api-key.ts',
      'router/plugins/budget.ts',
      'router/plugins/query-cost.ts',
    ]);
  });

  it('and no other file calls it', () => {
    const METHODS = 'identify|admit|spent|charge|correct|enter|openStream|idsPerStream|check|waited';
    const call = new RegExp(`\\baccess\\??\\.(?:${METHODS})\\b`);
    const callers = sources(join(ROOT, 'router'))
      .filter((f) => call.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f))
      .sort();
    expect(callers).toEqual(['router/plugins/api-key.ts', 'router/plugins/budget.ts']);
  });
});
