import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS } from '../../src/catalog/assets.ts';
import { CURRENCIES } from '../../src/catalog/currencies.ts';
import type { MarketSnapshot } from '../../src/engine/snapshot.ts';
import { createTestMarket, TEST_NOW } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';

type Json = Record<string, unknown>;
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
async function expectError(path: string, code: string, mentions: string) {
  const r = await tm.app.inject(`${BASE}${path}`);
  expect(r.statusCode, r.body).toBe(400);
  const e = r.json<{ error: { code: string; message: string } }>().error;
  expect(e.code).toBe(code);
  expect(e.message).toContain(mentions);
}
const close = (a: unknown, b: number, rel = 1e-9) => {
  expect(typeof a).toBe('number');
  expect(Math.abs((a as number) - b)).toBeLessThanOrEqual(Math.abs(b) * rel);
};

describe('/global', () => {
  it('counts only coins with a verified market cap, and says how many', async () => {
    const { data } = await getJson<{ data: Json }>('/global');
    expect(Object.keys(data)).toEqual([
      'active_cryptocurrencies',
      'upcoming_icos',
      'ongoing_icos',
      'ended_icos',
      'markets',
      'total_market_cap',
      'total_volume',
      'market_cap_percentage',
      'market_cap_change_percentage_24h_usd',
      'volume_change_percentage_24h_usd',
      'updated_at',
      'verified_coins',
    ]);
    const all = [...snap.markets.values()];
    const verified = all.filter((m) => m.marketCapUsd !== null);
    expect(verified.length).toBeLessThan(all.length);
    expect(data['verified_coins']).toBe(verified.length);
    const cap = data['total_market_cap'] as Record<string, number | null>;
    const vol = data['total_volume'] as Record<string, number | null>;
    close(
      cap['usd'],
      verified.reduce((s, m) => s + (m.marketCapUsd as number), 0),
    );
    close(
      vol['usd'],
      verified.reduce((s, m) => s + (m.price.volumeUsd ?? 0), 0),
    );
    expect(Object.keys(cap)).toEqual(CURRENCIES.map((c) => c.code));
    expect(Object.keys(vol)).toEqual(CURRENCIES.map((c) => c.code));
    close(cap['eur'], (cap['usd'] as number) / (snap.rates.now('eur') as number), 1e-10);
    close(cap['btc'], (cap['usd'] as number) / (snap.rates.now('btc') as number), 1e-10);
    expect(data).toMatchObject({
      active_cryptocurrencies: all.filter((m) => m.price.priceUsd !== null).length,
      upcoming_icos: 0,
      ongoing_icos: 0,
      ended_icos: 0,
      volume_change_percentage_24h_usd: null,
      updated_at: TEST_NOW / 1000,
    });
    expect(typeof data['market_cap_change_percentage_24h_usd']).toBe('number');
  });

  it('keys market_cap_percentage by the symbols of the top 10', async () => {
    const { data } = await getJson<{ data: Json }>('/global');
    const pct = data['market_cap_percentage'] as Record<string, number>;
    expect(Object.keys(pct).slice(0, 3)).toEqual(['btc', 'eth', 'usdt']);
    expect(Object.keys(pct).length).toBeLessThanOrEqual(10);
    const btc = snap.markets.get('bitcoin')?.marketCapUsd as number;
    close(pct['btc'], (btc / (snap.global.totalMarketCapUsd as number)) * 100, 1e-9);
    const sum = Object.values(pct).reduce((a, b) => a + b, 0);
    expect(sum).toBeGreaterThan(50);
    expect(sum).toBeLessThanOrEqual(100);
  });

  it('caches 60 s (our tick, shorter than CoinGecko’s 10 min) and answers 304', async () => {
    const r = await tm.app.inject(`${BASE}/global`);
    expect(r.headers['cache-control']).toBe('public, max-age=60');
    const again = await tm.app.inject({
      url: `${BASE}/global`,
      headers: { 'if-none-match': r.headers['etag'] as string },
    });
    expect(again.statusCode).toBe(304);
  });
});

