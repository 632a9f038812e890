/**
 * `Query.marketHealth`: the health of the market data for the administrator dashboard — each ingestion source's
 * freshness and validation rejects (what `/healthz` reports), the tracked coins whose circulating supply is not
 * verified, and how the priced coins spread over the price-confidence bands. Reads the store only (never SQL), and
 * works before the first aggregation (no snapshot: no coins, empty bands) so a dashboard can show a starting service.
 */
import { DEFAULT_PRICE_RULES } from '../../src/engine/price.ts';
import type { AssetMarket } from '../../src/engine/types.ts';
import type { MarketsContext } from './context.ts';

/** The confidence bands, `[from, to)` each, the last one closed at 1. */
export const CONFIDENCE_BANDS: readonly (readonly [number, number])[] = [
  [0, 0.2],
  [0.2, 0.4],
  [0.4, 0.6],
  [0.6, 0.8],
  [0.8, 1],
];

export interface MarketHealthResult {
  computedAt: number | null;
  sources: {
    name: string;
    kind: string | null;
    lastError: string | null;
    failures: number;
    lastSeen: number | null;
    ageSeconds: number | null;
    fresh: boolean;
    rejected: number;
  }[];
  unverifiedSupply: AssetMarket[];
  confidence: { from: number; to: number; coins: number }[];
}

/** Index of the band `c` falls in (clamped into [0, 1]). */
export function bandOf(c: number): number {
  const v = Math.min(1, Math.max(0, c));
  const i = CONFIDENCE_BANDS.findIndex(([from, to]) => v >= from && v < to);
  return i === -1 ? CONFIDENCE_BANDS.length - 1 : i;
}

export function marketHealth(ctx: MarketsContext): MarketHealthResult {
  const now = ctx.now;
  // A source is fresh while its newest record is no older than the tickers the price engine still uses.
  const staleAfterMs = ctx.engine.priceRules?.maxAgeMs ?? DEFAULT_PRICE_RULES.maxAgeMs;
  const sources = (ctx.store.sources?.() ?? []).map((s) => {
    const age = s.lastSeen === null ? null : Math.max(0, now - s.lastSeen);
    return {
      name: s.name,
      kind: s.kind ?? null,
      lastError: s.lastError ?? null,
      failures: s.failures ?? 0,
      lastSeen: s.lastSeen,
      ageSeconds: age === null ? null : Math.round(age / 1000),
      fresh: age !== null && age <= staleAfterMs,
      rejected: s.rejected,
    };
  });
  const snap = ctx.store.snapshot();
  const counts = CONFIDENCE_BANDS.map(() => 0);
  const unverifiedSupply: AssetMarket[] = [];
  if (snap) {
    // Rank order (the coins that matter most first), then any coin the ranking does not hold.
    const seen = new Set<string>();
    for (const m of [...snap.ranked, ...snap.markets.values()]) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      if (!m.supply.verified) unverifiedSupply.push(m);
      if (m.price.priceUsd === null) continue;
      const i = bandOf(m.price.confidence ?? 0);
      counts[i] = (counts[i] ?? 0) + 1;
    }
  }
  return {
    computedAt: snap?.computedAt ?? null,
    sources,
    unverifiedSupply,
    confidence: CONFIDENCE_BANDS.map(([from, to], i) => ({ from, to, coins: counts[i] ?? 0 })),
  };
}
