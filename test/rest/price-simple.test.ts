import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENCIES } from '../../src/catalog/currencies.ts';
import type { MarketSnapshot } from '../../src/engine/snapshot.ts';
import type { MarketService } from '../../src/market/service.ts';
import { engineConfig } from '../../src/start/wiring.ts';
import { createServer } from '../../src/start/server.ts';
import { createTestMarket, TEST_NOW } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';

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

async function get(path: string, headers: Record<string, string> = {}) {
  return tm.app.inject({ method: 'GET', url: `${BASE}${path}`, headers });
}
async function getJson<T = Record<string, Record<string, number | null>>>(path: string): Promise<T> {
  const r = await get(path);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<T>();
}
async function expectError(path: string, status: number, code: string, mentions?: string) {
  const r = await get(path);
  expect(r.statusCode, r.body).toBe(status);
  const body = r.json<{ error: { code: string; message: string } }>();
  expect(body.error.code).toBe(code);
  if (mentions) expect(body.error.message).toContain(mentions);
}
const market = (id: string) => {
  const m = snap.markets.get(id);
  if (!m) throw new Error(`no market ${id}`);
  return m;
};
const close = (a: number | null | undefined, b: number, rel = 1e-9) => {
  expect(a).not.toBeNull();
  expect(Math.abs((a as number) - b)).toBeLessThanOrEqual(Math.abs(b) * rel);
};

describe('/ping', () => {
  it("answers CoinGecko's text", async () => {
    const r = await get('/ping');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ gecko_says: '(V3) To the Moon!' });
    expect(r.headers['content-type']).toContain('application/json');
    expect(r.headers['cache-control']).toBe('public, max-age=0');
  });
});

describe('/simple/supported_vs_currencies', () => {
  it('lists every catalog currency code', async () => {
    const codes = await getJson<string[]>('/simple/supported_vs_currencies');
    expect(codes).toEqual(CURRENCIES.map((c) => c.code));
    expect(codes.length).toBeGreaterThanOrEqual(160);
    for (const c of ['usd', 'eur', 'btc', 'eth', 'sats', 'bits', 'xau', 'xdr', 'vef'])
      expect(codes).toContain(c);
  });
});

