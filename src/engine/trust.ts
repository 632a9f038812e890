/**
 * Trust verdicts served with tickers and venues, derived only from the engine's own rules (its staleness and outlier
 * decisions, `verdicts.ts`) and the venue's own quote. Pure functions; documented for API users in
 * docs/methodology.md ("Tickers and venues: trust").
 *
 * Per ticker (CoinGecko's `trust_score`, `is_anomaly`, `is_stale`):
 * - `red`: dropped by the engine, as stale or as an outlier;
 * - `green`: used in the aggregate price, within {@link TRUST_RULES.maxDeviation} of it, and (when the venue quotes a
 *   bid and ask) with a spread of at most {@link TRUST_RULES.maxSpreadPct};
 * - `yellow`: used, but further from the aggregate or with a wider spread;
 * - null: not judged (its quote could not be converted to USD, or it is quoted in the asset itself).
 *
 * Per venue: `trustScore` = round(10 × used ÷ judged) over its judged tickers (used, outliers and stale ones), an
 * integer 0–10; null when none of its tickers was judged.
 */
import type { VenueKind } from '../ingest/types.ts';
import type { AssetMarket } from './types.ts';
import type { JudgedTicker, Verdict } from './verdicts.ts';

/** A ticker's trust colour, CoinGecko's values. */
export type TrustScore = 'green' | 'yellow' | 'red';

export const TRUST_RULES = Object.freeze({
  /** Largest distance of a green ticker's USD price from the aggregate price, relative (0.01 = 1 %). */
  maxDeviation: 0.01,
  /** Widest bid–ask spread of a green ticker, percent of the ask. */
  maxSpreadPct: 2,
});

/** What the served ticker says about itself. */
export interface TickerTrust {
  trustScore: TrustScore | null;
  /** True when dropped as an outlier, false when used; null when it was not judged for outliers. */
  isAnomaly: boolean | null;
  /** True when the engine's staleness rule dropped it (or would have, for a ticker quoted in its own asset). */
  isStale: boolean;
  /** The venue's bid–ask spread in percent of the ask; null without both. */
  spreadPct: number | null;
  /** Distance of its USD price from the aggregate price, relative; null when either is unknown. */
  deviation: number | null;
}

/** Bid–ask spread in percent of the ask; null unless the venue reports both sides and they are sane. */
export function spreadPct(bid: number | null, ask: number | null): number | null {
  return bid !== null && ask !== null && ask > 0 && ask >= bid ? ((ask - bid) / ask) * 100 : null;
}

/**
 * The trust verdict of one judged ticker against its asset's aggregate USD price (`aggregateUsd`, null when the
 * asset has none). `ageStale` says whether a ticker that was not judged (ignored) is older than the staleness limit.
 */
export function tickerTrust(j: JudgedTicker, aggregateUsd: number | null, ageStale: boolean): TickerTrust {
  const spread = spreadPct(j.ticker.bid, j.ticker.ask);
  const deviation =
    j.priceUsd !== null && aggregateUsd !== null && aggregateUsd > 0
      ? Math.abs(j.priceUsd - aggregateUsd) / aggregateUsd
      : null;
  const base = { spreadPct: spread, deviation };
  switch (j.verdict) {
    case 'stale':
      return { ...base, trustScore: 'red', isAnomaly: null, isStale: true };
    case 'outlier':
      return { ...base, trustScore: 'red', isAnomaly: true, isStale: false };
    case 'used': {
      const tight =
        deviation !== null &&
        deviation <= TRUST_RULES.maxDeviation &&
        (spread === null || spread <= TRUST_RULES.maxSpreadPct);
      return { ...base, trustScore: tight ? 'green' : 'yellow', isAnomaly: false, isStale: false };
    }
    case 'unpriced':
      return { ...base, trustScore: null, isAnomaly: null, isStale: false };
    case 'ignored':
      return { ...base, trustScore: null, isAnomaly: null, isStale: ageStale };
  }
}

/** Sort rank of a trust colour: green first, null last. */
export const TRUST_ORDER: Readonly<Record<TrustScore | 'null', number>> = {
  green: 0,
  yellow: 1,
  red: 2,
  null: 3,
};

/** One venue as the aggregation saw it. */
export interface VenueStats {
  /** Venue id (the ccxt exchange id, or the demo venue's). */
  id: string;
  kind: VenueKind;
  /** Tickers of the venue in the snapshot. */
  pairs: number;
  /** Distinct base assets among them. */
  coins: number;
  /** Tickers the engine judged (used, outliers, stale). */
  judged: number;
  /** Tickers used in an aggregate price. */
  used: number;
  /** 24h volume in USD over its fresh, converted tickers (used and outliers); null when it has none. */
  volumeUsd: number | null;
  /** The same over the tickers used in a price only (outliers left out); null when it has none. */
  normalizedVolumeUsd: number | null;
  /** round(10 × used ÷ judged), 0–10; null when nothing was judged. */
  trustScore: number | null;
  /** 1-based position by trust score (desc), then volume (desc), then id; null without a trust score. */
  trustScoreRank: number | null;
  /** Newest ticker time, UNIX ms. */
  lastUpdated: number;
}

const judgedVerdicts: ReadonlySet<Verdict> = new Set(['used', 'outlier', 'stale']);

/** Every venue of a snapshot's tickers with its figures, ranked by trust score, then volume, then id. */
export function venueStats(tickers: readonly JudgedTicker[]): VenueStats[] {
  const byVenue = new Map<string, { s: VenueStats; bases: Set<string> }>();
  for (const j of tickers) {
    const t = j.ticker;
    let v = byVenue.get(t.venue);
    if (!v) {
      v = {
        s: {
          id: t.venue,
          kind: t.venueKind,
          pairs: 0,
          coins: 0,
          judged: 0,
          used: 0,
          volumeUsd: null,
          normalizedVolumeUsd: null,
          trustScore: null,
          trustScoreRank: null,
          lastUpdated: t.ts,
        },
        bases: new Set(),
      };
      byVenue.set(t.venue, v);
    }
    const s = v.s;
    s.pairs++;
    v.bases.add(t.base);
    if (t.ts > s.lastUpdated) s.lastUpdated = t.ts;
    if (judgedVerdicts.has(j.verdict)) s.judged++;
    if (j.priceUsd === null) continue;
    const usd = t.baseVolume * j.priceUsd;
    if (j.verdict === 'used' || j.verdict === 'outlier') s.volumeUsd = (s.volumeUsd ?? 0) + usd;
    if (j.verdict === 'used') {
      s.used++;
      s.normalizedVolumeUsd = (s.normalizedVolumeUsd ?? 0) + usd;
    }
  }
  const out = [...byVenue.values()].map(({ s, bases }) => {
    s.coins = bases.size;
    s.trustScore = s.judged > 0 ? Math.round((10 * s.used) / s.judged) : null;
    return s;
  });
  out.sort(
    (a, b) =>
      (b.trustScore ?? -1) - (a.trustScore ?? -1) ||
      (b.volumeUsd ?? -1) - (a.volumeUsd ?? -1) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  let rank = 0;
  for (const s of out) if (s.trustScore !== null) s.trustScoreRank = ++rank;
  return out;
}

/** The aggregate USD price of a ticker's base asset, for {@link tickerTrust}. */
export const aggregateOf = (markets: ReadonlyMap<string, AssetMarket>, base: string): number | null =>
  markets.get(base)?.price.priceUsd ?? null;
