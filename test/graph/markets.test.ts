/**
 * The markets subgraph executed in process (graphql's `graphql()` against the built federated schema) over one test
 * market with 10 days of demo history. A counting store wraps the market so that batching is asserted by recording
 * the batches the loaders make.
 */
import { createRequire } from 'node:module';
import type * as GraphQL from 'graphql';
import type { ExecutionResult } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MarketSnapshot } from '../../src/engine/snapshot.ts';
import type { Resolution } from '../../src/engine/types.ts';
import { engineConfig } from '../../src/start/wiring.ts';
import type { MarketsStore } from '../../subgraphs/markets/context.ts';
import { createMarketsSubgraph } from '../../subgraphs/markets/index.ts';
import { ChartCache } from '../../src/market/charts.ts';
import type { MarketsSubgraph } from '../../subgraphs/markets/index.ts';
import { storeOf } from '../../subgraphs/markets/loaders.ts';
import { createTestMarket, TEST_NOW } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';

// The CommonJS build of graphql: the one @apollo/subgraph builds the schema with. (Vite resolves a plain import to
// graphql's .mjs build, a second instance whose `graphql()` refuses the schema; Node itself loads the CJS one.)
const { graphql } = createRequire(import.meta.url)('graphql') as typeof GraphQL;

let tm: TestMarket;
let sg: MarketsSubgraph;
let snap: MarketSnapshot;
/** Every snapshot read (one per loader batch) and every history read. */
const snapshotReads: number[] = [];
/** Every history read: the coins of one multi-coin SQL read and its window. */
const barReads: { ids: readonly string[]; res: Resolution; from: number; to: number }[] = [];
/** Every batch the loaders dispatched. */
const batches: { loader: string; keys: readonly unknown[] }[] = [];

beforeAll(async () => {
  tm = await createTestMarket({ days: 10 });
  snap = tm.market.snapshot as MarketSnapshot;
  const inner = storeOf(tm.market);
  const store: MarketsStore = {
    snapshot: () => {
      snapshotReads.push(1);
      return inner.snapshot();
    },
    readBarsMany: (ids, res, from, to) => {
      barReads.push({ ids, res, from, to });
      return inner.readBarsMany(ids, res, from, to);
    },
    openDailyBar: (id, now) => inner.openDailyBar(id, now),
  };
  countingStore = store;
}, 120_000);

let countingStore: MarketsStore;
/**
 * The subgraph over the counting store; each test gets charts of its own (`charts`: otherwise the market's, shared
 * with the price API), so that its history reads are its own.
 */
const subgraph = (charts: ChartCache = new ChartCache()): MarketsSubgraph =>
  createMarketsSubgraph({
    market: tm.market,
    engine: engineConfig({ staleAfterMs: 900_000 }),
    store: countingStore,
    now: () => TEST_NOW,
    charts,
    hooks: { onBatch: (loader, keys) => batches.push({ loader, keys }) },
  });
beforeEach(() => {
  sg = subgraph();
});
afterAll(async () => {
  await tm?.close();
});

async function run(
  source: string,
  variableValues?: Record<string, unknown>,
  ctx = sg.contextFor(),
): Promise<ExecutionResult> {
  return graphql({ schema: sg.schema, source, variableValues, contextValue: ctx });
}

async function ok<T = Record<string, unknown>>(source: string, vars?: Record<string, unknown>): Promise<T> {
  const r = await run(source, vars);
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data as T;
}

const codes = (r: ExecutionResult): unknown[] => (r.errors ?? []).map((e) => e.extensions['code']);

type Page = {
  coins: {
    edges: { cursor: string; node: { id: string } }[];
    pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
    totalCount: number;
  };
};

const PAGE = `query ($first: Int, $after: String) {
  coins(first: $first, after: $after) {
    edges { cursor node { id } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    totalCount
  }
}`;

