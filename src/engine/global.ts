/** Market-wide totals for `/global`. Totals count only coins with a verified market cap, and say how many. */
import type { AssetMarket } from './types.ts';

/** Number of coins in {@link GlobalMarket.marketCapPercentage}. */
export const DOMINANCE_TOP = 10;

/** `/global` figures in USD. */
export interface GlobalMarket {
  /** Assets with an aggregate price. */
  activeCryptocurrencies: number;
  /** Assets with a verified market cap: the coins the totals below are computed over. */
  verifiedCoins: number;
  /** Sum of market caps of verified coins; null when there is none. */
  totalMarketCapUsd: number | null;
  /**
   * Sum of 24h volumes of verified coins only (so that it describes the same set as the market cap total);
   * null when no verified coin has a volume.
   */
  totalVolumeUsd: number | null;
  /**
   * Share of {@link GlobalMarket.totalMarketCapUsd} in percent for the top 10 verified coins by market cap,
   * keyed by lowercase symbol like CoinGecko. When two of them share a symbol the larger keeps the key (fewer
   * than 10 keys).
   */
  marketCapPercentage: Record<string, number>;
  /**
   * `(Σ cap now − Σ cap 24h ago) / Σ cap 24h ago × 100` over coins with both a market cap and a 24h
   * market-cap change; null when there is none.
   */
  marketCapChangePercentage24hUsd: number | null;
  /** Sum of the venue counts of all assets (a venue listing several assets counts once per asset). */
  markets: number;
  /** `now` of the computation, UNIX ms. */
  updatedAt: number;
}

/** Computes the `/global` figures from `markets` (asset id → market) at `now`. */
export function computeGlobal(markets: ReadonlyMap<string, AssetMarket>, now: number): GlobalMarket {
  let active = 0;
  let venues = 0;
  let total: number | null = null;
  let volume: number | null = null;
  let capNow = 0;
  let capThen = 0;
  let paired = 0;
  const verified: AssetMarket[] = [];
  for (const m of markets.values()) {
    venues += m.price.venues;
    if (m.price.priceUsd !== null) active++;
    const cap = m.marketCapUsd;
    if (cap === null) continue;
    verified.push(m);
    total = (total ?? 0) + cap;
    if (m.price.volumeUsd !== null) volume = (volume ?? 0) + m.price.volumeUsd;
    if (m.marketCapChange24hUsd !== null) {
      paired++;
      capNow += cap;
      capThen += cap - m.marketCapChange24hUsd;
    }
  }

  const shares: [string, number][] = [];
  if (total !== null && total > 0) {
    const seen = new Set<string>();
    const top = verified
      .sort((a, b) => (b.marketCapUsd as number) - (a.marketCapUsd as number) || (a.id < b.id ? -1 : 1))
      .slice(0, DOMINANCE_TOP);
    for (const m of top) {
      const key = m.symbol.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      shares.push([key, ((m.marketCapUsd as number) / total) * 100]);
    }
  }

  return {
    activeCryptocurrencies: active,
    verifiedCoins: verified.length,
    totalMarketCapUsd: total,
    totalVolumeUsd: volume,
    // fromEntries defines own properties, so a symbol such as `constructor` cannot collide with
    // Object.prototype.
    marketCapPercentage: Object.fromEntries(shares),
    marketCapChangePercentage24hUsd: paired > 0 && capThen > 0 ? ((capNow - capThen) / capThen) * 100 : null,
    markets: venues,
    updatedAt: now,
  };
}
