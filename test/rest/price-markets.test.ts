import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../src/catalog/categories.ts';
import type { MarketSnapshot } from '../../src/engine/snapshot.ts';
import type { AssetMarket } from '../../src/engine/types.ts';
import { selectMarkets } from '../../src/market/present/markets.ts';
import type { MarketOrder } from '../../src/market/present/markets.ts';
import { createTestMarket } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';

type Row = Record<string, unknown> & { id: string };
const BASE = '/v1/agg/coins/markets';
let tm: TestMarket;
let snap: MarketSnapshot;

beforeAll(async () => {
  tm = await createTestMarket({ days: 40 });
  snap = tm.market.snapshot as MarketSnapshot;
}, 120_000);
afterAll(async () => {
  await tm?.close();
});

async function rows(query: string): Promise<Row[]> {
  const r = await tm.app.inject(`${BASE}?${query}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json<Row[]>();
}
async function expectError(query: string, code: string, mentions: string) {
  const r = await tm.app.inject(`${BASE}?${query}`);
  expect(r.statusCode, r.body).toBe(400);
  const e = r.json<{ error: { code: string; message: string } }>().error;
  expect(e.code).toBe(code);
  expect(e.message).toContain(mentions);
}
const num = (r: Row, k: string) => r[k] as number | null;
const close = (a: unknown, b: number, rel = 1e-9) => {
  expect(typeof a).toBe('number');
  expect(Math.abs((a as number) - b)).toBeLessThanOrEqual(Math.abs(b) * rel);
};
/** Non-null values in order, and that every null comes after them. */
function nonNullThenNulls(list: Row[], key: string): number[] {
  const values = list.map((r) => num(r, key));
  const firstNull = values.indexOf(null);
  if (firstNull >= 0)
    expect(
      values.slice(firstNull).every((v) => v === null),
      `${key}: nulls last`,
    ).toBe(true);
  return values.filter((v): v is number => v !== null);
}
const isSorted = (xs: number[], dir: 1 | -1) =>
  xs.every((x, i) => i === 0 || (x - (xs[i - 1] as number)) * dir >= 0);

const REFERENCE_FIELDS = [
  'id',
  'symbol',
  'name',
  'image',
  'current_price',
  'market_cap',
  'market_cap_rank',
  'fully_diluted_valuation',
  'total_volume',
  'high_24h',
  'low_24h',
  'price_change_24h',
  'price_change_percentage_24h',
  'market_cap_change_24h',
  'market_cap_change_percentage_24h',
  'circulating_supply',
  'total_supply',
  'max_supply',
  'ath',
  'ath_change_percentage',
  'ath_date',
  'atl',
  'atl_change_percentage',
  'atl_date',
  'roi',
  'last_updated',
];

describe('/coins/markets shape', () => {
  it('has every field of the reference market row, typed as the reference says', async () => {
    const list = await rows('vs_currency=usd');
    expect(list.length).toBe(Math.min(100, snap.markets.size));
    for (const r of list) {
      expect(Object.keys(r)).toEqual(REFERENCE_FIELDS);
      for (const k of ['id', 'symbol', 'name', 'image']) expect(typeof r[k]).toBe('string');
      expect(r.symbol).toBe((r.symbol as string).toLowerCase());
      expect(r.image).toBe(`/assets/coins/${r.id}.svg`);
      for (const k of REFERENCE_FIELDS.slice(4)) {
        if (k === 'roi') expect(r[k]).toBeNull();
        else if (k.endsWith('_date') || k === 'last_updated') {
          if (r[k] !== null) expect(new Date(r[k] as string).toISOString()).toBe(r[k]);
        } else expect(r[k] === null || typeof r[k] === 'number', `${r.id}.${k}`).toBe(true);
      }
    }
  });

  it('matches the engine figures for a verified coin', async () => {
    const [r] = await rows('vs_currency=usd&ids=litecoin&precision=full');
    const m = snap.markets.get('litecoin');
    if (!r || !m) throw new Error('missing litecoin');
    expect(r.current_price).toBe(m.price.priceUsd);
    expect(r.market_cap).toBe(m.marketCapUsd);
    expect(r.market_cap_rank).toBe(m.rank);
    expect(r.fully_diluted_valuation).toBe(m.fdvUsd);
    expect(r.total_volume).toBe(m.price.volumeUsd);
    expect(r.circulating_supply).toBe(m.supply.circulating);
    expect(r.max_supply).toBe(m.supply.max);
    expect(r.ath).toBe(m.ath?.priceUsd);
    expect(r.ath_date).toBe(new Date(m.ath?.ts as number).toISOString());
    close(r.price_change_percentage_24h, m.changes['24h'] as number);
    expect(r.last_updated).toBe(new Date(m.price.lastUpdated as number).toISOString());
  });

  it('gives null market cap and rank but an FDV when supply is unverified and max supply known', async () => {
    const [r] = await rows('vs_currency=usd&ids=namecoin');
    const m = snap.markets.get('namecoin');
    if (!r || !m) throw new Error('missing namecoin');
    expect(m.supply.verified).toBe(false);
    expect(r.market_cap).toBeNull();
    expect(r.market_cap_rank).toBeNull();
    expect(r.circulating_supply).toBeNull();
    expect(r.market_cap_change_24h).toBeNull();
    close(r.fully_diluted_valuation, (m.price.priceUsd as number) * (m.supply.max as number));
    expect(r.current_price).toBeGreaterThan(0);
  });

  it('converts to the vs_currency: eur = usd ÷ rate', async () => {
    const usd = await rows('vs_currency=usd&ids=litecoin,bitcoin&precision=full');
    const eur = await rows('vs_currency=eur&ids=litecoin,bitcoin&precision=full');
    const rate = snap.rates.now('eur') as number;
    for (const [i, u] of usd.entries()) {
      const e = eur[i] as Row;
      expect(e.id).toBe(u.id);
      for (const k of [
        'current_price',
        'market_cap',
        'fully_diluted_valuation',
        'total_volume',
        'high_24h',
        'low_24h',
      ]) {
        close(e[k], (u[k] as number) / rate, 1e-12);
      }
      // ATH in EUR uses the EUR rate of the ATH's own time, not today's.
      const m = snap.markets.get(u.id);
      close(
        e.ath,
        (m?.ath?.priceUsd as number) / (snap.rates.at('eur', m?.ath?.ts as number) as number),
        1e-12,
      );
    }
  });

  it('adds the requested price_change_percentage windows and the sparkline', async () => {
    const [r] = await rows(
      'vs_currency=usd&ids=litecoin&price_change_percentage=1h,24h,7d,14d,30d,200d,1y&sparkline=true',
    );
    if (!r) throw new Error('no row');
    const m = snap.markets.get('litecoin');
    for (const w of ['1h', '24h', '7d', '14d', '30d', '200d', '1y'] as const) {
      const v = r[`price_change_percentage_${w}_in_currency`];
      expect(r).toHaveProperty(`price_change_percentage_${w}_in_currency`);
      if (m?.changes[w] === null) expect(v).toBeNull();
      else close(v, m?.changes[w] as number);
    }
    expect(r[`price_change_percentage_200d_in_currency`]).toBeNull(); // 40 days of history
    const spark = (r.sparkline_in_7d as { price: number[] }).price;
    expect(spark.length).toBe(m?.sparkline7d.length);
    expect(spark.length).toBeGreaterThan(100);
    const [plain] = await rows('vs_currency=usd&ids=litecoin');
    expect(plain).not.toHaveProperty('sparkline_in_7d');
    expect(plain).not.toHaveProperty('price_change_percentage_1h_in_currency');
  });

  it('applies precision to currency values', async () => {
    for (const r of await rows('vs_currency=usd&precision=2&per_page=20')) {
      for (const k of ['current_price', 'total_volume', 'ath']) {
        const v = num(r, k);
        if (v !== null) expect(Math.round(v * 100) / 100).toBeCloseTo(v, 10);
      }
    }
  });
});

describe('/coins/markets ordering', () => {
  it('defaults to market_cap_desc: ranks 1..n, then the unranked', async () => {
    const list = await rows('vs_currency=usd&per_page=250');
    const ranks = nonNullThenNulls(list, 'market_cap_rank');
    expect(ranks).toEqual(ranks.map((_, i) => i + 1));
    expect(isSorted(nonNullThenNulls(list, 'market_cap'), -1)).toBe(true);
    expect(list.some((r) => r.market_cap === null)).toBe(true);
  });

  const cases: [string, string, 1 | -1][] = [
    ['market_cap_asc', 'market_cap', 1],
    ['volume_desc', 'total_volume', -1],
    ['volume_asc', 'total_volume', 1],
    ['gainers', 'price_change_percentage_24h', -1],
    ['losers', 'price_change_percentage_24h', 1],
  ];
  for (const [order, key, dir] of cases) {
    it(`${order} sorts by ${key}, nulls last`, async () => {
      const list = await rows(`vs_currency=usd&per_page=250&order=${order}`);
      expect(list.length).toBe(snap.markets.size);
      const values = nonNullThenNulls(list, key);
      expect(isSorted(values, dir)).toBe(true);
      expect(values[0]).not.toBe(values[values.length - 1]);
    });
  }

  it('gainers starts with the largest 24h rise and losers with the largest fall', async () => {
    const changes = [...snap.markets.values()]
      .map((m) => m.changes['24h'])
      .filter((v): v is number => v !== null);
    const [g] = await rows('vs_currency=usd&order=gainers&per_page=1&precision=full');
    const [l] = await rows('vs_currency=usd&order=losers&per_page=1&precision=full');
    close(g?.price_change_percentage_24h, Math.max(...changes));
    close(l?.price_change_percentage_24h, Math.min(...changes));
  });

  it('id_asc and id_desc sort by id', async () => {
    const ids = [...snap.markets.keys()].sort();
    expect((await rows('vs_currency=usd&per_page=250&order=id_asc')).map((r) => r.id)).toEqual(ids);
    expect((await rows('vs_currency=usd&per_page=250&order=id_desc')).map((r) => r.id)).toEqual(
      [...ids].reverse(),
    );
  });
});

describe('/coins/markets selection and paging', () => {
  it('pages through the same order', async () => {
    const all = (await rows('vs_currency=usd&per_page=250')).map((r) => r.id);
    const p2 = (await rows('vs_currency=usd&per_page=10&page=2')).map((r) => r.id);
    expect(p2).toEqual(all.slice(10, 20));
    expect(await rows('vs_currency=usd&per_page=250&page=2')).toEqual([]);
    expect(await rows('vs_currency=usd&page=10000')).toEqual([]);
    expect((await rows('vs_currency=usd&per_page=1')).length).toBe(1);
  });

  it('filters by ids, and by category (which wins over ids)', async () => {
    expect(
      (await rows('vs_currency=usd&ids=dogecoin,litecoin,unknown-coin')).map((r) => r.id).sort(),
    ).toEqual(['dogecoin', 'litecoin']);
    const scrypt = CATEGORIES.find((c) => c.id === 'scrypt');
    const list = await rows('vs_currency=usd&category=scrypt&ids=bitcoin&per_page=250');
    expect(list.map((r) => r.id).sort()).toEqual(
      [...new Set(scrypt?.members)].filter((id) => snap.markets.has(id)).sort(),
    );
    expect((await rows('vs_currency=usd&symbols=doge')).map((r) => r.id)).toEqual(['dogecoin']);
  });

  it('rejects bad input with 400 naming the parameter', async () => {
    await expectError('', 'MISSING_PARAMETER', 'vs_currency');
    await expectError('vs_currency=zzz', 'INVALID_CURRENCY', 'vs_currency');
    await expectError('vs_currency=usd&vs_currency=eur', 'REPEATED_PARAMETER', 'vs_currency');
    await expectError(
      'vs_currency=usd&per_page=0',
      'INVALID_PARAMETER',
      'per_page must be an integer from 1 to 250',
    );
    await expectError('vs_currency=usd&per_page=251', 'INVALID_PARAMETER', 'per_page');
    await expectError('vs_currency=usd&per_page=ten', 'INVALID_PARAMETER', 'per_page');
    await expectError(
      'vs_currency=usd&page=0',
      'INVALID_PARAMETER',
      'page must be an integer from 1 to 10000',
    );
    await expectError('vs_currency=usd&page=10001', 'INVALID_PARAMETER', 'page');
    await expectError('vs_currency=usd&page=1.5', 'INVALID_PARAMETER', 'page');
    await expectError(
      'vs_currency=usd&order=price_desc',
      'INVALID_PARAMETER',
      'order must be one of market_cap_desc',
    );
    await expectError('vs_currency=usd&order=gainers&order=losers', 'REPEATED_PARAMETER', 'order');
    await expectError('vs_currency=usd&category=no-such-category', 'INVALID_CATEGORY', 'no-such-category');
    await expectError(`vs_currency=usd&category=${'x'.repeat(500)}`, 'INVALID_CATEGORY', 'category');
    await expectError(
      'vs_currency=usd&price_change_percentage=1h,2h',
      'INVALID_PARAMETER',
      'price_change_percentage',
    );
    await expectError('vs_currency=usd&sparkline=1', 'INVALID_PARAMETER', 'sparkline');
    await expectError('vs_currency=usd&precision=full2', 'INVALID_PARAMETER', 'precision');
    await expectError('vs_currency=usd&ids=%00', 'INVALID_PARAMETER', 'ids');
  });

  it('caches for 45 s with an ETag', async () => {
    const r = await tm.app.inject(`${BASE}?vs_currency=usd&per_page=5`);
    expect(r.headers['cache-control']).toBe('public, max-age=45');
    const again = await tm.app.inject({
      url: `${BASE}?vs_currency=usd&per_page=5`,
      headers: { 'if-none-match': r.headers['etag'] as string },
    });
    expect(again.statusCode).toBe(304);
  });
});

describe('selectMarkets (nulls last in every order)', () => {
  const fake = (id: string, cap: number | null, vol: number | null, ch: number | null, rank: number | null) =>
    ({
      id,
      marketCapUsd: cap,
      rank,
      price: { volumeUsd: vol },
      changes: { '24h': ch },
    }) as unknown as AssetMarket;
  const ranked = [
    fake('a', 300, 5, 2, 1),
    fake('b', 200, null, -3, 2),
    fake('c', null, 9, null, null),
    fake('d', null, 1, 7, null),
  ];
  const snapshot = { ranked } as unknown as MarketSnapshot;
  const ids = (order: MarketOrder, page = 1, perPage = 10) =>
    selectMarkets(snapshot, {
      vsCurrency: 'usd',
      order,
      perPage,
      page,
      sparkline: false,
      windows: [],
      precision: { kind: 'default' },
    }).map((m) => m.id);

  it('orders with nulls last in both directions', () => {
    expect(ids('market_cap_desc')).toEqual(['a', 'b', 'c', 'd']);
    expect(ids('market_cap_asc')).toEqual(['b', 'a', 'c', 'd']);
    expect(ids('volume_desc')).toEqual(['c', 'a', 'd', 'b']);
    expect(ids('volume_asc')).toEqual(['d', 'a', 'c', 'b']);
    expect(ids('gainers')).toEqual(['d', 'a', 'b', 'c']);
    expect(ids('losers')).toEqual(['b', 'a', 'd', 'c']);
    expect(ids('id_desc')).toEqual(['d', 'c', 'b', 'a']);
  });

  it('pages', () => {
    expect(ids('gainers', 2, 3)).toEqual(['c']);
    expect(ids('gainers', 3, 3)).toEqual([]);
  });
});
