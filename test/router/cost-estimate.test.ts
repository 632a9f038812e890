/**
 * The static query-cost estimator (`router/cost/estimate.ts`): exact numbers, hand-computed in the comments, over
 * small synthetic schemas, Apollo Router's documented examples among them. The API schema the router serves, with
 * the directives of the committed supergraph, is in `cost.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { getIntrospectionQuery } from 'graphql';
import { MUTATION_BASE_COST } from '../../router/cost/estimate.ts';
import { DEFAULT_COST_LIMITS } from '../../router/plugins/query-cost.ts';
import { cost, graph, unvalidatedCost } from './support/cost.ts';

describe("Apollo Router's documented examples", () => {
  // https://www.apollographql.com/docs/graphos/routing/security/demand-control ("Calculating cost").
  const books = (addressCost: string) =>
    graph(`
      type Query {
        book(id: ID): Book
        bestsellers: [Book] @listSize(assumedSize: 5)
        newestAdditions(after: ID, limit: Int!): [Book] @listSize(slicingArguments: ["limit"])
      }
      type Book { title: String author: Author publisher: Publisher }
      type Author { name: String }
      type Publisher { name: String address: Address }
      type Address ${addressCost} { zipCode: Int! }
    `);
  const selection = 'title author { name } publisher { name address { zipCode } }';

  it('BookQuery costs 4 with the default weights', () => {
    // book 1 + author 1 + publisher 1 + address 1
    expect(cost(books(''), `query BookQuery { book(id: 1) { ${selection} } }`)).toBe(4);
  });

  it('a @cost on the Address type makes it 8', () => {
    // book 1 + author 1 + publisher 1 + address 5
    expect(cost(books('@cost(weight: 5)'), `query BookQuery { book(id: 1) { ${selection} } }`)).toBe(8);
  });

  it('bestsellers (assumedSize 5) costs 40', () => {
    // 5 × (book 1 + author 1 + publisher 1 + address 5)
    expect(cost(books('@cost(weight: 5)'), `{ bestsellers { ${selection} } }`)).toBe(40);
  });

  it('newestAdditions(limit: 3) costs 24, limit 7 costs 56', () => {
    const g = books('@cost(weight: 5)');
    expect(cost(g, `{ newestAdditions(limit: 3) { ${selection} } }`)).toBe(24); // 3 × 8
    expect(cost(g, `{ newestAdditions(limit: 7) { ${selection} } }`)).toBe(56); // 7 × 8
  });
});

describe("Apollo Federation's @listSize reference examples", () => {
  // https://www.apollographql.com/docs/graphos/schema-design/federated-schemas/reference/directives ("@listSize").
  const items = graph(`
    type Query {
      items(first: Int, last: Int): [Item!]
        @listSize(slicingArguments: ["first", "last"], requireOneSlicingArgument: false)
      cursor(first: Int): Cursor! @listSize(slicingArguments: ["first"], sizedFields: ["page"])
    }
    type Cursor { page: [Item!] nextPageToken: String }
    type Item { id: ID }
  `);

  it('several slicing arguments: the largest sizes the list', () => {
    // MultipleSlicingArgumentsQuery: max(5, 10) items × 1
    expect(cost(items, '{ items(first: 5, last: 10) { id } }')).toBe(10);
  });

  it('cursor support: sizedFields sizes the page, the cursor object counts once', () => {
    // cursor 1 + 5 × item 1; nextPageToken is a scalar
    expect(cost(items, '{ cursor(first: 5) { page { id } nextPageToken } }')).toBe(6);
  });
});

describe('estimateCost on a synthetic schema', () => {
  const g = graph(`
    type Query {
      scalar: Int
      color: Color
      obj: Obj
      expensive: Obj @cost(weight: 7)
      expensiveLeaf: Int @cost(weight: 3)
      plainList: [Obj]
      sized: [Obj] @listSize(assumedSize: 4)
      scalars: [Int] @listSize(assumedSize: 100)
      costlyList: [Obj!] @cost(weight: 2) @listSize(assumedSize: 3)
      page(first: Int, last: Int): [Obj]
        @listSize(slicingArguments: ["first", "last"], assumedSize: 3, requireOneSlicingArgument: false)
      pageDefault(first: Int = 7): [Obj] @listSize(slicingArguments: ["first"], requireOneSlicingArgument: false)
      conn(first: Int = 20, after: String): Conn!
        @listSize(slicingArguments: ["first"], sizedFields: ["edges"], requireOneSlicingArgument: false)
      connNoDefault(first: Int): Conn
        @listSize(slicingArguments: ["first"], sizedFields: ["edges"], requireOneSlicingArgument: false)
      node: Node
      search: [SearchHit] @listSize(assumedSize: 2)
    }
    type Mutation {
      ping: Boolean
      touch(input: Input): Obj
    }
    input Input { name: String nested: Input tags: [String] }
    enum Color { RED GREEN }
    type Obj {
      id: ID!
      n: Int
      child: Obj
      children: [Obj] @listSize(assumedSize: 3)
    }
    type Conn { edges: [Edge] pageInfo: PageInfo totalCount: Int }
    type Edge { cursor: String node: Obj }
    type PageInfo { hasNextPage: Boolean }
    interface Node { id: ID! owner: Obj }
    type A implements Node { id: ID! owner: Obj a: Obj as: [Obj] @listSize(assumedSize: 5) }
    type B implements Node { id: ID! owner: Obj b: Obj }
    union SearchHit = A | B
  `);

  describe('weights', () => {
    it('a scalar or enum field costs 0, an object field 1', () => {
      expect(cost(g, '{ scalar color }')).toBe(0);
      expect(cost(g, '{ obj { id n } }')).toBe(1);
      expect(cost(g, '{ obj { child { id } } }')).toBe(2); // obj 1 + child 1
    });

    it('@cost replaces the default weight, of an object or of a leaf', () => {
      expect(cost(g, '{ expensive { id } }')).toBe(7); // not 1 + 7
      expect(cost(g, '{ expensive { child { id } } }')).toBe(8); // 7 + child 1
      expect(cost(g, '{ expensiveLeaf }')).toBe(3);
    });

    it('__typename is free', () => {
      expect(cost(g, '{ __typename obj { __typename } }')).toBe(1); // obj 1
    });
  });

  describe('lists', () => {
    it('multiply their items by the configured default size without @listSize', () => {
      expect(cost(g, '{ plainList { id } }')).toBe(10); // 10 × 1
      expect(cost(g, '{ plainList { id } }', {}, { defaultListSize: 4 })).toBe(4); // 4 × 1
    });

    it('multiply their items by assumedSize', () => {
      expect(cost(g, '{ sized { id } }')).toBe(4); // 4 × 1
      expect(cost(g, '{ sized { child { id } } }')).toBe(8); // 4 × (1 + 1)
    });

    it('of scalars cost 0 whatever their size', () => {
      expect(cost(g, '{ scalars }')).toBe(0); // 100 × 0
    });

    it('multiply the @cost weight of a list field by its size', () => {
      expect(cost(g, '{ costlyList { child { id } } }')).toBe(9); // 3 × (2 + 1)
    });

    it('nested lists multiply', () => {
      // sized 4 × (1 + children 3 × (1 + children 3 × 1)) = 4 × (1 + 3 × 4) = 52
      expect(cost(g, '{ sized { children { children { id } } } }')).toBe(52);
    });
  });

  describe('slicing arguments', () => {
    const q = '{ id }';
    it('a literal bounds the list; the largest of several wins', () => {
      expect(cost(g, `{ page(first: 6) ${q} }`)).toBe(6);
      expect(cost(g, `{ page(first: 2, last: 9) ${q} }`)).toBe(9);
      expect(cost(g, `{ page(first: 0) ${q} }`)).toBe(0);
    });

    it('none given → assumedSize', () => {
      expect(cost(g, `{ page ${q} }`)).toBe(3);
    });

    it('a variable bounds the list with its value', () => {
      const op = `query ($n: Int) { page(first: $n) ${q} }`;
      expect(cost(g, op, { n: 8 })).toBe(8);
      expect(cost(g, op, {})).toBe(3); // absent, no default anywhere → assumedSize
      expect(cost(g, op, { n: null })).toBe(3); // null counts as absent
    });

    it("an absent variable takes the operation's default for it", () => {
      // Execution runs with first = 12: the estimate must not fall back to assumedSize (3).
      expect(cost(g, `query ($n: Int = 12) { page(first: $n) ${q} }`, {})).toBe(12);
      expect(cost(g, `query ($n: Int = 12) { page(first: $n) ${q} }`, { n: 5 })).toBe(5);
    });

    it("the argument's default in the schema applies when it is absent, null, or an absent variable", () => {
      expect(cost(g, `{ pageDefault ${q} }`)).toBe(7);
      expect(cost(g, `{ pageDefault(first: 2) ${q} }`)).toBe(2);
      expect(cost(g, `{ pageDefault(first: null) ${q} }`)).toBe(7);
      expect(cost(g, `query ($n: Int) { pageDefault(first: $n) ${q} }`, {})).toBe(7);
      expect(cost(g, `query ($n: Int) { pageDefault(first: $n) ${q} }`, { n: null })).toBe(7);
      expect(cost(g, `query ($n: Int) { pageDefault(first: $n) ${q} }`, { n: 30 })).toBe(30);
    });
  });

  describe('sizedFields (connections)', () => {
    it('size the edges by first; the connection itself counts once', () => {
      // conn 1 + totalCount 0 + pageInfo 1 + edges 5 × (edge 1 + node 1) = 12
      expect(
        cost(g, '{ conn(first: 5) { totalCount pageInfo { hasNextPage } edges { cursor node { id } } } }'),
      ).toBe(12);
    });

    it("first's default sizes the edges when first is left out", () => {
      expect(cost(g, '{ conn { edges { node { id } } } }')).toBe(41); // 1 + 20 × 2
      expect(cost(g, 'query ($n: Int) { conn(first: $n) { edges { node { id } } } }', { n: 3 })).toBe(7); // 1 + 3 × 2
    });

    it('without a slicing value or assumedSize the edges get the default list size', () => {
      expect(cost(g, '{ connNoDefault { edges { node { id } } } }')).toBe(21); // 1 + 10 × 2
    });

    it('reach the sized field through fragments', () => {
      // 1 + 5 × (1 + 1) + 5 × (1 + 0): both spreads of edges are sized
      expect(
        cost(
          g,
          '{ conn(first: 5) { ...E ... on Conn { edges { cursor } } } } fragment E on Conn { edges { node { id } } }',
        ),
      ).toBe(16);
    });

    it('only size the direct children of the connection', () => {
      // conn 1 + edges 2 × (1 + node 1 + children 3 × 1): `children` keeps its own assumedSize
      expect(cost(g, '{ conn(first: 2) { edges { node { children { id } } } } }')).toBe(11);
    });
  });

  describe('fragments', () => {
    it('named and inline fragments on the same type add up with the fields', () => {
      // obj 1 + F (child 1) + inline (child 1) + child 1
      const op =
        '{ obj { ...F ... on Obj { c2: child { id } } c3: child { id } } } fragment F on Obj { child { id } }';
      expect(cost(g, op)).toBe(4);
    });

    it('an inline fragment without a type condition adds up too', () => {
      expect(cost(g, '{ obj { ... { child { id } } ... @include(if: true) { c: child { id } } } }')).toBe(3);
    });

    it('fragments on different concrete types of an abstract field: the most expensive type counts', () => {
      // node 1 + max(A: a 1 + as 5 × 1 = 6, B: b 1) = 7
      expect(cost(g, '{ node { id ... on A { a { id } as { id } } ... on B { b { id } } } }')).toBe(7);
      // search 2 × (1 + max(A: 1, B: b 1 + child 1 = 2)) = 6
      expect(cost(g, '{ search { ... on A { a { id } } ... on B { b { child { id } } } } }')).toBe(6);
    });

    it("a fragment on an interface applies to each of its types, with that type's own fragments", () => {
      // per hit: A = owner 1 + a 1 = 2; B = owner 1 + b 1 + b2 1 = 3 → search 2 × (1 + 3) = 8
      const op =
        '{ search { ... on Node { owner { id } } ... on A { a { id } } ... on B { b { id } b2: b { id } } } }';
      expect(cost(g, op)).toBe(8);
      // A fields asked on the interface itself apply to every type: node 1 + owner 1 + max(A 1, B 0) = 3
      expect(cost(g, '{ node { owner { id } ...on A { a { id } } } }')).toBe(3);
    });

    it('a fragment cycle (invalid, never validated) does not loop', () => {
      const op = '{ obj { ...F } } fragment F on Obj { child { ...G } } fragment G on Obj { ...F }';
      // obj 1 + F: child 1 + G: F again → cut
      expect(unvalidatedCost(g, op)).toBe(2);
    });

    it('a fragment spread many times is walked once (no exponential blow-up)', () => {
      const levels = 40;
      const defs: string[] = [];
      for (let i = 0; i < levels; i++)
        defs.push(`fragment F${i} on Obj { child { id } ...F${i + 1} ...F${i + 1} }`);
      defs.push(`fragment F${levels} on Obj { child { id } }`);
      const op = `{ obj { ...F0 } } ${defs.join(' ')}`;
      // c(F40) = 1, c(Fi) = 1 + 2 c(Fi+1) → c(F0) = 2^41 − 1; + obj 1 = 2^41
      const started = Date.now();
      expect(unvalidatedCost(g, op)).toBe(2 ** 41);
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it('a valid fragment bomb of 200 levels (under the token limit) is estimated at once, and refused', () => {
      const levels = 200;
      const defs: string[] = [];
      for (let i = 0; i < levels; i++)
        defs.push(`fragment F${i} on Obj { child { id } ...F${i + 1} ...F${i + 1} }`);
      defs.push(`fragment F${levels} on Obj { child { id } }`);
      const op = `{ obj { ...F0 } } ${defs.join(' ')}`;
      const started = Date.now();
      expect(cost(g, op)).toBeGreaterThan(DEFAULT_COST_LIMITS.enterprise); // 2^201
      expect(Date.now() - started).toBeLessThan(2_000);
    });
  });

  describe('@skip and @include', () => {
    it('a selection excluded by a literal condition costs 0', () => {
      expect(cost(g, '{ obj @skip(if: true) { id } sized @include(if: false) { id } scalar }')).toBe(0);
      expect(
        cost(
          g,
          '{ ... on Query @include(if: false) { obj { id } } ...Q @skip(if: true) } fragment Q on Query { obj { id } }',
        ),
      ).toBe(0);
      expect(cost(g, '{ obj @skip(if: false) { id } sized @include(if: true) { id } }')).toBe(5); // 1 + 4
    });

    it('a condition on a variable counts the selection (an upper bound)', () => {
      expect(cost(g, 'query ($s: Boolean!) { obj @skip(if: $s) { id } }', { s: true })).toBe(1);
    });
  });

  describe('operations', () => {
    it('a mutation adds 10', () => {
      expect(MUTATION_BASE_COST).toBe(10);
      expect(cost(g, 'mutation { ping }')).toBe(10);
      expect(cost(g, 'mutation { touch { id } }')).toBe(11); // 10 + Obj 1
    });

    it('an input object argument costs 1, nested ones too (Apollo Router); scalars and lists of them 0', () => {
      expect(cost(g, 'mutation { touch(input: { name: "x", tags: ["a", "b"] }) { id } }')).toBe(12); // 10 + 1 + 1
      expect(cost(g, 'mutation { touch(input: { nested: { nested: { name: "y" } } }) { id } }')).toBe(14); // 10 + 3 + 1
      const op = 'mutation ($i: Input) { touch(input: $i) { id } }';
      expect(cost(g, op, { i: { nested: { name: 'y' } } })).toBe(13); // 10 + 2 + 1
      expect(cost(g, op, {})).toBe(11); // no value, no cost
    });

    it("a variable's JSON nested deeper than the stack is costed without recursion", () => {
      let deep: Record<string, unknown> = {};
      for (let i = 0; i < 100_000; i++) deep = { nested: deep };
      const op = 'mutation ($i: Input) { touch(input: $i) { id } }';
      expect(cost(g, op, { i: deep })).toBe(100_012); // 10 + 100,001 input objects + Obj 1
      let arrays: unknown = 'x';
      for (let i = 0; i < 100_000; i++) arrays = [arrays];
      // `tags: [String]` takes one level of list: the rest would fail coercion and is not walked
      expect(cost(g, op, { i: { tags: arrays } })).toBe(12);
    });

    it('a query without selections on lists or objects costs 0', () => {
      expect(cost(g, 'query Q { scalar }')).toBe(0);
    });
  });

  describe('introspection', () => {
    it('__schema and __type cost a flat weight each, whatever they select', () => {
      expect(cost(g, '{ __schema { types { name fields { name type { name } } } } }')).toBe(50);
      expect(cost(g, '{ __type(name: "Obj") { name fields { name } } }')).toBe(50);
      expect(
        cost(g, '{ a: __schema { queryType { name } } b: __type(name: "Obj") { name } obj { id } }'),
      ).toBe(101);
      expect(cost(g, '{ __schema { queryType { name } } }', {}, { introspectionCost: 5 })).toBe(5);
    });

    it("graphql's full introspection query costs 50", () => {
      expect(cost(g, getIntrospectionQuery())).toBe(50);
    });
  });
});
