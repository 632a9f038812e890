/**
 * What the engine computes. All money figures are USD; conversion to another quote currency happens at read time
 * with `src/engine/currency.ts` (current rate) or the rate of the point's day (history).
 */

import type { SupplySourceKind } from '../ingest/types.ts';

/** Storage resolutions of the price history. */
export type Resolution = '5m' | '1h' | '1d';

/** One history bucket: OHLC of the aggregate USD price, plus the 24h volume and market cap at the close. */
export interface Bar {
  /** Bucket start, UNIX milliseconds (aligned to the resolution, UTC). */
  ts: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Time of the observation that set `open` / `close`, UNIX ms (merge order; keeps merges idempotent). */
  openTs: number;
  closeTs: number;
  /** 24h volume in USD at the close; null when unknown. */
  volumeUsd: number | null;
  /** Market cap in USD at the close; null when supply was unverified. */
  marketCapUsd: number | null;
}

/** One aggregate observation of an asset, produced by each engine tick and folded into bars. */
export interface PricePoint {
  asset: string;
  ts: number;
  priceUsd: number;
  volumeUsd: number | null;
  marketCapUsd: number | null;
}

/** In-memory history window of one asset, bars sorted by ts ascending. */
export interface AssetHistory {
  /** 5-minute bars, last 2 days (+ slack). */
  bars5m: Bar[];
  /** Hourly bars, last 95 days (+ slack). */
  bars1h: Bar[];
  /** Daily bars, all time. */
  bars1d: Bar[];
}

/** Percent changes of the price over the standard windows; null when history does not reach back. */
export interface PriceChanges {
  '1h': number | null;
  '24h': number | null;
  '7d': number | null;
  '14d': number | null;
  '30d': number | null;
  '60d': number | null;
  '200d': number | null;
  '1y': number | null;
}

export type ChangeWindow = keyof PriceChanges;

/** An extreme price with the time it happened. */
export interface Extreme {
  priceUsd: number;
  /** UNIX ms. */
  ts: number;
}

/** Outcome of aggregating one asset's tickers (see `src/engine/price.ts`). */
export interface PriceAggregate {
  asset: string;
  /** Volume-weighted median of eligible tickers in USD; null when no ticker is eligible. */
  priceUsd: number | null;
  /** Sum over eligible tickers of base volume × aggregate price; null when the price is null. */
  volumeUsd: number | null;
  /** Base-unit 24h volume over eligible tickers. */
  baseVolume: number;
  /** [0,1]; null when the price is null. */
  confidence: number | null;
  /** Distinct venues among eligible tickers. */
  venues: number;
  tickersUsed: number;
  droppedStale: number;
  droppedOutlier: number;
  /** Tickers whose quote could not be converted to USD. */
  droppedUnpriced: number;
  /** Newest eligible ticker time, UNIX ms; null when none. */
  lastUpdated: number | null;
}

/** Supply figures after verification (see `src/engine/supply.ts`). */
/** Why a circulating supply is, or is not, verified. */
export type SupplyStatus = 'verified' | 'single_source' | 'sources_disagree' | 'no_source';

/** One source's latest fresh circulating figure, and whether it is among the agreeing ones. */
export interface SupplyReading {
  source: string;
  sourceKind: SupplySourceKind;
  value: number;
  ts: number;
  /** In the agreeing cluster the verified figure is the median of. */
  agrees: boolean;
}

export interface SupplyFigures {
  /** Verified circulating supply (>= 2 independent sources agree within tolerance); null otherwise. */
  circulating: number | null;
  /** Whether `circulating` is verified (always true when non-null; kept for clarity in responses). */
  verified: boolean;
  /** Number of distinct sources that reported a circulating figure. */
  circulatingSources: number;
  /** Why `circulating` is verified or null. */
  status: SupplyStatus;
  /** Each source's circulating figure behind `status`, by source id. */
  readings: SupplyReading[];
  /** The widest deviation from the median among the readings, relative (0.094 = 9.4 %); null under two readings. */
  spread: number | null;
  /** Total supply when reported, else null. */
  total: number | null;
  /** Max supply when known, else null (null also for uncapped coins). */
  max: number | null;
  /** True when a source states there is no cap. */
  maxInfinite: boolean;
  /** Newest supply observation used, UNIX ms. */
  updatedAt: number | null;
}

/** Everything the APIs serve about one asset at one tick, in USD. */
export interface AssetMarket {
  id: string;
  symbol: string;
  name: string;
  price: PriceAggregate;
  supply: SupplyFigures;
  marketCapUsd: number | null;
  fdvUsd: number | null;
  /** 1-based rank by market cap among coins with a market cap; null otherwise. */
  rank: number | null;
  high24hUsd: number | null;
  low24hUsd: number | null;
  /** Absolute 24h price change in USD. */
  priceChange24hUsd: number | null;
  changes: PriceChanges;
  marketCapChange24hUsd: number | null;
  marketCapChangePct24h: number | null;
  ath: Extreme | null;
  atl: Extreme | null;
  /** Hourly USD closes over the last 7 days, oldest first. */
  sparkline7d: number[];
}

/** Tuning of the price aggregation (`price.ts` `aggregatePrices`). */
export interface PriceRules {
  /** A ticker older than this (`now - ts > maxAgeMs`) is stale; exactly `maxAgeMs` old is fresh. Default 15 min. */
  maxAgeMs: number;
  /** Outlier cut-off in MADs from the median. Default 5. */
  madK: number;
  /**
   * Minimum MAD as a fraction of the median, so identical prices do not make every deviation an outlier.
   * Default 0.002 (with `madK` 5: prices within 1 % of the median are never outliers).
   */
  madFloor: number;
}