describe('coins connection', () => {
  it('pages by first/after with opaque cursors, in rank order', async () => {
    const p1 = await ok<Page>(PAGE, { first: 5 });
    expect(p1.coins.edges.map((e) => e.node.id)).toEqual(snap.ranked.slice(0, 5).map((m) => m.id));
    expect(p1.coins.totalCount).toBe(snap.ranked.length);
    expect(p1.coins.pageInfo).toMatchObject({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: p1.coins.edges[0]?.cursor,
      endCursor: p1.coins.edges[4]?.cursor,
    });
    expect(new Set(p1.coins.edges.map((e) => e.cursor)).size).toBe(5);

    const p2 = await ok<Page>(PAGE, { first: 5, after: p1.coins.pageInfo.endCursor });
    expect(p2.coins.edges.map((e) => e.node.id)).toEqual(snap.ranked.slice(5, 10).map((m) => m.id));
    expect(p2.coins.pageInfo.hasPreviousPage).toBe(true);

    const last = await ok<Page>(PAGE, { first: 250 });
    expect(last.coins.pageInfo.hasNextPage).toBe(snap.ranked.length > 250);
  });

  it('refuses first > 250 and a foreign cursor with INVALID_PARAMETER', async () => {
    expect(codes(await run(PAGE, { first: 251 }))).toEqual(['INVALID_PARAMETER']);
    expect(codes(await run(PAGE, { first: 5, after: 'bm9wZQ' }))).toEqual(['INVALID_PARAMETER']);
  });

  it('filters by ids and category; an unknown category is INVALID_CATEGORY', async () => {
    const r = await ok<Page>(
      `{ coins(ids: ["litecoin", "bitcoin", "nope"]) { edges { node { id } } totalCount } }`,
    );
    expect(r.coins.edges.map((e) => e.node.id).sort()).toEqual(['bitcoin', 'litecoin']);
    expect(codes(await run(`{ coins(category: "no-such") { totalCount } }`))).toEqual(['INVALID_CATEGORY']);
  });
});

describe('Coin money fields', () => {
  it('marketCap is null when supply is unverified, FDV is set when the max supply is known', async () => {
    const coin = [...snap.markets.values()].find(
      (m) => !m.supply.verified && m.supply.max !== null && m.price.priceUsd !== null,
    );
    expect(coin, 'demo data has a coin with unverified supply and a known max').toBeDefined();
    const d = await ok<{ coin: Record<string, unknown> }>(
      `query ($id: ID!) { coin(id: $id) { marketCap fullyDilutedValuation price rank supply { verified max } } }`,
      { id: coin?.id },
    );
    expect(d.coin['marketCap']).toBeNull();
    expect(d.coin['rank']).toBeNull();
    expect(d.coin['fullyDilutedValuation']).toEqual(expect.any(Number));
    expect(d.coin['supply']).toMatchObject({ verified: false, max: coin?.supply.max });
  });

  it('says why a supply is or is not verified, per source, as REST does', async () => {
    const q = `query ($id: ID!) { coin(id: $id) { supply { verified status reason sources { source kind value observedAt agrees } } } }`;
    for (const m of [...snap.markets.values()].filter((x) => x.supply.readings.length > 0)) {
      const d = await ok<{ coin: { supply: Record<string, unknown> } }>(q, { id: m.id });
      const rest = (await tm.app.inject({ url: `/v1/agg/coins/${m.id}?tickers=false` })).json() as {
        market_data: Record<string, unknown>;
      };
      expect(d.coin.supply).toEqual({
        verified: m.supply.verified,
        status: m.supply.status.toUpperCase(),
        reason: rest.market_data['supply_status_reason'],
        sources: (rest.market_data['circulating_supply_sources'] as Record<string, unknown>[]).map((r) => ({
          source: r['source'],
          kind: r['kind'],
          value: r['circulating_supply'],
          observedAt: r['observed_at'],
          agrees: r['agrees'],
        })),
      });
    }
    const statuses = new Set([...snap.markets.values()].map((m) => m.supply.status));
    expect([...statuses].sort()).toEqual(['single_source', 'sources_disagree', 'verified']);
  });

  it('converts like the REST API for the same coin and currency', async () => {
    const r = await tm.app.inject({
      method: 'GET',
      url: '/v1/agg/coins/markets?vs_currency=eur&ids=litecoin',
    });
    expect(r.statusCode).toBe(200);
    const [row] = r.json() as Record<string, unknown>[];
    const d = await ok<{ coin: Record<string, unknown> }>(`{
      coin(id: "litecoin") {
        price(currency: "eur") marketCap(currency: "EUR") fullyDilutedValuation(currency: "eur")
        volume24h(currency: "eur") high24h(currency: "eur") low24h(currency: "eur")
        priceChange24h(currency: "eur") marketCapChange24h(currency: "eur")
      }
    }`);
    expect(d.coin['price']).toEqual(expect.any(Number));
    expect(d.coin).toEqual({
      price: row?.['current_price'],
      marketCap: row?.['market_cap'],
      fullyDilutedValuation: row?.['fully_diluted_valuation'],
      volume24h: row?.['total_volume'],
      high24h: row?.['high_24h'],
      low24h: row?.['low_24h'],
      priceChange24h: row?.['price_change_24h'],
      marketCapChange24h: row?.['market_cap_change_24h'],
    });
  });

  it('an unknown currency is INVALID_CURRENCY', async () => {
    const r = await run(`{ coin(id: "litecoin") { price(currency: "xyz") } }`);
    expect(codes(r)).toEqual(['INVALID_CURRENCY']);
  });

  it('coin is null for an unknown id and INVALID_COIN_ID for a malformed one', async () => {
    expect((await ok<{ coin: null }>(`{ coin(id: "nope") { id } }`)).coin).toBeNull();
    expect(codes(await run(`{ coin(id: "Not An Id") { id } }`))).toEqual(['INVALID_COIN_ID']);
  });
});

