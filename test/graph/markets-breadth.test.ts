/**
 * The markets subgraph's CoinGecko-breadth fields (tickers with verdicts, venues, BTC rates, history at a date,
 * candle ranges, movers, new coins, the market-wide chart) executed in process, each compared with the REST answer
 * of the same product for the same question: one set of presenters, two transports, the same figures.
 */
import { createRequire } from 'node:module';
import type * as GraphQL from 'graphql';
import type { ExecutionResult } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resolution } from '../../src/engine/types.ts';
import type { Ticker } from '../../src/ingest/types.ts';
import { engineConfig } from '../../src/start/wiring.ts';
import type { MarketsStore } from '../../subgraphs/markets/context.ts';
import { createMarketsSubgraph } from '../../subgraphs/markets/index.ts';
import type { MarketsSubgraph } from '../../subgraphs/markets/index.ts';
import { storeOf } from '../../subgraphs/markets/loaders.ts';
import { createTestMarket, TEST_NOW } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';

const { graphql } = createRequire(import.meta.url)('graphql') as typeof GraphQL;

type Json = Record<string, unknown>;
let tm: TestMarket;
let sg: MarketsSubgraph;
const barReads: { ids: readonly string[]; res: Resolution; from: number; to: number }[] = [];
const batches: { loader: string; keys: readonly unknown[] }[] = [];

beforeAll(async () => {
  tm = await createTestMarket({ days: 3 });
  const ltc = tm.market.snapshot?.markets.get('litecoin')?.price.priceUsd as number;
  const t = (venue: string, last: number, ts = TEST_NOW - 30_000): Ticker => ({
    venue,
    venueKind: 'cex',
    base: 'litecoin',
    quote: 'usd',
    last,
    bid: null,
    ask: null,
    baseVolume: 1000,
    ts,
  });
  await tm.market.ingest([
    {
      source: 'test:crafted',
      snapshot: {
        source: 'test:crafted',
        ts: TEST_NOW,
        tickers: [t('test-outlier', ltc * 2), t('test-stale', ltc, TEST_NOW - 7_200_000)],
      },
      error: null,
      ms: 0,
    },
  ]);
  const inner = storeOf(tm.market);
  const store: MarketsStore = {
    ...inner,
    readBarsMany: (ids, res, from, to) => {
      barReads.push({ ids, res, from, to });
      return inner.readBarsMany(ids, res, from, to);
    },
  };
  sg = createMarketsSubgraph({
    market: tm.market,
    engine: engineConfig({ staleAfterMs: 900_000 }),
    store,
    now: () => TEST_NOW,
    hooks: { onBatch: (loader, keys) => batches.push({ loader, keys }) },
  });
}, 120_000);
afterAll(async () => {
  await tm?.close();
});

async function run(source: string, variableValues?: Record<string, unknown>): Promise<ExecutionResult> {
  return graphql({ schema: sg.schema, source, variableValues, contextValue: sg.contextFor() });
}
async function ok<T = Json>(source: string, vars?: Record<string, unknown>): Promise<T> {
  const r = await run(source, vars);
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data as T;
}
async function rest<T = Json>(path: string): Promise<T> {
  const r = await tm.app.inject(`/v1/agg${path}`);
  expect(r.statusCode, r.body.slice(0, 200)).toBe(200);
  return r.json<T>();
}
const codes = (r: ExecutionResult): unknown[] => (r.errors ?? []).map((e) => e.extensions['code']);

