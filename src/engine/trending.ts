/**
 * Trending coins for `/search/trending`: coins whose 24h volume surges against their own recent daily
 * average, weighted by how much their price moved.
 */
import type { AssetMarket } from './types.ts';

/** One trending coin. */
export interface TrendingEntry {
  id: string;
  /** 0-based rank in the list, like CoinGecko's `score`. */
  score: number;
  /** 24h volume ÷ mean of the last (up to) 7 completed days' volumes. */
  surge: number;
  /** `1 + min(|24h change %|, 50) / 10`, in [1, 6]. */
  weight: number;
  /** `surge × weight`, the sort key. */
  value: number;
}

/** Options of {@link computeTrending}. */
export interface TrendingOptions {
  /** Maximum number of entries. Default 15 (CoinGecko's default). */
  limit?: number;
}

/** Days of volume history the average uses (the most recent ones). */
export const TRENDING_DAYS = 7;
/** Fewest valid days of volume history needed to be eligible. */
export const TRENDING_MIN_DAYS = 3;
/** |24h change| above this many percent adds no more weight. */
export const TRENDING_MOVE_CAP_PCT = 50;

/**
 * Ranks coins by volume surge weighted by price move:
 *
 * - `history` = the last 7 entries of `dailyVolumes(id)` (completed days' 24h volumes in USD, oldest
 *   first), ignoring entries that are not finite numbers ≥ 0;
 * - eligible when the coin has a price, a 24h volume and a 24h change, `history` has ≥ 3 entries and their
 *   mean > 0;
 * - `surge = volume24h / mean(history)`;
 * - `weight = 1 + min(|change24h %|, 50) / 10` — a move of 10% counts double a flat day, capped at ×6 so
 *   that a thin coin jumping 300% cannot outrank a real surge on its move alone;
 * - `value = surge × weight`; sorted by value descending, ties by id ascending; `score` is the 0-based
 *   position.
 *
 * Returns at most `opts.limit` (default 15) entries.
 */
export function computeTrending(
  markets: ReadonlyMap<string, AssetMarket>,
  dailyVolumes: (assetId: string) => readonly number[],
  opts: TrendingOptions = {},
): TrendingEntry[] {
  const limit = Math.max(0, Math.floor(opts.limit ?? 15));
  if (limit === 0) return [];
  const scored: Omit<TrendingEntry, 'score'>[] = [];
  for (const m of markets.values()) {
    const volume = m.price.volumeUsd;
    const change = m.changes['24h'];
    if (m.price.priceUsd === null || volume === null || change === null) continue;
    const history = dailyVolumes(m.id)
      .slice(-TRENDING_DAYS)
      .filter((v) => Number.isFinite(v) && v >= 0);
    if (history.length < TRENDING_MIN_DAYS) continue;
    const mean = history.reduce((s, v) => s + v, 0) / history.length;
    if (!(mean > 0)) continue;
    const surge = volume / mean;
    const weight = 1 + Math.min(Math.abs(change), TRENDING_MOVE_CAP_PCT) / 10;
    scored.push({ id: m.id, surge, weight, value: surge * weight });
  }
  scored.sort((a, b) => b.value - a.value || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return scored
    .slice(0, limit)
    .map((e, score) => ({ id: e.id, score, surge: e.surge, weight: e.weight, value: e.value }));
}
