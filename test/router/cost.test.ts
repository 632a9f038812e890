/**
 * The static query-cost estimator (`router/cost/estimate.ts`) and the directives it reads
 * (`router/cost/directives.ts`): exact numbers, hand-computed in the comments, over small synthetic schemas (Apollo
 * Router's documented examples among them) and over the API schema the router serves, with the directives of the
 * committed supergraph. The worked examples of docs/query-cost.md are asserted here with the same numbers.
 */
import { readFileSync } from 'node:fs';
import { ApolloGateway } from '@apollo/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kind, buildSchema, getIntrospectionQuery, parse, validate } from 'graphql';
import type { FragmentDefinitionNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { readCostDirectives } from '../../router/cost/directives.ts';
import type { CostDirectives } from '../../router/cost/directives.ts';
import { estimateCost, MUTATION_BASE_COST } from '../../router/cost/estimate.ts';
import type { CostOptions } from '../../router/cost/estimate.ts';
import { DEFAULT_COST_LIMITS, queryCostPlugin } from '../../router/plugins/query-cost.ts';
import type { OperationState, RequestState } from '../../router/plugin.ts';
import { ApiError } from '../../src/core/errors.ts';
import { routerErrors } from '../../router/errors.ts';

const COST_DIRECTIVES = `
directive @cost(weight: Int!) on ARGUMENT_DEFINITION | ENUM | FIELD_DEFINITION | INPUT_FIELD_DEFINITION | OBJECT | SCALAR
directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION
`;

interface Graph {
  schema: GraphQLSchema;
  directives: CostDirectives;
}

function graph(sdl: string): Graph {
  const full = COST_DIRECTIVES + sdl;
  return { schema: buildSchema(full), directives: readCostDirectives(full) };
}

function split(query: string): { op: OperationDefinitionNode; fragments: FragmentDefinitionNode[] } {
  const doc = parse(query);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!op) throw new Error('no operation');
  const fragments = doc.definitions.filter(
    (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION,
  );
  return { op, fragments };
}

/** The estimate of a valid operation (validated first, as the router does). */
function cost(
  g: Graph,
  query: string,
  variables?: Record<string, unknown>,
  opts: Omit<CostOptions, 'directives'> = {},
): number {
  expect(validate(g.schema, parse(query)).map((e) => e.message)).toEqual([]);
  return unvalidatedCost(g, query, variables, opts);
}

function unvalidatedCost(
  g: Graph,
  query: string,
  variables?: Record<string, unknown>,
  opts: Omit<CostOptions, 'directives'> = {},
): number {
  const { op, fragments } = split(query);
  return estimateCost(g.schema, op, fragments, variables, { directives: g.directives, ...opts });
}

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

describe('readCostDirectives', () => {
  it('keeps the weight and list-size rules of fields, the weights of arguments and input fields', () => {
    const d = readCostDirectives(`
      type Query {
        a(first: Int @cost(weight: 2)): [T] @listSize(slicingArguments: ["first"], sizedFields: ["x"], assumedSize: 9)
        b: T @cost(weight: 4)
        c: Int
      }
      input In { f: String @cost(weight: 3) }
      type T { id: ID }
    `);
    expect(d.get('Query.a')).toEqual({
      weight: null,
      listSize: { assumedSize: 9, slicingArguments: ['first'], sizedFields: ['x'] },
    });
    expect(d.get('Query.a(first)')).toEqual({ weight: 2, listSize: null });
    expect(d.get('Query.b')).toEqual({ weight: 4, listSize: null });
    expect(d.get('In.f')).toEqual({ weight: 3, listSize: null });
    expect(d.has('Query.c')).toBe(false);
  });

  it("gives a type's @cost to the fields of that type without their own", () => {
    const d = readCostDirectives(`
      type Query { t: T tl: [T] own: T @cost(weight: 1) s: S e: E }
      type T @cost(weight: 6) { id: ID }
      scalar S @cost(weight: 2)
      enum E @cost(weight: 3) { X }
    `);
    expect(d.get('Query.t')?.weight).toBe(6);
    expect(d.get('Query.tl')?.weight).toBe(6);
    expect(d.get('Query.own')?.weight).toBe(1);
    expect(d.get('Query.s')?.weight).toBe(2);
    expect(d.get('Query.e')?.weight).toBe(3);
  });

  it("follows the names the cost spec's @link gives the directives", () => {
    const d = readCostDirectives(`
      extend schema @link(url: "https://specs.apollo.dev/cost/v0.1", as: "price", import: [{ name: "@listSize", as: "@size" }])
      type Query { a: [T] @price(weight: 3) @size(assumedSize: 2) b: [T] @listSize(assumedSize: 5) @cost(weight: 9) }
      type T { id: ID }
    `);
    expect(d.get('Query.a')).toEqual({
      weight: 3,
      listSize: { assumedSize: 2, slicingArguments: [], sizedFields: [] },
    });
    expect(d.has('Query.b')).toBe(false); // not the cost spec's directives in this document
  });
});

describe('estimateCost on the API schema with the supergraph directives', () => {
  const supergraphSdl = readFileSync(new URL('../../schema/supergraph.graphql', import.meta.url), 'utf8');
  const directives = readCostDirectives(supergraphSdl);
  let gateway: ApolloGateway;
  let api: Graph;

  beforeAll(async () => {
    gateway = new ApolloGateway({ supergraphSdl });
    const { schema } = await gateway.load();
    api = { schema, directives };
  });
  afterAll(async () => {
    await gateway.stop();
  });

  it('reads the directives composition kept', () => {
    expect(directives.get('Coin.chart')).toEqual({ weight: 20, listSize: null });
    expect(directives.get('Coin.candles')).toEqual({
      weight: null,
      listSize: { assumedSize: 365, slicingArguments: [], sizedFields: [] },
    });
    expect(directives.get('Query.coins')).toEqual({
      weight: null,
      listSize: { assumedSize: null, slicingArguments: ['first'], sizedFields: ['edges'] },
    });
    expect(directives.get('Chart.points')?.listSize?.assumedSize).toBe(365);
  });

  it('a page of 100 coins with a 30-day chart each costs 38,701', () => {
    const op = `{
      coins(first: 100) {
        edges { node { id price(currency: "eur") chart(days: 30) { points { time price } } } }
      }
    }`;
    // coins 1 + edges 100 × (CoinEdge 1 + Coin 1 + chart 20 + points 365 × ChartPoint 1) = 1 + 100 × 387
    expect(cost(api, op)).toBe(38_701);
  });

  it('one coin with its 30-day chart costs 386', () => {
    // coin 1 + chart 20 + points 365 × 1
    expect(cost(api, '{ coin(id: "litecoin") { id chart(days: 30) { points { time price } } } }')).toBe(386);
  });

  // docs/query-cost.md: its worked example, its table of typical costs and its rejection body, read from the page.
  const doc = readFileSync(new URL('../../docs/query-cost.md', import.meta.url), 'utf8');
  const section = (title: string): string => {
    const from = doc.indexOf(`\n## ${title}\n`);
    expect(from).toBeGreaterThan(-1);
    const to = doc.indexOf('\n## ', from + 1);
    return doc.slice(from, to === -1 ? undefined : to);
  };
  const codeBlock = (text: string, lang: string): string => {
    const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(text);
    if (!m?.[1]) throw new Error(`no ${lang} block`);
    return m[1];
  };
  const DASHBOARD = codeBlock(section('A worked example'), 'graphql');

  it('the worked example of docs/query-cost.md costs 103', () => {
    // global 1 + marketCapPercentage 10 × 1                          = 11
    // coins 1 + pageInfo 1 + edges 20 × (CoinEdge 1 + Coin 1 + changes 1) = 62
    // trending 15 × (TrendingCoin 1 + coin 1)                         = 30
    expect(cost(api, DASHBOARD)).toBe(103);
    expect(section('A worked example')).toContain('**103**');
  });

  it('the worked example with a 7-day chart per coin costs 7,803', () => {
    const op = DASHBOARD.replace('sparkline7d(currency: "eur")', 'chart(days: 7) { points { time price } }');
    expect(op).not.toBe(DASHBOARD);
    // coins: 1 + 1 + 20 × (1 + 1 + 1 + 20 + 365) = 7,762; + global 11 + trending 30
    expect(cost(api, op)).toBe(7_803);
    expect(section('A worked example')).toContain('**7,803**');
  });

  it('the typical costs of docs/query-cost.md', () => {
    const rows = [...section('Typical costs').matchAll(/^\| `(.+)` +\| ([\d,]+) +\|$/gm)].map((m) => [
      m[1],
      Number(m[2]?.replaceAll(',', '')),
    ]);
    expect(rows).toEqual([
      ['{ coin(id: "litecoin") { id symbol price } }', 1],
      ['{ coins { edges { node { id symbol price } } } }', 101], // 1 + 50 (first's default) × 2
      ['{ coins(first: 249) { edges { node { id symbol price sparkline7d } } } }', 499], // 1 + 249 × 2
      ['{ coins(first: 250) { edges { node { id symbol price sparkline7d } } } }', 501], // 1 + 250 × 2
      ['{ coins(first: 250) { edges { node { id ath { value } } } } }', 751], // 1 + 250 × 3
      ['{ search(query: "bit") { coins { id } categories { id } } }', 45], // 10 + 25 × 1 + 10 × 1
      ['{ trending { coin { id } } }', 30], // 15 × (1 + 1)
      ['{ categories { id topCoins { id } } }', 400], // 100 × (1 + 3 × 1)
      ['{ coin(id: "litecoin") { chart(days: 30) { points { time price } } } }', 386], // 1 + 20 + 365
      ['{ coin(id: "litecoin") { candles(days: 30) { time close } } }', 366], // 1 + 365 × 1
      ['{ bridge { proofOfReserves { stale dataAsOf } } }', 11], // 1 + 10
      ['mutation { registerName(name: "alice.cw") { name } }', 11], // 10 + 1
    ]);
    for (const [query, expected] of rows) expect(cost(api, String(query)), String(query)).toBe(expected);
    expect(cost(api, getIntrospectionQuery())).toBe(50);
  });

  it('the rejection body of docs/query-cost.md is the router error for 501 keyless', () => {
    const body = JSON.parse(codeBlock(section('What the response says'), 'json')) as unknown;
    const e = routerErrors.costTooHigh(501, 500, 'keyless');
    expect(body).toEqual({
      errors: [{ message: e.message, extensions: { code: e.code, ...e.extensions } }],
      extensions: e.extensions,
    });
  });

  it('the keyless ceiling: 249 coins fit in 500, 250 do not', () => {
    // coins 1 + edges n × (CoinEdge 1 + Coin 1)
    expect(cost(api, '{ coins(first: 249) { edges { node { id symbol price } } } }')).toBe(499);
    expect(cost(api, '{ coins(first: 250) { edges { node { id symbol price } } } }')).toBe(501);
    expect(cost(api, '{ coins { edges { node { id } } } }')).toBe(101); // first's default 50
    expect(cost(api, 'query ($n: Int) { coins(first: $n) { edges { node { id } } } }', { n: 250 })).toBe(501);
    expect(DEFAULT_COST_LIMITS.keyless).toBe(500);
  });

  it('a mutation costs 10 plus its selections and input objects', () => {
    const op = `mutation {
      submitDapp(input: { name: "d", site: "https://d.example", icon: "https://d.example/i.png",
        description: "x", contactEmail: "a@d.example", chains: ["LTC"] }) { id }
    }`;
    expect(cost(api, op)).toBe(12); // 10 + DappInput 1 + DappRequest 1
  });

  it('the query-cost plugin reports the estimate and refuses over the plan ceiling', () => {
    const plugin = queryCostPlugin({
      directives,
      limits: DEFAULT_COST_LIMITS,
      defaultListSize: 10,
      introspectionCost: 50,
    });
    const run = (query: string, plan: 'keyless' | 'free') => {
      const doc = parse(query);
      const { op, fragments } = split(query);
      const state = {
        caller: plan === 'keyless' ? null : { plan },
        headers: {},
      } as unknown as RequestState;
      const opState: OperationState = { cost: null };
      plugin.onOperation?.(
        { schema: api.schema, document: doc, operation: op, fragments, variables: {} },
        state,
        opState,
      );
      const out = { extensions: {} as Record<string, unknown>, headers: {} as Record<string, string> };
      plugin.onResponse?.(state, opState, out);
      return out;
    };
    const ok = run('{ coins(first: 249) { edges { node { id } } } }', 'keyless');
    expect(ok.extensions['cost']).toEqual({ estimated: 499, max: 500, plan: 'keyless' });
    expect(ok.headers).toEqual({ 'x-query-cost': '499', 'x-query-cost-limit': '500' });

    const over = '{ coins(first: 250) { edges { node { id } } } }';
    let refused: unknown;
    try {
      run(over, 'keyless');
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
    expect((refused as ApiError).extensions).toEqual({
      cost: { estimated: 501, max: 500, plan: 'keyless' },
    });
    expect(run(over, 'free').extensions['cost']).toEqual({ estimated: 501, max: 1_000, plan: 'free' });
  });
});