describe('_entities', () => {
  it('resolves a Coin by @key(id) and gives null plus an error for an unknown id', async () => {
    const r = await run(
      `query ($reps: [_Any!]!) { _entities(representations: $reps) { ... on Coin { id symbol name } } }`,
      {
        reps: [
          { __typename: 'Coin', id: 'litecoin' },
          { __typename: 'Coin', id: 'nope' },
        ],
      },
    );
    expect(r.data?.['_entities']).toEqual([{ id: 'litecoin', symbol: 'ltc', name: 'Litecoin' }, null]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors?.[0]?.message).toBe('COIN_NOT_FOUND');
    expect(r.errors?.[0]?.path).toEqual(['_entities', 1]);
  });
});

describe('batching', () => {
  const keysOf = (loader: string): unknown[][] =>
    batches.filter((b) => b.loader === loader).map((b) => [...b.keys]);
  const idsOf = (loader: string): unknown[][] =>
    keysOf(loader).map((keys) => keys.map((k) => (k as { id: string }).id));

  it('coins(first: 250) reads history for all nodes in one barsByCoin batch', async () => {
    batches.length = 0;
    barReads.length = 0;
    const d = await ok<Page>(
      `{ coins(first: 250) { edges { node { id price candles(days: 7) { close } } } } }`,
    );
    const ids = snap.ranked.slice(0, 250).map((m) => m.id);
    expect(d.coins.edges.map((e) => e.node.id)).toEqual(ids);
    expect(idsOf('barsByCoin')).toEqual([ids]);
    // One multi-coin SQL read for the whole page (all 250 share one window).
    expect(barReads).toHaveLength(1);
    expect(barReads[0]?.ids).toEqual(ids);
  });

  it('three entities load in one coinById batch (one snapshot read) and one barsByCoin batch', async () => {
    batches.length = 0;
    snapshotReads.length = 0;
    const ids = ['bitcoin', 'litecoin', 'dogecoin'];
    const r = await run(
      `query ($reps: [_Any!]!) { _entities(representations: $reps) { ... on Coin { id chart(days: 1) { points { time } } } } }`,
      { reps: ids.map((id) => ({ __typename: 'Coin', id })) },
    );
    expect(r.errors).toBeUndefined();
    expect(keysOf('coinById')).toEqual([ids]);
    expect(idsOf('barsByCoin')).toEqual([ids]);
    // One snapshot per request: the coinById batch and the charts' "now" point and rates read the same one.
    expect(snapshotReads).toHaveLength(1);
  });

  it('the same chart asked twice reads history once', async () => {
    barReads.length = 0;
    await ok(`{
      a: coin(id: "litecoin") { chart(days: 1) { points { time } } }
      b: coin(id: "litecoin") { chart(days: 1, currency: "eur") { points { price } } }
    }`);
    expect(barReads.map((b) => [b.ids, b.res])).toEqual([[['litecoin'], '5m']]);
  });
});