describe('/search', () => {
  it('finds coins by symbol, name or id, exact matches first', async () => {
    const res = await getJson<{
      coins: Json[];
      exchanges: unknown[];
      icos: unknown[];
      categories: Json[];
      nfts: unknown[];
    }>('/search?query=DOGE');
    expect(Object.keys(res)).toEqual(['coins', 'exchanges', 'icos', 'categories', 'nfts']);
    expect(res.exchanges).toEqual([]);
    expect(res.icos).toEqual([]);
    expect(res.nfts).toEqual([]);
    expect(res.coins[0]).toEqual({
      id: 'dogecoin',
      name: 'Dogecoin',
      api_symbol: 'dogecoin',
      symbol: 'DOGE',
      market_cap_rank: snap.markets.get('dogecoin')?.rank,
      thumb: '/assets/coins/dogecoin.svg',
      large: '/assets/coins/dogecoin.svg',
    });
    const bit = await getJson<{ coins: Json[] }>('/search?query=bitcoin');
    expect(bit.coins[0]?.['id']).toBe('bitcoin');
    expect(bit.coins.map((c) => c['id'])).toContain('bitcoin-cash');
    expect((await getJson<{ coins: Json[] }>('/search?query=zzzzqqq')).coins).toEqual([]);
  });

  it('matches categories by id or name', async () => {
    const res = await getJson<{ categories: Json[] }>('/search?query=scrypt');
    expect(res.categories).toContainEqual({ id: 'scrypt', name: 'Scrypt' });
    const meme = await getJson<{ categories: Json[] }>('/search?query=Meme');
    expect(meme.categories.map((c) => c['id'])).toContain('meme-token');
  });

  it('requires a query of at most 100 characters', async () => {
    await expectError('/search', 'MISSING_PARAMETER', 'query');
    await expectError('/search?query=%20%20', 'MISSING_PARAMETER', 'query');
    await expectError(`/search?query=${'a'.repeat(101)}`, 'INVALID_PARAMETER', 'at most 100');
    await expectError('/search?query=a&query=b', 'REPEATED_PARAMETER', 'query');
    expect((await tm.app.inject(`${BASE}/search?query=${'a'.repeat(100)}`)).statusCode).toBe(200);
  });
});

describe('/search/trending', () => {
  it('returns the engine’s trending coins in CoinGecko’s item shape', async () => {
    const res = await getJson<{ coins: { item: Json }[]; nfts: unknown[]; categories: unknown[] }>(
      '/search/trending',
    );
    expect(Object.keys(res)).toEqual(['coins', 'nfts', 'categories']);
    expect(res.nfts).toEqual([]);
    expect(res.categories).toEqual([]);
    expect(res.coins.map((c) => c.item['id'])).toEqual(snap.trending.map((t) => t.id));
    expect(res.coins.length).toBeGreaterThan(0);
    expect(res.coins.length).toBeLessThanOrEqual(15);
    const btcRate = snap.rates.now('btc') as number;
    for (const [i, { item }] of res.coins.entries()) {
      const m = snap.markets.get(item['id'] as string);
      if (!m) throw new Error('unknown trending coin');
      expect(Object.keys(item)).toEqual([
        'id',
        'coin_id',
        'name',
        'symbol',
        'market_cap_rank',
        'thumb',
        'small',
        'large',
        'slug',
        'price_btc',
        'score',
        'data',
      ]);
      expect(item).toMatchObject({
        score: i,
        name: m.name,
        symbol: m.symbol.toUpperCase(),
        market_cap_rank: m.rank,
        slug: m.id,
      });
      expect(item['coin_id']).toBe(ASSETS.findIndex((a) => a.id === m.id) + 1);
      close(item['price_btc'], (m.price.priceUsd as number) / btcRate, 1e-10);
      const data = item['data'] as Json;
      expect(Object.keys(data)).toEqual([
        'price',
        'price_btc',
        'price_change_percentage_24h',
        'market_cap',
        'market_cap_btc',
        'total_volume',
        'total_volume_btc',
        'sparkline',
        'content',
      ]);
      expect(typeof data['price_btc']).toBe('string');
      close(Number(data['price_btc']), (m.price.priceUsd as number) / btcRate, 1e-10);
      expect(data['total_volume']).toMatch(/^\$\d{1,3}(,\d{3})*$/);
      if (m.marketCapUsd === null) expect(data['market_cap']).toBeNull();
      else expect(data['market_cap']).toBe(`$${Math.round(m.marketCapUsd).toLocaleString('en-US')}`);
      expect(Object.keys(data['price_change_percentage_24h'] as Json)).toEqual(CURRENCIES.map((c) => c.code));
      close(
        (data['price_change_percentage_24h'] as Record<string, number>)['usd'],
        m.changes['24h'] as number,
      );
      expect(data['content']).toBeNull();
    }
  });

  it('accepts show_max and rejects unknown values', async () => {
    expect((await tm.app.inject(`${BASE}/search/trending?show_max=coins,categories`)).statusCode).toBe(200);
    await expectError('/search/trending?show_max=exchanges', 'INVALID_PARAMETER', 'show_max');
  });
});

describe('unknown paths', () => {
  it('answer 404 NOT_FOUND with the error body', async () => {
    const r = await tm.app.inject(`${BASE}/coins/litecoin/tickers/extra`);
    expect(r.statusCode).toBe(404);
    expect(r.json().error.code).toBe('NOT_FOUND');
  });
});
