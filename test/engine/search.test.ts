import { describe, expect, it } from 'vitest';
import { createSearchIndex, searchAssets } from '../../src/engine/search.ts';

const assets = [
  { id: 'bitcoin', symbol: 'btc', name: 'Bitcoin', rank: 1 },
  { id: 'bitcoin-cash', symbol: 'bch', name: 'Bitcoin Cash', rank: 20 },
  { id: 'wrapped-bitcoin', symbol: 'wbtc', name: 'Wrapped Bitcoin', rank: 15 },
  { id: 'bitcoin-gold', symbol: 'btg', name: 'Bitcoin Gold', rank: null },
  { id: 'bitcoin-sv', symbol: 'bsv', name: 'Bitcoin SV', rank: null },
  { id: 'litecoin', symbol: 'ltc', name: 'Litecoin', rank: 12 },
  { id: 'btc-fake', symbol: 'xyz', name: 'BTC fake', rank: 900 },
  { id: 'abtc', symbol: 'abtc', name: 'A BTC', rank: 5 },
];
const ids = (q: string, limit?: number): string[] => searchAssets(q, assets, limit).map((a) => a.id);

describe('searchAssets', () => {
  it('orders exact, prefix, substring; by rank (null last) then id within a group', () => {
    // exact: bitcoin (id); prefix: bitcoin-cash (20), bitcoin-gold/-sv (null, by id); substring:
    // wrapped-bitcoin
    expect(ids('bitcoin')).toEqual([
      'bitcoin',
      'bitcoin-cash',
      'bitcoin-gold',
      'bitcoin-sv',
      'wrapped-bitcoin',
    ]);
    // exact symbol btc; prefix btc-fake (id), btc fake (name); substring: abtc (rank 5), wbtc (15)
    expect(ids('btc')).toEqual(['bitcoin', 'btc-fake', 'abtc', 'wrapped-bitcoin']);
  });

  it('is case-insensitive, trims the query and matches any of id, symbol and name', () => {
    expect(ids('  LiteCOIN ')).toEqual(['litecoin']);
    expect(ids('LTC')).toEqual(['litecoin']);
    expect(ids('wrapped bit')).toEqual(['wrapped-bitcoin']);
    expect(ids('a btc')).toEqual(['abtc']);
  });

  it('returns [] for an empty or blank query and respects the limit (25 by default)', () => {
    expect(ids('')).toEqual([]);
    expect(ids('   ')).toEqual([]);
    expect(ids('bitcoin', 2)).toEqual(['bitcoin', 'bitcoin-cash']);
    expect(ids('bitcoin', 0)).toEqual([]);
    const many = Array.from({ length: 40 }, (_, i) => ({
      id: `coin${i}`,
      symbol: `c${i}`,
      name: `Coin ${i}`,
      rank: i + 1,
    }));
    expect(searchAssets('coin', many)).toHaveLength(25);
  });

  it('gives the same results from a prebuilt index', () => {
    const index = createSearchIndex(assets);
    for (const q of ['bitcoin', 'btc', 'ltc', 'c'])
      expect(searchAssets(q, index)).toEqual(searchAssets(q, assets));
    expect(searchAssets('btc', index)[0]).toBe(assets[0]);
  });
});
