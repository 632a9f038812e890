/**
 * The directives the query-cost estimator reads (`router/cost/directives.ts`) and its estimate
 * (`router/cost/estimate.ts`) over the API schema the router serves, with the directives of the committed supergraph:
 * exact numbers, hand-computed in the comments. The worked examples of docs/query-cost.md are asserted here with the
 * same numbers. The estimator's rules over small synthetic schemas are in `cost-estimate.test.ts`.
 */
import { readFileSync } from 'node:fs';
import { ApolloGateway } from '@apollo/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getIntrospectionQuery, parse } from 'graphql';
import { readCostDirectives } from '../../router/cost/directives.ts';
import { ARGUMENT_SIZES } from '../../router/cost/sizes.ts';
import { DEFAULT_COST_LIMITS, queryCostPlugin } from '../../router/plugins/query-cost.ts';
import type { OperationState, RequestState } from '../../router/plugin.ts';
import { ApiError } from '../../src/core/errors.ts';
import { routerErrors } from '../../router/errors.ts';
import { cost, split } from './support/cost.ts';
import type { Graph } from './support/cost.ts';

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
    api = { schema, directives, argumentSizes: ARGUMENT_SIZES };
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
    // coins 1 + edges 100 × (CoinEdge 1 + Coin 1 + chart 20 + 721 hourly points × ChartPoint 1) = 1 + 100 × 743
    expect(cost(api, op)).toBe(74_301);
    // What a stock gateway reading only @listSize would estimate (365 points a chart): 38,701.
    expect(cost({ schema: api.schema, directives: api.directives }, op)).toBe(38_701);
  });

  it('one coin with its 30-day chart costs 742', () => {
    // coin 1 + chart 20 + points 721 × 1
    expect(cost(api, '{ coin(id: "litecoin") { id chart(days: 30) { points { time price } } } }')).toBe(742);
  });

  it("the issue's query, 12 coins' 90-day hourly charts, is over every default ceiling", () => {
    const op = `{ coins(first: 12) { edges { node { id chart(days: 90, interval: HOURLY) {
      points { time price marketCap volume } } } } } }`;
    expect(cost(api, op)).toBe(26_197); // 1 + 12 × (1 + 1 + 20 + 2,161)
    expect(cost(api, op)).toBeGreaterThan(DEFAULT_COST_LIMITS.enterprise);
    expect(cost({ schema: api.schema, directives: api.directives }, op)).toBe(4_645); // @listSize alone
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

  it('the worked example with a 7-day chart per coin costs 3,883', () => {
    const op = DASHBOARD.replace('sparkline7d(currency: "eur")', 'chart(days: 7) { points { time price } }');
    expect(op).not.toBe(DASHBOARD);
    // coins: 1 + 1 + 20 × (1 + 1 + 1 + 20 + 169) = 3,842; + global 11 + trending 30
    expect(cost(api, op)).toBe(3_883);
    expect(section('A worked example')).toContain('**3,883**');
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
      // 1 + 20 + 721 hourly points (30 days and the current one)
      ['{ coin(id: "litecoin") { chart(days: 30) { points { time price } } } }', 742],
      ['{ coin(id: "litecoin") { candles(days: 30) { time close } } }', 32], // 1 + 31 candles × 1
      ['{ bridge { proofOfReserves { stale dataAsOf } } }', 11], // 1 + 10
      // 1 + 10 keys × 1 + 10 names × (1 + 19 addresses × (1 + coin 1)), across three subgraphs
      ['{ me { apiKeys { id } names { addresses { coin { id } } } } }', 401],
      ['mutation { registerName(name: "alice.cw") { name } }', 11], // 10 + 1
    ]);
    for (const [query, expected] of rows) expect(cost(api, String(query)), String(query)).toBe(expected);
    expect(cost(api, getIntrospectionQuery())).toBe(50);
  });

  it('the rejection body of docs/query-cost.md is the router error for 2,973 keyless', () => {
    const body = JSON.parse(codeBlock(section('What the response says'), 'json')) as unknown;
    const e = routerErrors.costTooHigh(2_973, 2_500, 'keyless');
    expect(body).toEqual({
      errors: [{ message: e.message, extensions: { code: e.code, ...e.extensions } }],
      extensions: e.extensions,
    });
  });

  it('the keyless ceiling: one 90-day hourly chart fits in 2,500, four 30-day charts do not', () => {
    // coin 1 + chart 20 + 90 × 24 + 1 points
    expect(cost(api, '{ coin(id: "litecoin") { chart(days: 90) { points { price } } } }')).toBe(2_182);
    // coins 1 + 3 edges × (CoinEdge 1 + Coin 1 + chart 20 + 721 points)
    expect(cost(api, '{ coins(first: 3) { edges { node { chart(days: 30) { points { price } } } } } }')).toBe(
      2_230,
    );
    expect(cost(api, '{ coins(first: 4) { edges { node { chart(days: 30) { points { price } } } } } }')).toBe(
      2_973,
    );
    // The spacing asked for counts: a year daily is 366 points, two days at 5 minutes 577.
    expect(cost(api, '{ coin(id: "x") { chart(days: 365, interval: DAILY) { points { price } } } }')).toBe(
      387,
    );
    expect(
      cost(api, 'query ($d: Int!) { coin(id: "x") { chart(days: $d) { points { price } } } }', { d: 2 }),
    ).toBe(598);
    expect(cost(api, '{ coins { edges { node { id } } } }')).toBe(101); // first's default 50
    expect(cost(api, 'query ($n: Int) { coins(first: $n) { edges { node { id } } } }', { n: 250 })).toBe(501);
    expect(DEFAULT_COST_LIMITS.keyless).toBe(2_500);
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
      plugin.onResponse?.(state, opState, out, undefined);
      return out;
    };
    // 1 + first × (edge 1 + node 1 + ath 1 + athDate… scalars 0): 1 + 3 × 833 = 2,500 fits, 834 does not.
    const page = (first: number) => `{ coins(first: ${first}) { edges { node { id ath { value } } } } }`;
    const ok = run(page(833), 'keyless');
    expect(ok.extensions['cost']).toEqual({ estimated: 2_500, max: 2_500, plan: 'keyless' });
    expect(ok.headers).toEqual({ 'x-query-cost': '2500', 'x-query-cost-limit': '2500' });

    const over = page(834);
    let refused: unknown;
    try {
      run(over, 'keyless');
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
    expect((refused as ApiError).extensions).toEqual({
      cost: { estimated: 2_503, max: 2_500, plan: 'keyless' },
    });
    expect(run(over, 'free').extensions['cost']).toEqual({ estimated: 2_503, max: 5_000, plan: 'free' });
  });
});
