import { describe, expect, it } from 'vitest';
import { ASSET_BY_ID, ASSETS, KIT_TICKERS } from '../../src/catalog/assets.ts';
import { CATEGORIES, validateCategories } from '../../src/catalog/categories.ts';
import { CURRENCIES, CURRENCY_BY_CODE, QUOTE_ASSETS } from '../../src/catalog/currencies.ts';

const KIT: [string, string, string][] = [
  ['LTC', 'litecoin', 'Litecoin'],
  ['DOGE', 'dogecoin', 'Dogecoin'],
  ['DGB', 'digibyte', 'DigiByte'],
  ['LKY', 'luckycoin', 'Luckycoin'],
  ['PEP', 'pepecoin', 'Pepecoin'],
  ['BELLS', 'bellscoin', 'Bellscoin'],
  ['DINGO', 'dingocoin', 'Dingocoin'],
  ['SHIC', 'shibacoin', 'Shibacoin'],
  ['JKC', 'junkcoin', 'Junkcoin'],
  ['CAT', 'catcoin', 'Catcoin'],
  ['FLOP', 'flopcoin', 'Flopcoin'],
  ['FBX', 'fairbrix', 'Fairbrix'],
  ['CRC', 'craftcoin', 'Craftcoin'],
  ['BQC', 'bbqcoin', 'BBQCoin'],
  ['BONK', 'bonkcoin', 'Bonkcoin'],
  ['EAC', 'earthcoin', 'Earthcoin'],
  ['NYC', 'newyorkcoin', 'NewYorkCoin'],
  ['CY', 'cyberyen', 'Cyberyen'],
  ['B1T', 'bit-b1t', 'Bit'],
];

