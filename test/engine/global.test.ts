import { describe, expect, it } from 'vitest';
import { computeGlobal } from '../../src/engine/global.ts';
import type { AssetMarket, PriceChanges } from '../../src/engine/types.ts';

function market(
  id: string,
  o: {
    price?: number | null;
    cap?: number | null;
    vol?: number | null;
    ch24?: number | null;
    capCh?: number | null;
    venues?: number;
    symbol?: string;
  } = {},
): AssetMarket {
  const price = o.price === undefined ? 1 : o.price;
  const changes: PriceChanges = {
    '1h': null,
    '24h': o.ch24 ?? null,
    '7d': null,
    '14d': null,
    '30d': null,
    '60d': null,
    '200d': null,
    '1y': null,
  };
  return {
    id,
    symbol: o.symbol ?? id.slice(0, 3),
    name: id,
    price: {
      asset: id,
      priceUsd: price,
      volumeUsd: o.vol ?? null,
      baseVolume: 0,
      confidence: null,
      venues: o.venues ?? 0,
      tickersUsed: 0,
      droppedStale: 0,
      droppedOutlier: 0,
      droppedUnpriced: 0,
      lastUpdated: null,
    },
    supply: {
      circulating: null,
      verified: false,
      circulatingSources: 0,
      total: null,
      max: null,
      maxInfinite: false,
      updatedAt: null,
    },
    marketCapUsd: o.cap ?? null,
    fdvUsd: null,
    rank: null,
    high24hUsd: null,
    low24hUsd: null,
    priceChange24hUsd: null,
    changes,
    marketCapChange24hUsd: o.capCh ?? null,
    marketCapChangePct24h: null,
    ath: null,
    atl: null,
    sparkline7d: [],
  };
}

function mapOf(...ms: AssetMarket[]): Map<string, AssetMarket> {
  return new Map(ms.map((m) => [m.id, m]));
}

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
