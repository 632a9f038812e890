import { describe, expect, it } from 'vitest';
import { computeGlobal } from '../../src/engine/global.ts';
import { market, mapOf } from '../support/market-fixture.ts';

const NOW = 1_717_243_200_000;

describe('computeGlobal', () => {
  it('counts totals over verified coins only and says how many', () => {
    const g = computeGlobal(
      mapOf(
        market('bitcoin', { symbol: 'BTC', cap: 600, vol: 100, capCh: 100, venues: 5 }),
        market('ethereum', { symbol: 'ETH', cap: 300, vol: 50, capCh: -60, venues: 4 }),
        market('litecoin', { symbol: 'LTC', cap: 100, vol: 10, venues: 3 }),
        market('meme', { cap: null, vol: 1_000_000, venues: 2 }),
        market('dead', { price: null }),
      ),
      NOW,
    );
    expect(g).toEqual({
      activeCryptocurrencies: 4,
      verifiedCoins: 3,
      totalMarketCapUsd: 1000,
      totalVolumeUsd: 160, // the unverified coin's volume is not counted
      marketCapPercentage: { btc: 60, eth: 30, ltc: 10 },
      // litecoin has no 24h market-cap change: (900 − 860) / 860
      marketCapChangePercentage24hUsd: expect.closeTo(4.651163, 5),
      markets: 14,
      updatedAt: NOW,
    });
  });

  it('keys the top 10 by lowercase symbol, the larger coin keeping a shared symbol', () => {
    const ms = Array.from({ length: 12 }, (_, i) => market(`coin${i}`, { symbol: `C${i}`, cap: 100 - i }));
    ms.push(
      market('twin', { symbol: 'c0', cap: 99.5 }),
      market('proto', { symbol: 'Constructor', cap: 1000 }),
    );
    const g = computeGlobal(mapOf(...ms), NOW);
    const keys = Object.keys(g.marketCapPercentage);
    expect(keys).toEqual(['constructor', 'c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']);
    expect(g.marketCapPercentage['c0']).toBeCloseTo((100 / (1000 + 99.5 + 1134)) * 100, 10);
    expect(g.verifiedCoins).toBe(14);
  });

  it('gives null totals, no shares and a null change when no coin is verified', () => {
    const g = computeGlobal(mapOf(market('meme', { vol: 5, venues: 1 })), NOW);
    expect(g).toMatchObject({
      activeCryptocurrencies: 1,
      verifiedCoins: 0,
      totalMarketCapUsd: null,
      totalVolumeUsd: null,
      marketCapPercentage: {},
      marketCapChangePercentage24hUsd: null,
      markets: 1,
    });
  });
});
