import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS } from '../../src/catalog/assets.ts';
import { CATEGORIES } from '../../src/catalog/categories.ts';
import { CURRENCIES } from '../../src/catalog/currencies.ts';
import { DEMO_NOTICE } from '../../src/demo/dataset.ts';
import type { Rates } from '../../src/engine/rates.ts';
import type { MarketSnapshot } from '../../src/engine/snapshot.ts';
import type { AssetMarket } from '../../src/engine/types.ts';
import { Converter } from '../../src/market/present/common.ts';
import { createTestMarket } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';

type Json = Record<string, unknown>;
type CurrencyMap = Record<string, number | string | null>;
const BASE = '/v1/agg';
let tm: TestMarket;
let snap: MarketSnapshot;

beforeAll(async () => {
  tm = await createTestMarket({ days: 40 });
  snap = tm.market.snapshot as MarketSnapshot;
}, 120_000);
afterAll(async () => {
  await tm?.close();
});

async function getJson<T = Json>(path: string): Promise<T> {
  const r = await tm.app.inject(`${BASE}${path}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<T>();
}
async function expectError(path: string, status: number, code: string, mentions?: string) {
  const r = await tm.app.inject(`${BASE}${path}`);
  expect(r.statusCode, r.body).toBe(status);
  const e = r.json<{ error: { code: string; message: string } }>().error;
  expect(e.code).toBe(code);
  if (mentions) expect(e.message).toContain(mentions);
}
const close = (a: unknown, b: number, rel = 1e-9) => {
  expect(typeof a).toBe('number');
  expect(Math.abs((a as number) - b)).toBeLessThanOrEqual(Math.abs(b) * rel);
};
const market = (id: string) => snap.markets.get(id) as AssetMarket;
const codes = CURRENCIES.map((c) => c.code);

describe('/coins/list', () => {
  it('lists every catalog coin by id, with platforms only when asked', async () => {
    const list = await getJson<{ id: string; symbol: string; name: string }[]>('/coins/list');
    expect(list.map((c) => c.id)).toEqual(ASSETS.map((a) => a.id).sort());
    for (const c of list) {
      expect(Object.keys(c)).toEqual(['id', 'symbol', 'name']);
      expect(c.symbol).toBe(c.symbol.toLowerCase());
    }
    const withPlatforms = await getJson<Json[]>('/coins/list?include_platform=true');
    expect(withPlatforms.every((c) => JSON.stringify(c['platforms']) === '{}')).toBe(true);
    expect(await getJson('/coins/list?status=inactive')).toEqual([]);
  });

  it('rejects bad flags and caches 5 minutes', async () => {
    await expectError('/coins/list?include_platform=maybe', 400, 'INVALID_PARAMETER', 'include_platform');
    await expectError('/coins/list?status=gone', 400, 'INVALID_PARAMETER', 'status');
    const r = await tm.app.inject(`${BASE}/coins/list`);
    expect(r.headers['cache-control']).toBe('public, max-age=300');
  });
});

describe('/coins/{id}', () => {
  it('has the reference identity fields and our notice', async () => {
    const c = await getJson('/coins/litecoin');
    expect(c).toMatchObject({
      id: 'litecoin',
      symbol: 'ltc',
      name: 'Litecoin',
      web_slug: 'litecoin',
      asset_platform_id: null,
      platforms: {},
      block_time_in_minutes: 2.5,
      hashing_algorithm: 'Scrypt',
      genesis_date: '2011-10-07',
      public_notice: DEMO_NOTICE(20261121),
      additional_notices: [],
      description: { en: '' },
      image: {
        thumb: '/assets/coins/litecoin.svg',
        small: '/assets/coins/litecoin.svg',
        large: '/assets/coins/litecoin.svg',
      },
      market_cap_rank: market('litecoin').rank,
      localization: { en: 'Litecoin' },
    });
    expect((c['links'] as Json)['homepage']).toEqual(['https://litecoin.org/']);
    const expectedCats = CATEGORIES.filter((k) => k.members.includes('litecoin')).map((k) => k.name);
    expect(c['categories']).toEqual(expectedCats);
    expect(expectedCats).toContain('Scrypt');
    expect(c['last_updated']).toBe(new Date(market('litecoin').price.lastUpdated as number).toISOString());
  });

  it('gives market_data maps keyed by every supported currency, converted per currency', async () => {
    const md = (await getJson('/coins/litecoin'))['market_data'] as Record<string, unknown>;
    const maps = [
      'current_price',
      'ath',
      'ath_change_percentage',
      'ath_date',
      'atl',
      'atl_change_percentage',
      'atl_date',
      'market_cap',
      'fully_diluted_valuation',
      'total_volume',
      'high_24h',
      'low_24h',
      'price_change_24h_in_currency',
      ...['1h', '24h', '7d', '14d', '30d', '60d', '200d', '1y'].map(
        (w) => `price_change_percentage_${w}_in_currency`,
      ),
      'market_cap_change_24h_in_currency',
      'market_cap_change_percentage_24h_in_currency',
    ];
    for (const k of maps) expect(Object.keys(md[k] as CurrencyMap).sort(), k).toEqual([...codes].sort());
    const m = market('litecoin');
    const price = md['current_price'] as CurrencyMap;
    close(price['usd'], m.price.priceUsd as number);
    for (const code of ['eur', 'jpy', 'btc', 'xau'])
      close(price[code], (m.price.priceUsd as number) / (snap.rates.now(code) as number));
    close(
      (md['market_cap'] as CurrencyMap)['eur'],
      (m.marketCapUsd as number) / (snap.rates.now('eur') as number),
    );
    // ATH per currency uses that currency's rate at the ATH time.
    const ath = m.ath as { priceUsd: number; ts: number };
    close((md['ath'] as CurrencyMap)['eur'], ath.priceUsd / (snap.rates.at('eur', ath.ts) as number));
    close((md['ath'] as CurrencyMap)['btc'], ath.priceUsd / (snap.rates.at('btc', ath.ts) as number));
    expect((md['ath_date'] as CurrencyMap)['eur']).toBe(new Date(ath.ts).toISOString());
    expect(snap.rates.at('btc', ath.ts)).not.toBe(snap.rates.now('btc'));
    // Scalars are USD; our extras say how far to trust the figures.
    close(md['price_change_percentage_7d'], m.changes['7d'] as number);
    expect(md['price_change_percentage_60d']).toBeNull();
    expect(md).toMatchObject({
      market_cap_rank: m.rank,
      circulating_supply: m.supply.circulating,
      max_supply: m.supply.max,
      max_supply_infinite: false,
      roi: null,
      supply_verified: true,
      supply_status: 'verified',
      supply_status_reason: null,
      confidence: m.price.confidence,
      venues: m.price.venues,
    });
    // Each source's figure, as the engine verified them.
    expect(md['circulating_supply_sources']).toEqual(
      m.supply.readings.map((r) => ({
        source: r.source,
        kind: r.sourceKind,
        circulating_supply: r.value,
        observed_at: new Date(r.ts).toISOString(),
        agrees: true,
      })),
    );
    expect((md['circulating_supply_sources'] as unknown[]).length).toBeGreaterThanOrEqual(2);
    expect(md['confidence']).toBeGreaterThan(0);
    expect(md['confidence']).toBeLessThanOrEqual(1);
    expect(md).not.toHaveProperty('sparkline_7d');
  });

  it('follows the null rules for a coin whose supply cannot be verified', async () => {
    const c = await getJson('/coins/namecoin');
    const md = c['market_data'] as Record<string, unknown>;
    expect(c['market_cap_rank']).toBeNull();
    expect(md['market_cap_rank']).toBeNull();
    expect(md['supply_verified']).toBe(false);
    expect(md['circulating_supply']).toBeNull();
    // Why, in words and per source.
    expect(md['supply_status']).toBe(market('namecoin').supply.status);
    expect(['single_source', 'sources_disagree']).toContain(md['supply_status']);
    expect(md['supply_status_reason']).toMatch(/^(only one source|the \d sources disagree)/);
    expect((md['circulating_supply_sources'] as { agrees: boolean }[]).every((r) => r.agrees === false)).toBe(
      true,
    );
    expect(Object.values(md['market_cap'] as CurrencyMap).every((v) => v === null)).toBe(true);
    expect(md['market_cap_fdv_ratio']).toBeNull();
    const m = market('namecoin');
    close(
      (md['fully_diluted_valuation'] as CurrencyMap)['usd'],
      (m.price.priceUsd as number) * (m.supply.max as number),
    );
  });

  it('lists our venues as tickers, and omits what is switched off', async () => {
    const c = await getJson('/coins/litecoin?sparkline=true&include_categories_details=true');
    const tickers = c['tickers'] as Json[];
    const own = [...tm.market.state.tickers.values()].filter((t) => t.base === 'litecoin');
    expect(tickers.length).toBe(Math.min(100, own.length));
    expect(tickers.length).toBeGreaterThan(1);
    for (const t of tickers) {
      expect(t).toMatchObject({ base: 'LTC', coin_id: 'litecoin', trade_url: null });
      // The engine's verdict on each (the demo's litecoin tickers at this time are all used and close to the price).
      expect(t).toMatchObject({ verdict: 'used', trust_score: 'green', is_anomaly: false, is_stale: false });
      expect(typeof (t['market'] as Json)['identifier']).toBe('string');
      expect(typeof t['last']).toBe('number');
      expect(typeof t['is_stale']).toBe('boolean');
      expect(Object.keys(t['converted_last'] as Json).sort()).toEqual(['btc', 'eth', 'usd']);
    }
    const vols = tickers.map((t) => (t['converted_volume'] as { usd: number }).usd);
    expect(vols.every((v, i) => i === 0 || v <= (vols[i - 1] as number))).toBe(true);
    expect(((c['market_data'] as Json)['sparkline_7d'] as { price: number[] }).price.length).toBe(
      market('litecoin').sparkline7d.length,
    );
    expect(c['categories_details']).toContainEqual({ id: 'scrypt', name: 'Scrypt' });

    const bare = await getJson(
      '/coins/litecoin?tickers=false&market_data=false&localization=false&community_data=false&developer_data=false',
    );
    expect(bare).not.toHaveProperty('tickers');
    expect(bare).not.toHaveProperty('market_data');
    expect(bare).not.toHaveProperty('localization');
    expect(bare['id']).toBe('litecoin');
  });

  it('answers the same at coins/<id>/ (pycoingecko adds a trailing slash)', async () => {
    const slash = await getJson('/coins/dogecoin/?tickers=false');
    expect(slash).toEqual(await getJson('/coins/dogecoin?tickers=false'));
    expect(slash['id']).toBe('dogecoin');
  });

  it('answers 404 for an unknown id and 400 for a malformed one or bad flags', async () => {
    await expectError('/coins/not-a-coin', 404, 'COIN_NOT_FOUND', 'not-a-coin');
    await expectError('/coins/Bitcoin', 400, 'INVALID_COIN_ID');
    await expectError('/coins/bit%20coin', 400, 'INVALID_COIN_ID');
    await expectError(`/coins/${'a'.repeat(150)}`, 400, 'INVALID_COIN_ID');
    await expectError('/coins/litecoin?tickers=no', 400, 'INVALID_PARAMETER', 'tickers');
    await expectError(
      '/coins/litecoin?market_data=true&market_data=false',
      400,
      'REPEATED_PARAMETER',
      'market_data',
    );
    await expectError('/coins/litecoin?dex_pair_format=x', 400, 'INVALID_PARAMETER', 'dex_pair_format');
    const r = await tm.app.inject(`${BASE}/coins/${'a'.repeat(300)}`);
    expect(r.statusCode).toBeGreaterThanOrEqual(400);
    expect(r.statusCode).toBeLessThan(500);
  });

  it('caches 60 s with an ETag and gzips on request', async () => {
    const r = await tm.app.inject({
      url: `${BASE}/coins/bitcoin`,
      headers: { 'accept-encoding': 'gzip, deflate' },
    });
    expect(r.headers['cache-control']).toBe('public, max-age=60');
    expect(r.headers['content-encoding']).toBe('gzip');
    const again = await tm.app.inject({
      url: `${BASE}/coins/bitcoin`,
      headers: { 'if-none-match': r.headers['etag'] as string },
    });
    expect(again.statusCode).toBe(304);
  });
});

describe('/coins/categories', () => {
  it('lists category ids by name', async () => {
    const list = await getJson<{ category_id: string; name: string }[]>('/coins/categories/list');
    expect(list.map((c) => c.category_id).sort()).toEqual(CATEGORIES.map((c) => c.id).sort());
    expect(list.map((c) => c.name)).toEqual(
      [...list.map((c) => c.name)].sort((a, b) => a.localeCompare(b, 'en')),
    );
    expect(Object.keys(list[0] ?? {})).toEqual(['category_id', 'name']);
  });

  it('sums verified members only, with the reference fields', async () => {
    const cats = await getJson<Json[]>('/coins/categories?order=market_cap_desc');
    for (const c of cats) {
      expect(Object.keys(c)).toEqual([
        'id',
        'name',
        'market_cap',
        'market_cap_change_24h',
        'content',
        'top_3_coins_id',
        'top_3_coins',
        'volume_24h',
        'updated_at',
        'coins_count',
        'verified_coins',
      ]);
      const info = CATEGORIES.find((k) => k.id === c['id']);
      const members = [...new Set(info?.members)]
        .map((id) => snap.markets.get(id))
        .filter((m) => m !== undefined);
      const caps = members.map((m) => m.marketCapUsd).filter((v): v is number => v !== null);
      if (caps.length === 0) expect(c['market_cap']).toBeNull();
      else
        close(
          c['market_cap'],
          caps.reduce((a, b) => a + b, 0),
        );
      expect(c['verified_coins']).toBe(caps.length);
      expect(c['top_3_coins']).toEqual(
        (c['top_3_coins_id'] as string[]).map((id) => `/assets/coins/${id}.svg`),
      );
    }
    const scrypt = cats.find((c) => c['id'] === 'scrypt');
    expect(scrypt?.['verified_coins']).toBeLessThan(scrypt?.['coins_count'] as number);
    const capsInOrder = cats.map((c) => c['market_cap'] as number);
    expect(capsInOrder.every((v, i) => i === 0 || v <= (capsInOrder[i - 1] as number))).toBe(true);
  });

  it('sorts by each order', async () => {
    const asc = (await getJson<Json[]>('/coins/categories?order=market_cap_asc')).map(
      (c) => c['market_cap'] as number,
    );
    expect(asc.every((v, i) => i === 0 || v >= (asc[i - 1] as number))).toBe(true);
    const names = (await getJson<Json[]>('/coins/categories?order=name_desc')).map(
      (c) => c['name'] as string,
    );
    expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a, 'en')));
    const ch = (await getJson<Json[]>('/coins/categories?order=market_cap_change_24h_desc')).map(
      (c) => c['market_cap_change_24h'] as number,
    );
    expect(ch.every((v, i) => i === 0 || v <= (ch[i - 1] as number))).toBe(true);
    await expectError('/coins/categories?order=popular', 400, 'INVALID_PARAMETER', 'order');
  });
});

describe('Converter (unknown rates)', () => {
  const m = {
    price: { priceUsd: 10 },
    marketCapUsd: 1000,
    marketCapChange24hUsd: 100,
    changes: { '24h': 25 },
    priceChange24hUsd: 2,
    ath: { priceUsd: 20, ts: 1_000 },
  } as unknown as AssetMarket;
  const rates = {
    now: (c: string) => ({ usd: 1, eur: 2, xyz: null })[c] ?? null,
    at: (c: string, ts: number) => (c === 'eur' ? (ts === 1_000 ? 4 : 1) : null),
    supports: () => true,
  } as unknown as Rates;
  const p = { kind: 'full' } as const;

  it('gives null, never 0, when the rate is unknown', () => {
    const c = new Converter(rates, 'xyz', 86_400_000 * 2, p);
    expect(c.money(10)).toBeNull();
    expect(c.changePct(m, '24h')).toBeNull();
    expect(c.extreme(m.ath, 10)).toEqual({ value: null, changePct: null, date: null });
  });

  it('uses the rate at the reference time for changes and extremes', () => {
    const c = new Converter(rates, 'eur', 86_400_000 * 2, p);
    expect(c.money(10)).toBe(5);
    // Price 24h ago: 10 / 1.25 = 8 USD at 1 USD/EUR = 8 EUR; now 5 EUR → −37.5 %.
    expect(c.changePct(m, '24h')).toBeCloseTo(-37.5, 10);
    expect(c.change24h(m)).toBeCloseTo(-3, 10);
    // ATH 20 USD when EUR was worth 4 USD → 5 EUR; today 5 EUR → 0 % from the ATH.
    expect(c.extreme(m.ath, 10)).toEqual({ value: 5, changePct: 0, date: new Date(1_000).toISOString() });
    // Market cap 24h ago 900 USD at 1 → 900 EUR; now 500 EUR.
    expect(c.capChange24h(m)).toBeCloseTo(-400, 10);
  });
});
