/**
 * `router/engines/plannable.ts`: the document the runtime plans. Repeated response keys merged as graphql-js merges
 * them (the answers themselves are compared with graphql-js in `test/graph/differential.test.ts` and the seeded
 * random operations of `direct-execution.test.ts`).
 */
import { getOperationAST, parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { allRootSkipped, withRepeatedFieldsMerged } from '../../router/engines/plannable.ts';

const merged = (query: string, variables: Record<string, unknown> = {}) =>
  print(withRepeatedFieldsMerged(parse(query), variables)).replace(/\s+/g, ' ');

describe('withRepeatedFieldsMerged', () => {
  it('leaves a document without a repeated key untouched (the same object: the plan cache keeps working)', () => {
    const doc = parse('{ a { b } c: a { d } ... on Query { a { e } } }');
    expect(withRepeatedFieldsMerged(doc, {})).toBe(doc);
  });

  it('merges a key selected twice into one field, recursively, with their selections in order', () => {
    expect(merged('{ list { to } list { from x { a } } list { x { b } } }')).toBe(
      '{ list { to from x { a b } } }',
    );
    expect(merged('{ list { a: symbol } list { symbol } }')).toBe('{ list { a: symbol symbol } }');
  });

  it('drops the occurrences @skip/@include leave out, and puts the key where the first one left in stands', () => {
    expect(merged('{ a @include(if: false) { x } b a { y } }')).toBe('{ b a { y } }');
    expect(merged('query ($no: Boolean!) { a @include(if: $no) { x } a { y } }', { no: false })).toBe(
      'query ($no: Boolean!) { a { y } }',
    );
    expect(merged('query ($no: Boolean!) { a @include(if: $no) { x } a { y } }', { no: true })).toBe(
      'query ($no: Boolean!) { a { x y } }',
    );
    // All occurrences skipped: the first one stays, skipped (the runtime leaves it out of the answer).
    expect(merged('{ a @skip(if: true) { x } a @skip(if: true) { y } }')).toBe('{ a @skip(if: true) { x } }');
  });

  it('keeps one rewrite per document and per value of the variables its conditions read', () => {
    const doc = parse('query ($v: Boolean!, $n: Int) { a @include(if: $v) { x } a { y(n: $n) } }');
    const t1 = withRepeatedFieldsMerged(doc, { v: true, n: 1 });
    expect(withRepeatedFieldsMerged(doc, { v: true, n: 2 })).toBe(t1);
    expect(withRepeatedFieldsMerged(doc, { v: false, n: 1 })).not.toBe(t1);
  });
});

describe('allRootSkipped', () => {
  it('is true only when every root selection is left out for these variables', () => {
    const doc = parse('query ($no: Boolean!) { a @include(if: $no) b @skip(if: true) }');
    const op = getOperationAST(doc)!;
    expect(allRootSkipped(op, { no: false })).toBe(true);
    expect(allRootSkipped(op, { no: true })).toBe(false);
  });
});
