/**
 * Shape measures for the limits plugin (`router/plugins/limits.ts`): depth, aliases and directives of a parsed
 * operation, and the token count of a raw document.
 */
import { describe, expect, it } from 'vitest';
import { Kind, getIntrospectionQuery, parse } from 'graphql';
import type { FragmentDefinitionNode, OperationDefinitionNode } from 'graphql';
import { countTokens, measureOperation } from '../../router/plugins/limits.ts';
import type { OperationShape } from '../../router/plugins/limits.ts';

function measure(query: string): OperationShape {
  const doc = parse(query);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!op) throw new Error('no operation');
  const fragments = doc.definitions.filter(
    (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION,
  );
  return measureOperation(op, fragments);
}

describe('measureOperation: depth', () => {
  it('counts nested fields', () => {
    expect(measure('{ a }').depth).toBe(1);
    expect(measure('{ a { b { c } } d }').depth).toBe(3);
    expect(measure('{ a { b } c { d { e { f } } } }').depth).toBe(4);
  });

  it('counts the fields of fragments where they are spread, not the fragments themselves', () => {
    // a → (F) b → (inline) c → (G) d
    const op = '{ a { ...F } } fragment F on A { b { ... on B { c { ...G } } } } fragment G on C { d }';
    expect(measure(op).depth).toBe(4);
    // the same fragment spread at two depths: the deeper use counts
    expect(measure('{ x { ...F } y { z { ...F } } } fragment F on T { f { g } }').depth).toBe(4);
  });

  it('counts an introspection subtree as 1 level', () => {
    expect(measure('{ __schema { types { fields { type { ofType { name } } } } } }').depth).toBe(1);
    expect(measure('{ __type(name: "Coin") { fields { type { name } } } }').depth).toBe(1);
    expect(measure('{ __schema { queryType { name } } coin { id } }').depth).toBe(2);
    expect(measure('{ ...I } fragment I on Query { __schema { types { name } } }').depth).toBe(1);
  });

  it("measures graphql's full introspection query as depth 1, no aliases, no directives", () => {
    expect(measure(getIntrospectionQuery())).toEqual({ depth: 1, aliases: 0, directives: 0 });
  });

  it('counts __typename as a field', () => {
    expect(measure('{ a { __typename } }').depth).toBe(2);
  });

  it('does not loop on a fragment cycle (invalid, never validated)', () => {
    expect(
      measure('{ a { ...F } } fragment F on A { b { ...G } } fragment G on B { c { ...F } }').depth,
    ).toBe(3);
  });

  it('walks a fragment spread many times once', () => {
    const levels = 40;
    const defs: string[] = [];
    for (let i = 0; i < levels; i++) defs.push(`fragment F${i} on T { x: a ...F${i + 1} ...F${i + 1} }`);
    defs.push(`fragment F${levels} on T { b }`);
    const started = Date.now();
    const shape = measure(`{ t { ...F0 } } ${defs.join(' ')}`);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(shape.depth).toBe(2);
    // F40 has no alias; Fi has 1 + 2 × aliases(Fi+1) → aliases(F0) = 2^40 − 1
    expect(shape.aliases).toBe(2 ** 40 - 1);
  });

  it('measures a 200-level fragment bomb at once', () => {
    const levels = 200;
    const defs: string[] = [];
    for (let i = 0; i < levels; i++) defs.push(`fragment F${i} on T { x: a ...F${i + 1} ...F${i + 1} }`);
    defs.push(`fragment F${levels} on T { b }`);
    const started = Date.now();
    const shape = measure(`{ t { ...F0 } } ${defs.join(' ')}`);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(shape.aliases).toBeGreaterThan(30);
  });
});

describe('measureOperation: aliases', () => {
  it('counts aliased fields', () => {
    expect(measure('{ a b: c d: e { f: g h } }').aliases).toBe(3);
    expect(measure('{ a { b } }').aliases).toBe(0);
  });

  it('counts the aliases of a fragment each time it is spread', () => {
    expect(measure('{ a { ...F } b { ...F } } fragment F on T { x: y z: w }').aliases).toBe(4);
  });

  it('counts aliases inside introspection subtrees', () => {
    expect(measure('{ __schema { a: types { name } b: types { name } c: types { name } } }').aliases).toBe(3);
  });
});

describe('measureOperation: directives', () => {
  it('counts directives on the operation, fields, inline fragments and spreads', () => {
    const op =
      'query Q @a { x @skip(if: false) @b { y @c } ... on T @include(if: true) { z } ...F @d } fragment F on Query { w }';
    expect(measure(op).directives).toBe(6);
  });

  it("counts a fragment definition's directives once, its selections' directives at each spread", () => {
    // definition @d once; `y @e` at both spreads
    expect(measure('{ a { ...F } b { ...F } } fragment F on T @d { y @e }').directives).toBe(3);
  });

  it('counts directives inside introspection subtrees', () => {
    expect(measure('{ __schema { types @a { name @b } } }').directives).toBe(2);
  });
});

describe('countTokens', () => {
  it('counts the lexical tokens of a document, comments excluded', () => {
    expect(countTokens('{ a b c }', 100)).toBe(5);
    expect(countTokens('query Q($n: Int = 5) { a(n: $n) }', 100)).toBe(19);
    expect(countTokens('# a comment\n{ a }', 100)).toBe(3);
    expect(countTokens('', 100)).toBe(0);
  });

  it('stops once past the maximum (max + 1)', () => {
    expect(countTokens('{ a b c }', 3)).toBe(4);
    expect(countTokens('{ a b c }', 5)).toBe(5);
    expect(countTokens(`{ ${'a '.repeat(1_000_000)}}`, 4_000)).toBe(4_001);
  });

  it('does not throw on a lexing error: counts the tokens before it', () => {
    expect(countTokens('{ a "unterminated', 100)).toBe(2);
    expect(countTokens('{ a ~ b }', 100)).toBe(2);
    expect(() => countTokens('"""', 10)).not.toThrow();
  });
});
