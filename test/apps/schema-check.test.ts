/**
 * The schema check's domain function on small schemas: graphql-js's breaking and dangerous changes, and for each
 * breaking change the published documents that stop validating, laid on the change they touch.
 */
import { buildSchema, findBreakingChanges } from 'graphql';
import { describe, expect, it } from 'vitest';
import { documentHash } from '../../src/accounts/app-manifest.ts';
import { checkSchema } from '../../router/trusted/schema-check-report.ts';
import type { PublishedDocument } from '../../src/accounts/schema-check.ts';
import { changeCoordinates } from '../../router/trusted/schema-check-coordinates.ts';

const CURRENT = /* GraphQL */ `
  enum Currency {
    USD
    EUR
  }
  input CoinFilter {
    ids: [String!]
    minPrice: Float
  }
  type Coin {
    id: ID!
    symbol: String!
    price(currency: Currency = USD): Float
    rank: Int
  }
  type Query {
    coin(id: String!): Coin
    coins(first: Int, filter: CoinFilter): [Coin!]!
  }
`;
const current = buildSchema(CURRENT);
const proposed = (edit: (sdl: string) => string) => buildSchema(edit(CURRENT));

function doc(body: string, app = 'my-dapp', version = '1.0.0'): PublishedDocument {
  return { appId: `id-${app}`, app, version, hash: documentHash(body), name: null, body };
}

const PRICE = doc('query Price($id: String!) { coin(id: $id) { symbol price(currency: EUR) } }');
const RANK = doc('query Rank { coins(first: 5) { id rank } }');
const FILTERED = doc('query Filtered { coins(filter: { ids: ["ltc"] }) { id } }');

describe('checkSchema', () => {
  it('a removed field breaks the documents that select it, and only those', async () => {
    const r = await checkSchema(
      current,
      proposed((s) => s.replace('rank: Int', '')),
      [PRICE, RANK],
    );
    expect(r.breaking).toMatchObject([
      {
        type: 'FIELD_REMOVED',
        description: 'Coin.rank was removed.',
        coordinates: ['Coin.rank'],
        documents: [
          {
            app: 'my-dapp',
            versions: ['1.0.0'],
            documentId: `sha256:${RANK.hash}`,
            operationName: 'Rank',
            reasons: ['Cannot query field "rank" on type "Coin".'],
            inUse: false,
          },
        ],
      },
    ]);
    expect(r.other).toEqual([]);
    expect(r.documents).toBe(2);
  });

  it('a changed argument type breaks the document whose variable no longer fits', async () => {
    const r = await checkSchema(
      current,
      proposed((s) => s.replace('coin(id: String!)', 'coin(id: ID!)')),
      [PRICE, RANK],
    );
    expect(r.breaking).toHaveLength(1);
    expect(r.breaking[0]).toMatchObject({
      type: 'ARG_CHANGED_KIND',
      coordinates: ['Query.coin(id:)'],
      documents: [
        { operationName: 'Price', reasons: [expect.stringContaining('Variable "$id" of type "String!"')] },
      ],
    });
  });

  it('a removed enum value breaks the document that passes it as a literal', async () => {
    const r = await checkSchema(
      current,
      proposed((s) => s.replace(/EUR\n/, '\n')),
      [PRICE, RANK],
    );
    expect(r.breaking).toMatchObject([
      {
        type: 'VALUE_REMOVED_FROM_ENUM',
        coordinates: ['Currency.EUR'],
        documents: [{ operationName: 'Price' }],
      },
    ]);
  });

  it('a removed input field breaks the document that sets it', async () => {
    const r = await checkSchema(
      current,
      proposed((s) => s.replace('ids: [String!]', '')),
      [FILTERED, RANK],
    );
    expect(r.breaking).toMatchObject([
      { type: 'FIELD_REMOVED', coordinates: ['CoinFilter.ids'], documents: [{ operationName: 'Filtered' }] },
    ]);
  });

  it('a dangerous change only (an enum value and an optional argument added) breaks nothing', async () => {
    const r = await checkSchema(
      current,
      proposed((s) =>
        s.replace('EUR', 'EUR\n GBP').replace('coins(first: Int,', 'coins(first: Int, last: Int,'),
      ),
      [PRICE, RANK, FILTERED],
    );
    expect(r.breaking).toEqual([]);
    expect(r.dangerous.map((d) => d.type).sort()).toEqual(['OPTIONAL_ARG_ADDED', 'VALUE_ADDED_TO_ENUM']);
    expect(r.breaksDocumentsInUse).toBe(false);
    expect(r.other).toEqual([]);
  });

  it('an output field whose type changes breaks the documents that select it, though they still validate', async () => {
    const r = await checkSchema(
      current,
      proposed((s) => s.replace('rank: Int', 'rank: String')),
      [PRICE, RANK],
    );
    expect(r.breaking).toMatchObject([
      {
        type: 'FIELD_CHANGED_KIND',
        documents: [{ operationName: 'Rank', reasons: [expect.stringContaining('selects Coin.rank')] }],
      },
    ]);
  });

  it('traffic decides: a broken document in use fails the check, one with none does not', async () => {
    const removed = proposed((s) => s.replace('rank: Int', ''));
    const quiet = await checkSchema(current, removed, [PRICE, RANK], () => ({ inUse: false, requests: 0 }));
    expect(quiet.breaksDocumentsInUse).toBe(false);
    const busy = await checkSchema(current, removed, [PRICE, RANK], ({ hash }) =>
      hash === RANK.hash ? { inUse: true, requests: 12 } : { inUse: false, requests: 0 },
    );
    expect(busy.breaksDocumentsInUse).toBe(true);
    expect(busy.breaking[0]?.documents).toMatchObject([{ operationName: 'Rank', inUse: true, requests: 12 }]);
    // Traffic on a document the change does not break does not fail the check.
    const other = await checkSchema(current, removed, [PRICE, RANK], ({ hash }) => ({
      inUse: hash === PRICE.hash,
      requests: null,
    }));
    expect(other.breaksDocumentsInUse).toBe(false);
  });

  it('one document in several versions and apps: one entry per app listing its versions', async () => {
    const again = { ...RANK, version: '1.1.0' };
    const elsewhere = { ...RANK, appId: 'id-other', app: 'other' };
    const r = await checkSchema(
      current,
      proposed((s) => s.replace('rank: Int', '')),
      [RANK, again, elsewhere],
    );
    expect(r.documents).toBe(2);
    expect(r.breaking[0]?.documents).toMatchObject([
      { app: 'my-dapp', versions: ['1.0.0', '1.1.0'] },
      { app: 'other', versions: ['1.0.0'] },
    ]);
  });

  it('a document broken on no listed change is under "other"; one invalid today under "alreadyInvalid"', async () => {
    // A.v: Int to Int! is safe for graphql-js (an output field made non-null), yet a document that selects v on both
    // members of the union no longer validates: the two fields now return conflicting types.
    const union = (av: string) =>
      buildSchema(`type A { v: ${av} } type B { v: Int } union U = A | B type Query { u: U }`);
    const both = doc('query Both { u { ... on A { v } ... on B { v } } }');
    const stale = doc('query Stale { u { ... on A { gone } } }');
    const r = await checkSchema(union('Int'), union('Int!'), [both, stale], () => ({
      inUse: true,
      requests: 3,
    }));
    expect(r.breaking).toEqual([]);
    expect(r.other).toMatchObject([
      { operationName: 'Both', inUse: true, reasons: [expect.stringContaining('conflicting types')] },
    ]);
    expect(r.alreadyInvalid).toMatchObject([{ operationName: 'Stale' }]);
    // A broken document in use under "other" fails the check too; one already invalid does not count.
    expect(r.breaksDocumentsInUse).toBe(true);
  });

  it('a removed directive breaks the document that uses it', async () => {
    const withDirective = buildSchema(`${CURRENT}\n directive @sample(rate: Float) on FIELD`);
    const sampled = doc('query Sampled { coins { id @sample(rate: 0.5) } }');
    const r = await checkSchema(withDirective, current, [sampled, RANK]);
    expect(r.breaking).toMatchObject([
      { type: 'DIRECTIVE_REMOVED', coordinates: ['@sample'], documents: [{ operationName: 'Sampled' }] },
    ]);
  });
});

