import type { AssetMarket, PriceChanges } from '../../src/engine/types.ts';

/** An `AssetMarket` with everything unknown except what the test sets (engine unit tests). */
export function market(
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
      status: 'no_source',
      readings: [],
      spread: null,
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

/** Markets keyed by id. */
export function mapOf(...ms: AssetMarket[]): Map<string, AssetMarket> {
  return new Map(ms.map((m) => [m.id, m]));
}
