import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Kind, buildASTSchema, parse, print } from 'graphql';
import type { ObjectTypeDefinitionNode } from 'graphql';
import {
  SCHEMA_DIR,
  SUBGRAPHS,
  checkComposition,
  readAcceptedHints,
  unacceptedHints,
} from '../../scripts/compose.ts';

describe('schema/supergraph.graphql', () => {
  const result = checkComposition();

  it('is exactly what the four subgraphs compose to (run `node bin/run-ts.js scripts/compose.ts`)', () => {
    expect(result.upToDate).toBe(true);
  });

  it('composes with no hint that schema/accepted-hints.json does not accept', () => {
    expect(result.unaccepted).toEqual([]);
  });

  it('gives every accepted hint a reason', () => {
    for (const h of readAcceptedHints()) expect(h.reason.trim()).not.toBe('');
  });

  it('keeps the demand-control directives', () => {
    const sdl = result.composition.supergraph;
    expect(sdl).toContain('@link(url: "https://specs.apollo.dev/cost/v0.1"');
    expect(sdl).toMatch(/directive @cost\(weight: Int!\)/);
    expect(sdl).toMatch(/directive @listSize\(/);
    const directives = (type: string, field: string): string[] => {
      const def = parse(sdl).definitions.find(
        (d) => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === type,
      ) as ObjectTypeDefinitionNode | undefined;
      const f = def?.fields?.find((x) => x.name.value === field);
      return (f?.directives ?? []).filter((d) => d.name.value !== 'join__field').map((d) => print(d));
    };
    expect(directives('Coin', 'chart')).toEqual(['@cost(weight: 20)']);
    expect(directives('Coin', 'candles')).toEqual(['@listSize(assumedSize: 365)']);
    expect(directives('Query', 'search')).toEqual(['@cost(weight: 10)']);
    expect(directives('BridgeDeployment', 'proofOfReserves')).toEqual(['@cost(weight: 10)']);
    expect(directives('Query', 'coins')).toEqual([
      '@listSize(slicingArguments: ["first"], sizedFields: ["edges"], requireOneSlicingArgument: false)',
    ]);
    expect(directives('Account', 'names')).toEqual(['@listSize(assumedSize: 10)']);
  });

  it('is a valid GraphQL schema', () => {
    expect(() => buildASTSchema(parse(result.composition.supergraph))).not.toThrow();
  });
});

describe('the subgraph SDL', () => {
  it.each(SUBGRAPHS)('%s describes every type, field and argument', (name) => {
    const doc = parse(readFileSync(join(SCHEMA_DIR, `${name}.graphql`), 'utf8'));
    const missing: string[] = [];
    for (const def of doc.definitions) {
      if (!('name' in def) || !def.name || def.kind === 'DirectiveDefinition') continue;
      const type = def.name.value;
      if (!('description' in def) || !def.description) missing.push(type);
      const fields = 'fields' in def && def.fields ? def.fields : [];
      for (const f of fields) {
        if (!f.description) missing.push(`${type}.${f.name.value}`);
        for (const a of 'arguments' in f && f.arguments ? f.arguments : []) {
          if (!a.description) missing.push(`${type}.${f.name.value}(${a.name.value})`);
        }
      }
      for (const v of 'values' in def && def.values ? def.values : []) {
        if (!v.description) missing.push(`${type}.${v.name.value}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('the composition check', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const copy = (): string => {
    dir = mkdtempSync(join(tmpdir(), 'compose-'));
    cpSync(SCHEMA_DIR, dir, { recursive: true });
    return dir;
  };

  it('reports drift when an SDL file changes but the supergraph does not', () => {
    const d = copy();
    const file = join(d, 'markets.graphql');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('"Display name (for example `Litecoin`)."', '"Name."'),
    );
    expect(checkComposition(d).upToDate).toBe(false);
  });

  it('reports a hint that is not accepted, and stops reporting it once accepted', () => {
    const d = copy();
    const file = join(d, 'bridge.graphql');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('(for example `litecoin`)."\n  id: ID!', '(bridge)."\n  id: ID!'),
    );
    const { unaccepted } = checkComposition(d);
    expect(unaccepted.map((h) => h.code)).toEqual(['INCONSISTENT_DESCRIPTION']);
    const accepted = [{ code: 'INCONSISTENT_DESCRIPTION', message: 'Element "Coin.id"', reason: 'test' }];
    expect(unacceptedHints(unaccepted, accepted)).toEqual([]);
    expect(unacceptedHints(unaccepted, [{ ...accepted[0]!, message: 'Element "Coin.name"' }])).toHaveLength(
      1,
    );
  });
});