describe('a check of many documents', () => {
  it('lets the event loop turn while it runs (the server answers other requests meanwhile)', async () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      doc(`query Q${i} { coins(first: ${i}) { id rank symbol price(currency: EUR) } }`),
    );
    let finished = false;
    let turnedMeanwhile = false;
    setImmediate(() => (turnedMeanwhile = !finished));
    const r = await checkSchema(
      current,
      proposed((s) => s.replace('rank: Int', '')),
      many,
    );
    finished = true;
    expect(r.breaking[0]?.documents).toHaveLength(2000);
    expect(turnedMeanwhile).toBe(true);
  });
});

describe('changeCoordinates reads every breaking change graphql-js 16 describes', () => {
  const before = buildSchema(`
    directive @d(a: Int, b: Int) repeatable on FIELD | QUERY
    directive @gone on FIELD
    interface Node { id: ID! }
    type A implements Node { id: ID! f(x: Int, y: Int): Int k: Int }
    type B { id: ID! }
    union U = A | B
    enum E { ONE TWO }
    input I { p: Int }
    type Gone { id: ID! }
    type Kind { id: ID! }
    type Query { a: A u: U e: E i(v: I): Int g: Gone k: Kind n: Node }
  `);
  const after = buildSchema(`
    directive @d(a: Int, c: Int!) on FIELD
    interface Node { id: ID! }
    type A { id: ID! f(x: String, z: Int!): Int k: String }
    type B { id: ID! }
    union U = B
    enum E { ONE }
    input I { p: Int q: Int! }
    input Kind { id: ID }
    type Query { a: A u: U e: E i(v: I): Int k: Int n: Node }
  `);
  it('each change names its coordinates', () => {
    const named = Object.fromEntries(
      findBreakingChanges(before, after).map((c) => [c.description, changeCoordinates(c)]),
    );
    expect(named).toEqual({
      'Gone was removed.': ['Gone'],
      'Kind changed from an Object type to an Input type.': ['Kind'],
      'A was removed from union type U.': ['A'],
      'TWO was removed from enum type E.': ['E.TWO'],
      'A required field q on input type I was added.': ['I'],
      'A no longer implements interface Node.': ['A', 'Node'],
      'A.k changed type from Int to String.': ['A.k'],
      'A.f arg y was removed.': ['A.f(y:)'],
      'A.f arg x has changed type from Int to String.': ['A.f(x:)'],
      'A required arg z on A.f was added.': ['A.f'],
      'Query.g was removed.': ['Query.g'],
      'Query.k changed type from Kind to Int.': ['Query.k'],
      'gone was removed.': ['@gone'],
      'b was removed from d.': ['@d(b:)'],
      'A required arg c on directive d was added.': ['@d'],
      'Repeatable flag was removed from d.': ['@d'],
      'QUERY was removed from d.': ['@d'],
    });
  });
});