describe('/simple/price', () => {
  it('keys by id then currency, with only the currencies asked for', async () => {
    const body = await getJson('/simple/price?ids=litecoin,dogecoin&vs_currencies=usd,eur');
    expect(Object.keys(body).sort()).toEqual(['dogecoin', 'litecoin']);
    expect(Object.keys(body['litecoin'] ?? {}).sort()).toEqual(['eur', 'usd']);
    close(body['litecoin']?.['usd'], market('litecoin').price.priceUsd as number);
    close(body['dogecoin']?.['usd'], market('dogecoin').price.priceUsd as number);
  });

  it('converts with the current rate: eur = usd ÷ (USD per EUR)', async () => {
    const body = await getJson(
      '/simple/price?ids=litecoin,bitcoin&vs_currencies=usd,eur,btc,sats&include_market_cap=true',
    );
    const eur = snap.rates.now('eur') as number;
    expect(eur).toBeGreaterThan(0);
    for (const id of ['litecoin', 'bitcoin']) {
      const row = body[id] ?? {};
      close(row['eur'], (row['usd'] as number) / eur, 1e-10);
      close(row['eur_market_cap'], (market(id).marketCapUsd as number) / eur, 1e-10);
    }
    close(body['bitcoin']?.['btc'], 1, 1e-10);
    close(body['bitcoin']?.['sats'], 1e8, 1e-10);
    close(
      body['litecoin']?.['btc'],
      (market('litecoin').price.priceUsd as number) / (snap.rates.now('btc') as number),
    );
  });

  it('adds each include_* field only when asked, and last_updated_at in UNIX seconds', async () => {
    const flags =
      'include_market_cap=true&include_24hr_vol=true&include_24hr_change=true&include_last_updated_at=true';
    const body = await getJson(`/simple/price?ids=litecoin&vs_currencies=usd,eur&${flags}`);
    const row = body['litecoin'] ?? {};
    expect(Object.keys(row).sort()).toEqual(
      [
        'usd',
        'usd_market_cap',
        'usd_24h_vol',
        'usd_24h_change',
        'eur',
        'eur_market_cap',
        'eur_24h_vol',
        'eur_24h_change',
        'last_updated_at',
      ].sort(),
    );
    const m = market('litecoin');
    close(row['usd_market_cap'], m.marketCapUsd as number);
    close(row['usd_24h_vol'], m.price.volumeUsd as number);
    close(row['usd_24h_change'], m.changes['24h'] as number);
    expect(row['last_updated_at']).toBe(Math.floor((m.price.lastUpdated as number) / 1000));
    expect(row['last_updated_at']).toBeLessThanOrEqual(TEST_NOW / 1000);
    const only = await getJson('/simple/price?ids=litecoin&vs_currencies=usd&include_24hr_vol=false');
    expect(Object.keys(only['litecoin'] ?? {})).toEqual(['usd']);
  });

  it('gives the 24h change of the price in that currency (rates now and 24h ago)', async () => {
    const body = await getJson('/simple/price?ids=litecoin&vs_currencies=eur&include_24hr_change=true');
    const m = market('litecoin');
    const p = m.price.priceUsd as number;
    const then = p / (1 + (m.changes['24h'] as number) / 100);
    const expected =
      (p /
        (snap.rates.now('eur') as number) /
        (then / (snap.rates.at('eur', TEST_NOW - 86_400_000) as number)) -
        1) *
      100;
    close(body['litecoin']?.['eur_24h_change'], expected, 1e-8);
  });

  it('keeps null for an unverifiable market cap (never 0, never absent)', async () => {
    expect(market('namecoin').supply.verified).toBe(false);
    const body = await getJson('/simple/price?ids=namecoin&vs_currencies=usd,eur&include_market_cap=true');
    expect(body['namecoin']).toHaveProperty('usd_market_cap', null);
    expect(body['namecoin']).toHaveProperty('eur_market_cap', null);
    expect(body['namecoin']?.['usd']).toBeGreaterThan(0);
  });

  it('leaves unknown ids out and answers {} when none is known', async () => {
    expect(Object.keys(await getJson('/simple/price?ids=litecoin,not-a-coin&vs_currencies=usd'))).toEqual([
      'litecoin',
    ]);
    expect(await getJson('/simple/price?ids=not-a-coin&vs_currencies=usd')).toEqual({});
  });

  it('looks coins up by names or symbols when ids is absent, ids first', async () => {
    expect(
      Object.keys(await getJson('/simple/price?names=Litecoin,DOGECOIN&vs_currencies=usd')).sort(),
    ).toEqual(['dogecoin', 'litecoin']);
    expect(Object.keys(await getJson('/simple/price?symbols=ltc,btc&vs_currencies=usd')).sort()).toEqual([
      'bitcoin',
      'litecoin',
    ]);
    expect(Object.keys(await getJson('/simple/price?ids=dogecoin&symbols=ltc&vs_currencies=usd'))).toEqual([
      'dogecoin',
    ]);
    expect(
      Object.keys(await getJson('/simple/price?symbols=ltc&include_tokens=all&vs_currencies=usd')),
    ).toEqual(['litecoin']);
  });

  it('applies precision to currency values', async () => {
    const full = await getJson('/simple/price?ids=litecoin,dogecoin&vs_currencies=usd&precision=full');
    expect(full['litecoin']?.['usd']).toBe(market('litecoin').price.priceUsd);
    const two = await getJson('/simple/price?ids=litecoin,dogecoin&vs_currencies=usd&precision=2');
    expect(two['litecoin']?.['usd']).toBe(Number((market('litecoin').price.priceUsd as number).toFixed(2)));
    expect(two['dogecoin']?.['usd']).toBe(Number((market('dogecoin').price.priceUsd as number).toFixed(2)));
    const zero = await getJson(
      '/simple/price?ids=litecoin&vs_currencies=usd&precision=0&include_market_cap=true',
    );
    expect(Number.isInteger(zero['litecoin']?.['usd'])).toBe(true);
    expect(Number.isInteger(zero['litecoin']?.['usd_market_cap'])).toBe(true);
  });

  it('rejects bad input with 400 and a code naming the parameter', async () => {
    await expectError('/simple/price?ids=litecoin', 400, 'MISSING_PARAMETER', 'vs_currencies');
    await expectError('/simple/price?ids=litecoin&vs_currencies=', 400, 'MISSING_PARAMETER', 'vs_currencies');
    await expectError('/simple/price?vs_currencies=usd', 400, 'MISSING_PARAMETER', 'ids');
    await expectError('/simple/price?ids=litecoin&vs_currencies=usd,zzz', 400, 'INVALID_CURRENCY', 'zzz');
    await expectError('/simple/price?ids=litecoin&vs_currencies=us$d', 400, 'INVALID_CURRENCY');
    await expectError(
      '/simple/price?ids=litecoin&ids=dogecoin&vs_currencies=usd',
      400,
      'REPEATED_PARAMETER',
      'ids',
    );
    await expectError('/simple/price?ids=lite%20coin&vs_currencies=usd', 400, 'INVALID_PARAMETER', 'ids');
    await expectError(
      '/simple/price?ids=litecoin&vs_currencies=usd&include_market_cap=yes',
      400,
      'INVALID_PARAMETER',
      'include_market_cap',
    );
    await expectError(
      '/simple/price?ids=litecoin&vs_currencies=usd&precision=19',
      400,
      'INVALID_PARAMETER',
      'precision',
    );
    await expectError(
      '/simple/price?ids=litecoin&vs_currencies=usd&include_tokens=some',
      400,
      'INVALID_PARAMETER',
      'include_tokens',
    );
    const many = Array.from({ length: 501 }, (_, i) => `coin-${i}`).join(',');
    await expectError(`/simple/price?ids=${many}&vs_currencies=usd`, 400, 'INVALID_PARAMETER', 'at most 500');
    await expectError(
      `/simple/price?ids=${'a'.repeat(101)}&vs_currencies=usd`,
      400,
      'INVALID_PARAMETER',
      'ids',
    );
    const currencies = Array.from(
      { length: 201 },
      (_, i) => `c${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
    ).join(',');
    await expectError(
      `/simple/price?ids=litecoin&vs_currencies=${currencies}`,
      400,
      'INVALID_PARAMETER',
      'at most 200',
    );
  });
});

describe('HTTP caching', () => {
  const path = '/simple/price?ids=litecoin&vs_currencies=usd';

  it('sets ETag and Cache-Control, and answers 304 to If-None-Match', async () => {
    const r = await get(path);
    expect(r.headers['cache-control']).toBe('public, max-age=20');
    const etag = r.headers['etag'] as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get(path, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await get(path, { 'if-none-match': '"something-else"' });
    expect(other.statusCode).toBe(200);
  });

  it('gzips a large answer when the client accepts it', async () => {
    const big = `/simple/price?ids=litecoin,dogecoin,bitcoin&vs_currencies=${CURRENCIES.map((c) => c.code).join(',')}`;
    const plain = await get(big);
    const r = await get(big, { 'accept-encoding': 'gzip' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(r.rawPayload).toString('utf8'))).toEqual(plain.json());
    expect(plain.headers['content-encoding']).toBeUndefined();
  });
});

describe('before the first tick', () => {
  it('answers 503 NOT_READY for market figures, but serves the catalog', async () => {
    const market = { snapshot: null } as unknown as MarketService;
    const app = await createServer({
      market,
      engine: engineConfig({ staleAfterMs: 900_000 }),
      dataset: () => ({ kind: 'loading', notice: null }),
    });
    try {
      const r = await app.inject(`${BASE}/simple/price?ids=litecoin&vs_currencies=usd`);
      expect(r.statusCode).toBe(503);
      expect(r.json().error.code).toBe('NOT_READY');
      expect(r.headers['retry-after']).toBe('5');
      for (const p of [
        '/coins/markets?vs_currency=usd',
        '/coins/litecoin',
        '/global',
        '/search?query=a',
        '/search/trending',
        '/coins/categories',
      ]) {
        expect((await app.inject(`${BASE}${p}`)).statusCode, p).toBe(503);
      }
      expect((await app.inject(`${BASE}/ping`)).statusCode).toBe(200);
      expect((await app.inject(`${BASE}/coins/list`)).statusCode).toBe(200);
      expect((await app.inject(`${BASE}/simple/supported_vs_currencies`)).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