describe('chart and candles', () => {
  it('builds a chart once per snapshot, shared by every request and by the price API', async () => {
    sg = subgraph(tm.market.charts);
    const q = '{ coin(id: "dogecoin") { chart(days: 2) { points { time price } } } }';
    const before = tm.market.charts.built();
    barReads.length = 0;
    const first = await ok(q);
    expect(barReads).toHaveLength(1);
    expect(await ok(q)).toEqual(first);
    expect(barReads).toHaveLength(1); // the second request read nothing
    expect(tm.market.charts.built()).toBe(before + 1);
    // The price API's market_chart of the same coin, span and currency: the same series, no build of its own.
    const rest = await tm.app.inject({ url: '/v1/agg/coins/dogecoin/market_chart?vs_currency=usd&days=2' });
    expect(rest.statusCode).toBe(200);
    const prices = (rest.json() as { prices: [number, number][] }).prices;
    const points = (first as { coin: { chart: { points: { time: string }[] } } }).coin.chart.points;
    expect(prices.map(([t]) => new Date(t).toISOString())).toEqual(points.map((p) => p.time));
    expect(tm.market.charts.built()).toBe(before + 1);
  });

  it('picks 5-minute points for 1 day and hourly points for 30 days', async () => {
    barReads.length = 0;
    const d = await ok<{
      coin: { d1: { points: { time: string; price: number }[] }; d30: { points: unknown[] } };
    }>(`{
      coin(id: "litecoin") {
        d1: chart(days: 1) { points { time price marketCap volume } }
        d30: chart(days: 30) { points { time price } }
      }
    }`);
    expect(barReads.map((b) => b.res)).toEqual(['5m', '1h']);
    expect(barReads[0]).toMatchObject({ from: TEST_NOW - 86_400_000, to: TEST_NOW });
    const p = d.coin.d1.points;
    expect(p.length).toBeGreaterThan(200);
    const step = Date.parse(p[1]?.time ?? '') - Date.parse(p[0]?.time ?? '');
    expect(step).toBe(300_000);
    // 10 days of history at hourly resolution.
    expect(d.coin.d30.points.length).toBeGreaterThan(200);
    expect(d.coin.d30.points.length).toBeLessThan(30 * 24);
  });

  it('candles match REST /ohlc', async () => {
    const r = await tm.app.inject({
      method: 'GET',
      url: '/v1/agg/coins/litecoin/ohlc?vs_currency=usd&days=7',
    });
    expect(r.statusCode).toBe(200);
    const rows = r.json() as number[][];
    const d = await ok<{ coin: { candles: { time: string; open: number; close: number }[] } }>(
      `{ coin(id: "litecoin") { candles(days: 7) { time open high low close } } }`,
    );
    expect(d.coin.candles.map((c) => [Date.parse(c.time), c.open, c.close])).toEqual(
      rows.map((row) => [row[0], row[1], row[4]]),
    );
  });
});

describe('the other entry points', () => {
  it('serves categories, global, search, trending and currencies', async () => {
    const d = await ok<{
      categories: { id: string; topCoins: { id: string }[] }[];
      global: { verifiedCoins: number; totalMarketCap: number | null; marketCapPercentage: unknown[] };
      search: { coins: { id: string }[] };
      trending: { coin: { id: string } }[];
      currencies: string[];
    }>(`{
      categories { id topCoins { id } marketCap(currency: "eur") }
      global { verifiedCoins totalMarketCap marketCapPercentage { symbol percentage } updatedAt }
      search(query: "lite") { coins { id } categories { id } }
      trending { coin { id } score }
      currencies
    }`);
    expect(d.categories.length).toBe(snap.categories.length);
    expect(d.global.verifiedCoins).toBe(snap.global.verifiedCoins);
    expect(d.search.coins.map((c) => c.id)).toContain('litecoin');
    expect(d.trending.length).toBe(snap.trending.length);
    expect(d.currencies).toContain('eur');
  });
});