describe('tickers and venues', () => {
  it('Coin.tickers: the same tickers, order and verdicts as /coins/{id}/tickers', async () => {
    const g = await ok<{ coin: { tickers: Json[] } }>(`{ coin(id: "litecoin") { tickers {
      exchange { id } target targetCoin { id } last volume convertedLast(currency: "usd")
      convertedVolume(currency: "btc") bidAskSpreadPercentage verdict trustScore isAnomaly isStale coin { id } } } }`);
    const r = await rest<{ tickers: Json[] }>('/coins/litecoin/tickers');
    expect(g.coin.tickers.map((t) => (t['exchange'] as Json)['id'])).toEqual(
      r.tickers.map((t) => (t['market'] as Json)['identifier']),
    );
    g.coin.tickers.forEach((t, i) => {
      const x = r.tickers[i] as Json;
      expect(t['verdict']).toBe(String(x['verdict']).toUpperCase());
      expect(t['trustScore']).toBe(x['trust_score'] === null ? null : String(x['trust_score']).toUpperCase());
      expect([t['isAnomaly'], t['isStale'], t['last'], t['volume']]).toEqual([
        x['is_anomaly'],
        x['is_stale'],
        x['last'],
        x['volume'],
      ]);
      expect(t['convertedLast']).toBe((x['converted_last'] as Json)['usd']);
      expect(t['convertedVolume']).toBe((x['converted_volume'] as Json)['btc']);
      expect(t['coin']).toEqual({ id: 'litecoin' });
      expect(t['target']).toBe(x['target']);
    });
    const verdicts = new Map(g.coin.tickers.map((t) => [(t['exchange'] as Json)['id'], t['verdict']]));
    expect(verdicts.get('test-outlier')).toBe('OUTLIER');
    expect(verdicts.get('test-stale')).toBe('STALE');
    const few = await ok<{ coin: { tickers: Json[] } }>(
      '{ coin(id: "litecoin") { tickers(first: 2, order: VOLUME_ASC, exchangeIds: ["demo-cex-alpha", "test-outlier", "test-stale"]) { exchange { id } } } }',
    );
    expect(few.coin.tickers).toHaveLength(2);
    expect(codes(await run('{ coin(id: "litecoin") { tickers(first: 0) { last } } }'))).toEqual([
      'INVALID_PARAMETER',
    ]);
  });

  it('exchanges, exchange and exchange tickers: the figures of /exchanges and /exchanges/{id}', async () => {
    const g = await ok<{ exchanges: Json[] }>(`{ exchanges { id name kind trustScore trustScoreRank
      volume24h normalizedVolume24h(currency: "btc") coins pairs judgedTickers usedTickers } }`);
    const r = await rest<Json[]>('/exchanges');
    expect(g.exchanges.map((e) => e['id'])).toEqual(r.map((e) => e['id']));
    g.exchanges.forEach((e, i) => {
      const x = r[i] as Json;
      expect([
        e['name'],
        e['trustScore'],
        e['trustScoreRank'],
        e['volume24h'],
        e['normalizedVolume24h'],
      ]).toEqual([
        x['name'],
        x['trust_score'],
        x['trust_score_rank'],
        x['trade_volume_24h_btc'],
        x['trade_volume_24h_btc_normalized'],
      ]);
      expect(e['kind']).toBe(String(x['venue_kind']).toUpperCase());
    });
    const one = await ok<{ exchange: Json & { tickers: Json[] } }>(
      '{ exchange(id: "demo-cex-alpha") { coins pairs tickers(first: 3, coinIds: ["litecoin", "bitcoin"]) { coin { id } trustScore } } }',
    );
    const detail = await rest<Json>('/exchanges/demo-cex-alpha');
    expect([one.exchange['coins'], one.exchange['pairs']]).toEqual([detail['coins'], detail['pairs']]);
    expect(new Set(one.exchange.tickers.map((t) => (t['coin'] as Json)['id']))).toEqual(
      new Set(['litecoin', 'bitcoin']),
    );
    expect((await ok<{ exchange: null }>('{ exchange(id: "no-such-venue") { id } }')).exchange).toBeNull();
    expect(codes(await run('{ exchange(id: "Bad Id") { id } }'))).toEqual(['INVALID_EXCHANGE_ID']);
  });

  it('exchangeRates: the rates of /exchange_rates', async () => {
    const g = await ok<{ exchangeRates: Json[] }>('{ exchangeRates { code name unit type value } }');
    const { rates } = await rest<{ rates: Record<string, Json> }>('/exchange_rates');
    expect(g.exchangeRates.map((x) => x['code'])).toEqual(Object.keys(rates));
    for (const x of g.exchangeRates) {
      const y = rates[x['code'] as string] as Json;
      expect([x['name'], x['unit'], x['value'], x['type']]).toEqual([
        y['name'],
        y['unit'],
        y['value'],
        String(y['type']).toUpperCase(),
      ]);
    }
  });

  it('the coins and quote coins of a page of tickers are loaded in one batch', async () => {
    batches.length = 0;
    await ok(
      '{ coins(first: 5) { edges { node { tickers(first: 2) { coin { id } targetCoin { id } } } } } }',
    );
    const page = await rest<{ id: string }[]>('/coins/markets?vs_currency=usd&per_page=5');
    const keys: string[] = [];
    for (const { id } of page) {
      const { tickers } = await rest<{ tickers: Json[] }>(`/coins/${id}/tickers`);
      for (const t of tickers.slice(0, 2))
        keys.push(id, ...(t['target_coin_id'] ? [t['target_coin_id'] as string] : []));
    }
    expect(batches.filter((b) => b.loader === 'coinById').map((b) => b.keys)).toEqual([[...new Set(keys)]]);
  });
});

