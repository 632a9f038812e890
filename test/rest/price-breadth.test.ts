/**
 * The CoinGecko endpoints beyond the first twelve: tickers with the engine's verdicts, venues, BTC exchange rates, a
 * coin's history at a date, OHLC ranges, top movers, new coins and the market-wide chart — against the in-process
 * product on seeded demo history, plus three crafted venues whose tickers the engine must judge stale, an outlier
 * and used-but-wide.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENCIES } from '../../src/catalog/currencies.ts';
import { DAY_MS, HOUR_MS } from '../../src/engine/history.ts';
import type { MarketSnapshot } from '../../src/engine/snapshot.ts';
import type { AssetMarket } from '../../src/engine/types.ts';
import type { Ticker } from '../../src/ingest/types.ts';
import { Converter } from '../../src/market/present/common.ts';
import { MOVERS_MIN_VOLUME_USD } from '../../src/market/present/movers.ts';
import { createTestMarket, TEST_NOW } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';

type Json = Record<string, unknown>;
type Row = Record<string, unknown> & { market: { identifier: string } };
const BASE = '/v1/agg';
let tm: TestMarket;
let snap: MarketSnapshot;
let ltcPrice: number;

beforeAll(async () => {
  tm = await createTestMarket({ days: 3 });
  ltcPrice = tm.market.snapshot?.markets.get('litecoin')?.price.priceUsd as number;
  const t = (venue: string, last: number, patch: Partial<Ticker> = {}): Ticker => ({
    venue,
    venueKind: 'cex',
    base: 'litecoin',
    quote: 'usd',
    last,
    bid: null,
    ask: null,
    baseVolume: 1000,
    ts: TEST_NOW - 30_000,
    ...patch,
  });
  const tickers = [
    t('test-outlier', ltcPrice * 2),
    t('test-stale', ltcPrice, { ts: TEST_NOW - 2 * HOUR_MS }),
    t('test-wide', ltcPrice, { bid: ltcPrice * 0.96, ask: ltcPrice }),
  ];
  await tm.market.ingest([
    {
      source: 'test:crafted',
      snapshot: { source: 'test:crafted', ts: TEST_NOW, tickers },
      error: null,
      ms: 0,
    },
  ]);
  snap = tm.market.snapshot as MarketSnapshot;
}, 120_000);
afterAll(async () => {
  await tm?.close();
});

async function getJson<T = Json>(path: string): Promise<T> {
  const r = await tm.app.inject(`${BASE}${path}`);
  expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
  return r.json<T>();
}
async function expectError(path: string, status: number, code: string, mentions?: string) {
  const r = await tm.app.inject(`${BASE}${path}`);
  expect(r.statusCode, r.body).toBe(status);
  const e = r.json<{ error: { code: string; message: string } }>().error;
  expect(e.code).toBe(code);
  if (mentions) expect(e.message).toContain(mentions);
}
const market = (id: string) => snap.markets.get(id) as AssetMarket;
const venueOf = (r: Row) => r.market.identifier;

describe('/coins/{id}/tickers: the engine verdict on each ticker', () => {
  it('an outlier is red and anomalous, a stale one red and stale, a wide one yellow, the rest green', async () => {
    const body = await getJson<{ name: string; tickers: Row[] }>('/coins/litecoin/tickers');
    expect(body.name).toBe('Litecoin');
    const by = new Map(body.tickers.map((r) => [venueOf(r), r]));
    expect(by.get('test-outlier')).toMatchObject({
      trust_score: 'red',
      is_anomaly: true,
      is_stale: false,
      verdict: 'outlier',
    });
    expect(by.get('test-stale')).toMatchObject({
      trust_score: 'red',
      is_anomaly: null,
      is_stale: true,
      verdict: 'stale',
    });
    expect(by.get('test-wide')).toMatchObject({ trust_score: 'yellow', is_anomaly: false, verdict: 'used' });
    expect(by.get('test-wide')?.['bid_ask_spread_percentage']).toBeCloseTo(4, 9);
    const demo = body.tickers.filter((r) => venueOf(r).startsWith('demo-'));
    expect(demo.length).toBeGreaterThan(3);
    for (const r of demo)
      expect(r).toMatchObject({ trust_score: 'green', is_anomaly: false, is_stale: false });
    // Default order trust_score_desc: green, then yellow, then red.
    const colours = body.tickers.map((r) => r['trust_score']);
    expect(colours).toEqual([...colours].sort((a, b) => rank(a) - rank(b)));
    expect(colours.at(-1)).toBe('red');
  });

  it('orders, filters by exchange_ids, pages by 100, and adds depth as null', async () => {
    const asc = await getJson<{ tickers: Row[] }>('/coins/litecoin/tickers?order=trust_score_asc');
    expect(asc.tickers[0]?.['trust_score']).toBe('red');
    const vol = await getJson<{ tickers: Row[] }>('/coins/litecoin/tickers?order=volume_desc');
    const usd = vol.tickers.map((r) => (r['converted_volume'] as { usd: number }).usd);
    expect(usd).toEqual([...usd].sort((a, b) => b - a));
    const only = await getJson<{ tickers: Row[] }>(
      '/coins/litecoin/tickers?exchange_ids=test-wide,demo-cex-alpha',
    );
    expect(only.tickers.map(venueOf).sort()).toEqual(['demo-cex-alpha', 'test-wide']);
    expect((await getJson<{ tickers: Row[] }>('/coins/litecoin/tickers?page=2')).tickers).toEqual([]);
    const depth = await getJson<{ tickers: Row[] }>('/coins/litecoin/tickers?depth=true');
    expect(depth.tickers[0]).toMatchObject({ cost_to_move_up_usd: null, cost_to_move_down_usd: null });
    expect(only.tickers[0]).not.toHaveProperty('cost_to_move_up_usd');
  });

  it('/coins/{id} shows the same verdicts', async () => {
    const c = await getJson<{ tickers: Row[] }>('/coins/litecoin?market_data=false');
    const outlier = c.tickers.find((r) => venueOf(r) === 'test-outlier');
    expect(outlier).toMatchObject({ trust_score: 'red', is_anomaly: true });
  });

  it('refuses bad parameters with the parameter named', async () => {
    await expectError('/coins/litecoin/tickers?order=best', 400, 'INVALID_PARAMETER', 'order');
    await expectError('/coins/litecoin/tickers?page=0', 400, 'INVALID_PARAMETER', 'page');
    await expectError('/coins/litecoin/tickers?exchange_ids=Bad!', 400, 'INVALID_PARAMETER', 'exchange_ids');
    await expectError('/coins/no-such-coin/tickers', 404, 'COIN_NOT_FOUND');
  });
});

const rank = (c: unknown): number => ({ green: 0, yellow: 1, red: 2 })[String(c)] ?? 3;

describe('/exchanges', () => {
  it('lists every venue with our trust score (used ÷ judged) and rank, and its volume in BTC', async () => {
    const rows = await getJson<Json[]>('/exchanges');
    const ids = rows.map((r) => r['id']);
    expect(ids).toContain('demo-cex-alpha');
    const outlier = rows.find((r) => r['id'] === 'test-outlier');
    expect(outlier).toMatchObject({
      trust_score: 0,
      name: 'test-outlier',
      country: null,
      year_established: null,
    });
    expect(rows.find((r) => r['id'] === 'test-wide')).toMatchObject({ trust_score: 10 });
    expect(rows.find((r) => r['id'] === 'demo-cex-alpha')).toMatchObject({ name: 'Demo CEX Alpha' });
    const ranks = rows.map((r) => r['trust_score_rank']);
    expect(ranks).toEqual(rows.map((_, i) => i + 1));
    const scores = rows.map((r) => r['trust_score'] as number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // Volume: the fresh, converted tickers (used and outliers); normalized: the used ones only.
    const btc = snap.rates.now('btc') as number;
    expect(outlier?.['trade_volume_24h_btc']).toBeCloseTo((1000 * ltcPrice * 2) / btc, 6);
    expect(outlier?.['trade_volume_24h_btc_normalized']).toBeNull();
    expect(rows.find((r) => r['id'] === 'test-stale')?.['trade_volume_24h_btc']).toBeNull();
    const page = await getJson<Json[]>('/exchanges?per_page=2&page=2');
    expect(page.map((r) => r['id'])).toEqual(ids.slice(2, 4));
    await expectError('/exchanges?per_page=251', 400, 'INVALID_PARAMETER', 'per_page');
  });

  it('/exchanges/list: id and name by id; inactive is empty', async () => {
    const list = await getJson<{ id: string; name: string }[]>('/exchanges/list');
    expect(list.map((e) => e.id)).toEqual(list.map((e) => e.id).sort());
    expect(list).toContainEqual({ id: 'demo-dex-cove', name: 'Demo DEX Cove' });
    expect(await getJson('/exchanges/list?status=inactive')).toEqual([]);
  });

  it('/exchanges/{id}: figures, the notice, its tickers; unknown and malformed ids', async () => {
    const e = await getJson<Json & { tickers: Row[] }>('/exchanges/test-outlier');
    expect(e).toMatchObject({
      name: 'test-outlier',
      centralized: true,
      pairs: 1,
      coins: 1,
      judged_tickers: 1,
      used_tickers: 0,
      trust_score: 0,
    });
    expect(e['public_notice']).toMatch(/demo/i);
    expect(e.tickers.map(venueOf)).toEqual(['test-outlier']);
    const dex = await getJson<Json>('/exchanges/demo-dex-aurora');
    expect(dex).toMatchObject({ centralized: false, venue_kind: 'dex' });
    await expectError('/exchanges/no-such-venue', 404, 'EXCHANGE_NOT_FOUND', 'no-such-venue');
    await expectError('/exchanges/Bad%20Id', 400, 'INVALID_EXCHANGE_ID');
  });

  it('/exchanges/{id}/tickers: its tickers, filtered by coin_ids', async () => {
    const all = await getJson<{ name: string; tickers: Row[] }>('/exchanges/demo-cex-alpha/tickers');
    expect(all.name).toBe('Demo CEX Alpha');
    expect(all.tickers.length).toBeGreaterThan(5);
    expect(all.tickers.every((r) => venueOf(r) === 'demo-cex-alpha')).toBe(true);
    const two = await getJson<{ tickers: Row[] }>(
      '/exchanges/demo-cex-alpha/tickers?coin_ids=litecoin,bitcoin',
    );
    expect(new Set(two.tickers.map((r) => r['coin_id']))).toEqual(new Set(['litecoin', 'bitcoin']));
    await expectError('/exchanges/demo-cex-alpha/tickers?coin_ids=NOT%20A%20COIN', 400, 'INVALID_PARAMETER');
  });
});

describe('/exchange_rates', () => {
  it('every currency against BTC from our bitcoin price and FX rates', async () => {
    const { rates } = await getJson<{
      rates: Record<string, { name: string; unit: string; value: number | null; type: string }>;
    }>('/exchange_rates');
    expect(Object.keys(rates)).toEqual(CURRENCIES.map((c) => c.code));
    const btcUsd = market('bitcoin').price.priceUsd as number;
    expect(rates['btc']).toEqual({ name: 'Bitcoin', unit: 'BTC', value: 1, type: 'crypto' });
    expect(rates['usd']).toMatchObject({ unit: '$', type: 'fiat' });
    expect(rates['usd']?.value).toBeCloseTo(btcUsd, 4);
    expect(rates['eur']?.value).toBeCloseTo(btcUsd / (snap.rates.now('eur') as number), 4);
    expect(rates['sats']).toMatchObject({ value: 1e8, type: 'crypto' });
    expect(rates['xau']?.type).toBe('commodity');
  });
});

describe('/coins/{id}/history', () => {
  it('the close of the day before the date, per currency at that moment; both date forms', async () => {
    const h = await getJson<Json & { market_data: Record<string, Record<string, number | null>> }>(
      '/coins/litecoin/history?date=20-11-2026',
    );
    const day = Date.UTC(2026, 10, 19);
    const [bar] = await tm.market.readBars('litecoin', '1d', day, day);
    expect(bar).toBeDefined();
    expect(h.market_data['current_price']?.['usd']).toBeCloseTo(bar!.close, 6);
    expect(h.market_data['total_volume']?.['usd']).toBeCloseTo(bar!.volumeUsd as number, 0);
    expect(h.market_data['current_price']?.['eur']).toBeCloseTo(
      bar!.close / (snap.rates.at('eur', bar!.closeTs) as number),
      6,
    );
    expect(h['market_data']).toMatchObject({ observed_at: new Date(bar!.closeTs).toISOString() });
    expect(bar!.closeTs).toBeLessThan(Date.UTC(2026, 10, 20));
    expect(h).toMatchObject({ id: 'litecoin', symbol: 'ltc', localization: { en: 'Litecoin' } });
    expect(await getJson('/coins/litecoin/history?date=2026-11-20')).toEqual(h);
    const noLoc = await getJson('/coins/litecoin/history?date=20-11-2026&localization=false');
    expect(noLoc).not.toHaveProperty('localization');
  });

  it('before the history: every figure null, nothing guessed', async () => {
    const h = await getJson<{ market_data: Record<string, Record<string, unknown> | null> }>(
      '/coins/litecoin/history?date=01-06-2026',
    );
    expect(Object.values(h.market_data['current_price'] ?? {}).every((v) => v === null)).toBe(true);
    expect(h.market_data['observed_at']).toBeNull();
  });

  it('refuses dates that are not calendar dates, in the future, before 2009, or missing', async () => {
    await expectError('/coins/litecoin/history', 400, 'MISSING_PARAMETER', 'date');
    await expectError(
      '/coins/litecoin/history?date=31-02-2026',
      400,
      'INVALID_PARAMETER',
      'not a calendar date',
    );
    await expectError('/coins/litecoin/history?date=22-11-2026', 400, 'INVALID_PARAMETER', 'outside');
    await expectError('/coins/litecoin/history?date=31-12-2008', 400, 'INVALID_PARAMETER', 'date');
    await expectError('/coins/litecoin/history?date=2026/11/20', 400, 'INVALID_PARAMETER', 'dd-mm-yyyy');
  });
});

describe('/coins/{id}/ohlc/range', () => {
  it('hourly candles stamped with their close, the open hour last; daily candles', async () => {
    const from = TEST_NOW - 6 * HOUR_MS;
    const rows = await getJson<number[][]>(
      `/coins/litecoin/ohlc/range?vs_currency=usd&from=${from / 1000}&to=${TEST_NOW / 1000}&interval=hourly`,
    );
    // Completed hours whose close lies in [from, to], then the open hour (12:00–13:00, stamped 13:00).
    expect(rows.map((r) => r[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((h) => from + h * HOUR_MS));
    const [bar] = await tm.market.readBars('litecoin', '1h', from - HOUR_MS, from - HOUR_MS);
    expect(rows[0]?.slice(1)).toEqual(
      [bar!.open, bar!.high, bar!.low, bar!.close].map((v) => expect.closeTo(v, 6)),
    );
    for (const [, o, h, l, c] of rows) {
      expect(h).toBeGreaterThanOrEqual(Math.max(o!, c!, l!));
      expect(l).toBeLessThanOrEqual(Math.min(o!, c!));
    }
    const daily = await getJson<number[][]>(
      '/coins/litecoin/ohlc/range?vs_currency=eur&from=2026-11-19&to=2026-11-21T12:00&interval=daily',
    );
    // Days whose close lies in [from, to] (the 18th closes at 00:00 on the 19th), then the open day.
    expect(daily.map((r) => r[0])).toEqual([19, 20, 21, 22].map((d) => Date.UTC(2026, 10, d)));
  });

  it('refuses a missing or unknown interval, spans over the limits and hourly data we do not keep', async () => {
    const q = '/coins/litecoin/ohlc/range?vs_currency=usd&from=2026-11-20&to=2026-11-21';
    await expectError(q, 400, 'MISSING_PARAMETER', 'interval');
    await expectError(`${q}&interval=5m`, 400, 'INVALID_PARAMETER', 'daily or hourly');
    await expectError(
      '/coins/litecoin/ohlc/range?vs_currency=usd&from=2026-10-01&to=2026-11-21&interval=hourly',
      400,
      'INVALID_RANGE',
      '31 days',
    );
    await expectError(
      '/coins/litecoin/ohlc/range?vs_currency=usd&from=2026-06-01&to=2026-06-02&interval=hourly',
      400,
      'INVALID_RANGE',
      '95 days',
    );
    await expectError(`${q}&interval=daily&vs_currency=zzz`, 400, 'REPEATED_PARAMETER');
  });
});

describe('/global/market_cap_chart', () => {
  it('sums the verified coins of each bucket; the current /global totals last', async () => {
    const { market_cap_chart: c } = await getJson<{
      market_cap_chart: { market_cap: [number, number | null][]; volume: [number, number | null][] };
    }>('/global/market_cap_chart?days=1');
    expect(c.market_cap.length).toBe(c.volume.length);
    expect(c.market_cap.length).toBeGreaterThan(280);
    const last = c.market_cap.at(-1)!;
    // The bucket of the last tick (12:00) is the current totals (the crafted second tick at the same clock
    // reading is the one difference, a few parts per billion).
    expect(last[0]).toBe(snap.computedAt);
    expect(last[1]! / (snap.global.totalMarketCapUsd as number)).toBeCloseTo(1, 6);
    expect(c.volume.at(-1)![1]! / (snap.global.totalVolumeUsd as number)).toBeCloseTo(1, 6);
    // One bucket, recomputed from the stored bars of every coin.
    const [ts] = c.market_cap[100]!;
    const bars = await tm.market.readBarsMany([...snap.markets.keys()], '5m', ts, ts);
    const verified = [...bars.values()].flat().filter((b) => b.marketCapUsd !== null);
    expect(c.market_cap[100]?.[1]).toBeCloseTo(
      verified.reduce((s, b) => s + (b.marketCapUsd as number), 0),
      -3,
    );
    expect(c.volume[100]?.[1]).toBeCloseTo(
      verified.reduce((s, b) => s + (b.volumeUsd ?? 0), 0),
      -3,
    );
    const eur = await getJson<{ market_cap_chart: { market_cap: [number, number][] } }>(
      '/global/market_cap_chart?days=1&vs_currency=eur',
    );
    expect(eur.market_cap_chart.market_cap[100]?.[1]).toBeCloseTo(
      (c.market_cap[100]?.[1] as number) / (snap.rates.at('eur', ts) as number),
      -3,
    );
    await expectError('/global/market_cap_chart', 400, 'MISSING_PARAMETER', 'days');
    await expectError('/global/market_cap_chart?days=1&vs_currency=zzz', 400, 'INVALID_CURRENCY');
  });
});

describe('/coins/top_gainers_losers', () => {
  it('the largest rises and falls in the currency, over coins with enough volume', async () => {
    const r = await getJson<{ top_gainers: Json[]; top_losers: Json[] }>(
      '/coins/top_gainers_losers?vs_currency=eur&top_coins=all&price_change_percentage=1h,7d',
    );
    expect(r.top_gainers.length).toBeGreaterThan(0);
    expect(r.top_losers.length).toBeGreaterThan(0);
    const conv = new Converter(snap.rates, 'eur', snap.computedAt, { kind: 'default' });
    const changes = r.top_gainers.map((g) => g['eur_24h_change'] as number);
    expect(changes.every((c) => c > 0)).toBe(true);
    expect(changes).toEqual([...changes].sort((a, b) => b - a));
    expect(r.top_losers.every((g) => (g['eur_24h_change'] as number) < 0)).toBe(true);
    for (const g of [...r.top_gainers, ...r.top_losers]) {
      const m = market(g['id'] as string);
      expect(m.price.volumeUsd).toBeGreaterThanOrEqual(MOVERS_MIN_VOLUME_USD);
      expect(g['eur_24h_change']).toBe(conv.changePct(m, '24h'));
      expect(g['eur']).toBe(conv.money(m.price.priceUsd));
      expect(Object.keys(g)).toEqual(
        expect.arrayContaining(['eur_24h_vol', 'eur_1h_change', 'eur_7d_change', 'market_cap_rank', 'image']),
      );
    }
    // Every eligible coin with a positive change is either listed or beaten by all 30 listed.
    const ranked = await getJson<{ top_gainers: Json[] }>(
      '/coins/top_gainers_losers?vs_currency=usd&top_coins=300',
    );
    expect(ranked.top_gainers.every((g) => typeof g['market_cap_rank'] === 'number')).toBe(true);
    const week = await getJson<{ top_gainers: Json[] }>(
      '/coins/top_gainers_losers?vs_currency=usd&duration=1h',
    );
    expect(week.top_gainers[0]).toHaveProperty('usd_1h_change');
    await expectError(
      '/coins/top_gainers_losers?vs_currency=usd&duration=2d',
      400,
      'INVALID_PARAMETER',
      'duration',
    );
    await expectError(
      '/coins/top_gainers_losers?vs_currency=usd&top_coins=10',
      400,
      'INVALID_PARAMETER',
      'top_coins',
    );
    await expectError('/coins/top_gainers_losers', 400, 'MISSING_PARAMETER', 'vs_currency');
  });
});

describe('/coins/list/new', () => {
  it('coins by their first observation, newest first, in UNIX seconds', async () => {
    const rows = await getJson<{ id: string; activated_at: number }[]>('/coins/list/new');
    expect(rows.length).toBeGreaterThan(50);
    expect(rows.length).toBeLessThanOrEqual(200);
    const times = rows.map((r) => r.activated_at);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const first = tm.market.state.histories.get('litecoin')?.bars1d[0];
    expect(rows.find((r) => r.id === 'litecoin')?.activated_at).toBe(Math.floor(first!.openTs / 1000));
    expect(times[0]).toBeLessThanOrEqual(Math.floor(TEST_NOW / 1000));
    expect(times.at(-1)).toBeGreaterThanOrEqual(Math.floor((TEST_NOW - 3 * DAY_MS - DAY_MS) / 1000));
  });
});