describe('assets', () => {
  it('has at least 60 assets with unique ids and unique symbol/id pairs', () => {
    expect(ASSETS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(ASSETS.map((a) => a.id)).size).toBe(ASSETS.length);
    expect(new Set(ASSETS.map((a) => `${a.symbol}/${a.id}`)).size).toBe(ASSETS.length);
    expect(ASSET_BY_ID.size).toBe(ASSETS.length);
  });

  it('has the 19 kit coins with their tickers and names, in kit order', () => {
    expect(KIT_TICKERS).toEqual(KIT.map(([t]) => t));
    for (const [ticker, id, name] of KIT) {
      expect(ASSET_BY_ID.get(id)).toMatchObject({
        id,
        name,
        kitTicker: ticker,
        symbol: ticker.toLowerCase(),
      });
    }
    expect(ASSETS.filter((a) => a.kitTicker !== undefined)).toHaveLength(19);
    expect(ASSET_BY_ID.get('digibyte')?.hashingAlgorithm).toBe('multi-algo');
  });

  it('has well-formed ids, symbols, dates and numbers', () => {
    for (const a of ASSETS) {
      expect(a.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(a.symbol).toMatch(/^[a-z0-9]+$/);
      if (a.genesisDate !== null)
        expect(new Date(`${a.genesisDate}T00:00:00Z`).toISOString()).toContain(a.genesisDate);
      if (a.blockTimeMinutes !== null) expect(a.blockTimeMinutes).toBeGreaterThan(0);
      if (a.homepage !== null) expect(a.homepage).toMatch(/^https:\/\//);
    }
  });

  it('includes the majors with CoinGecko ids', () => {
    const majors = [
      'bitcoin',
      'ethereum',
      'tether',
      'usd-coin',
      'binancecoin',
      'solana',
      'ripple',
      'cardano',
      'tron',
    ];
    for (const id of [
      ...majors,
      'avalanche-2',
      'polkadot',
      'chainlink',
      'bitcoin-cash',
      'stellar',
      'monero',
      'dai',
    ]) {
      expect(ASSET_BY_ID.has(id), id).toBe(true);
    }
    expect(ASSETS.filter((a) => a.kitTicker === undefined).length).toBeGreaterThanOrEqual(43);
  });
});

describe('currencies', () => {
  it('has 160-170 unique lowercase codes', () => {
    expect(CURRENCIES.length).toBeGreaterThanOrEqual(160);
    expect(CURRENCIES.length).toBeLessThanOrEqual(170);
    expect(CURRENCY_BY_CODE.size).toBe(CURRENCIES.length);
    for (const c of CURRENCIES) expect(c.code).toMatch(/^[a-z]{3,4}$/);
  });

  it("covers CoinGecko's documented 62 vs_currencies", () => {
    const documented =
      'btc eth ltc bch bnb eos xrp xlm link dot yfi usd aed ars aud bdt bhd bmd brl cad chf clp cny czk dkk eur gbp ' +
      'gel hkd huf idr ils inr jpy krw kwd lkr mmk mxn myr ngn nok nzd php pkr pln rub sar sek sgd thb try twd uah vef ' +
      'vnd zar xdr xag xau bits sats';
    const codes = documented.split(' ');
    expect(codes).toHaveLength(62);
    for (const code of codes) expect(CURRENCY_BY_CODE.has(code), code).toBe(true);
  });

  it('gives crypto and unit currencies an existing asset, and fiat/metal none', () => {
    for (const c of CURRENCIES) {
      if (c.kind === 'crypto' || c.kind === 'unit')
        expect(ASSET_BY_ID.has(c.asset?.id ?? ''), c.code).toBe(true);
      else expect(c.asset, c.code).toBeUndefined();
    }
    expect(CURRENCY_BY_CODE.get('sats')).toMatchObject({
      kind: 'unit',
      asset: { id: 'bitcoin', scale: 1e-8 },
    });
    expect(CURRENCY_BY_CODE.get('bits')).toMatchObject({
      kind: 'unit',
      asset: { id: 'bitcoin', scale: 1e-6 },
    });
    expect(CURRENCY_BY_CODE.get('xau')?.kind).toBe('metal');
    expect(CURRENCY_BY_CODE.get('xag')?.kind).toBe('metal');
    expect(CURRENCY_BY_CODE.get('xdr')?.kind).toBe('fiat');
  });

  it('maps every quote asset to an existing asset, including stablecoins that are not currencies', () => {
    for (const [code, target] of QUOTE_ASSETS) {
      expect(ASSET_BY_ID.has(target.id), code).toBe(true);
      expect(target.scale).toBeGreaterThan(0);
    }
    expect(QUOTE_ASSETS.get('usdt')).toEqual({ id: 'tether', scale: 1 });
    expect(QUOTE_ASSETS.get('usdc')).toEqual({ id: 'usd-coin', scale: 1 });
    expect(QUOTE_ASSETS.get('dai')).toEqual({ id: 'dai', scale: 1 });
    expect(QUOTE_ASSETS.get('doge')).toEqual({ id: 'dogecoin', scale: 1 });
    expect(QUOTE_ASSETS.get('sats')).toEqual({ id: 'bitcoin', scale: 1e-8 });
    expect(QUOTE_ASSETS.has('usd')).toBe(false);
    expect(CURRENCY_BY_CODE.has('usdt')).toBe(false);
  });
});

describe('categories', () => {
  it('has at least 10 curated categories whose members all exist', () => {
    expect(CATEGORIES.length).toBeGreaterThanOrEqual(10);
    expect(validateCategories()).toEqual([]);
    for (const c of CATEGORIES) {
      expect(c.name).not.toBe('');
      expect(c.description).not.toBe('');
    }
  });

  it('lists the 19 kit coins in wallet-kit-coins', () => {
    const kit = CATEGORIES.find((c) => c.id === 'wallet-kit-coins');
    expect(kit?.members).toEqual(KIT.map(([, id]) => id));
  });

  it('reports unknown members, duplicates and bad slugs', () => {
    const bad = [
      { id: 'ok', name: 'Ok', description: 'd', members: ['bitcoin', 'bitcoin', 'nocoin'] },
      { id: 'ok', name: 'Ok', description: 'd', members: [] },
      { id: 'Bad Slug', name: 'B', description: 'd', members: ['bitcoin'] },
    ];
    expect(validateCategories(bad)).toEqual([
      'ok: duplicate member bitcoin',
      'ok: unknown asset nocoin',
      'ok: duplicate category id',
      'ok: has no members',
      'Bad Slug: id must be a lowercase slug',
    ]);
  });
});