describe('history, candles, movers, new coins, the global chart', () => {
  it('Coin.history: the figures of /coins/{id}/history; several coins read history in one SQL read', async () => {
    barReads.length = 0;
    const g = await ok<{ a: Json & { history: Json }; b: Json & { history: Json } }>(`{
      a: coin(id: "litecoin") { history(date: "20-11-2026") { date observedAt price marketCap(currency: "eur") volume(currency: "btc") } }
      b: coin(id: "dogecoin") { history(date: "2026-11-20") { date price } } }`);
    expect(barReads).toHaveLength(1);
    expect([...barReads[0]!.ids].sort()).toEqual(['dogecoin', 'litecoin']);
    const r = await rest<{ market_data: Record<string, Record<string, number | null> | string | null> }>(
      '/coins/litecoin/history?date=20-11-2026',
    );
    const md = r.market_data as Record<string, Record<string, number | null>>;
    expect(g.a.history).toEqual({
      date: '2026-11-20',
      observedAt: r.market_data['observed_at'],
      price: md['current_price']?.['usd'],
      marketCap: md['market_cap']?.['eur'],
      volume: md['total_volume']?.['btc'],
    });
    expect(g.b.history['date']).toBe('2026-11-20');
    const r2 = await run('{ coin(id: "litecoin") { history(date: "31-02-2026") { price } } }');
    expect(codes(r2)).toEqual(['INVALID_PARAMETER']);
  });

  it('Coin.candleRange: the rows of /coins/{id}/ohlc/range', async () => {
    const g = await ok<{ coin: { candleRange: Json[] } }>(
      '{ coin(id: "litecoin") { candleRange(from: "2026-11-21T06:00:00Z", to: "2026-11-21T12:00:00Z", interval: HOURLY, currency: "eur") { time open high low close } } }',
    );
    const r = await rest<number[][]>(
      '/coins/litecoin/ohlc/range?vs_currency=eur&from=2026-11-21T06:00Z&to=2026-11-21T12:00Z&interval=hourly',
    );
    expect(
      g.coin.candleRange.map((c) => [
        Date.parse(c['time'] as string),
        c['open'],
        c['high'],
        c['low'],
        c['close'],
      ]),
    ).toEqual(r);
    const long = await run(
      '{ coin(id: "litecoin") { candleRange(from: "2026-09-01T00:00:00Z", to: "2026-11-21T00:00:00Z", interval: HOURLY) { time } } }',
    );
    expect(codes(long)).toEqual(['INVALID_RANGE']);
  });

  it('topMovers, newCoins and globalChart: the answers of their REST routes', async () => {
    const g = await ok<{
      topMovers: { gainers: Json[]; losers: Json[] };
      newCoins: Json[];
      globalChart: { points: Json[] };
    }>(`{
      topMovers(currency: "eur", duration: H1, topCoins: ALL) { gainers { coin { id } change price volume24h } losers { coin { id } change } }
      newCoins(first: 5) { coin { id listedAt } listedAt }
      globalChart(days: 1, currency: "eur") { points { time marketCap volume } } }`);
    const movers = await rest<{ top_gainers: Json[]; top_losers: Json[] }>(
      '/coins/top_gainers_losers?vs_currency=eur&duration=1h&top_coins=all',
    );
    expect(
      g.topMovers.gainers.map((m) => [(m['coin'] as Json)['id'], m['change'], m['price'], m['volume24h']]),
    ).toEqual(movers.top_gainers.map((m) => [m['id'], m['eur_1h_change'], m['eur'], m['eur_24h_vol']]));
    expect(g.topMovers.losers.map((m) => (m['coin'] as Json)['id'])).toEqual(
      movers.top_losers.map((m) => m['id']),
    );
    const fresh = await rest<{ id: string; activated_at: number }[]>('/coins/list/new');
    expect(
      g.newCoins.map((c) => [(c['coin'] as Json)['id'], Date.parse(c['listedAt'] as string) / 1000]),
    ).toEqual(fresh.slice(0, 5).map((c) => [c.id, c.activated_at]));
    expect(g.newCoins.every((c) => (c['coin'] as Json)['listedAt'] === c['listedAt'])).toBe(true);
    const chart = await rest<{
      market_cap_chart: { market_cap: [number, number][]; volume: [number, number][] };
    }>('/global/market_cap_chart?days=1&vs_currency=eur');
    expect(g.globalChart.points.map((p) => [Date.parse(p['time'] as string), p['marketCap']])).toEqual(
      chart.market_cap_chart.market_cap,
    );
    expect(g.globalChart.points.map((p) => p['volume'])).toEqual(
      chart.market_cap_chart.volume.map((p) => p[1]),
    );
    expect(codes(await run('{ newCoins(first: 201) { listedAt } }'))).toEqual(['INVALID_PARAMETER']);
    expect(codes(await run('{ globalChart(days: 0) { points { time } } }'))).toEqual(['INVALID_PARAMETER']);
  });
});
