/**
 * One asset's aggregate from its convertible tickers: the per-asset half of `aggregatePrices` (`price.ts`), which
 * groups tickers by base and runs the quote-conversion passes. Sorts each asset's USD prices once and reads the
 * median, MAD, outlier cut and weighted median from that order.
 */
import type { Ticker } from '../ingest/types.ts';
import { confidenceScore } from './confidence.ts';
import type { PriceRules } from './types.ts';
import { madSorted, medianSorted, weightedMedianSorted } from './stats.ts';
import type { PriceAggregate } from './types.ts';
import type { Judgement } from './verdicts.ts';
import { V_OUTLIER, V_UNPRICED, V_USED } from './verdicts.ts';

/** With exactly two tickers, prices further apart than this (higher / lower - 1) cannot both be right. */
export const PAIR_MAX_SPREAD = 0.1;

type F64 = Float64Array;
type I32 = Int32Array;

// Per-asset buffers, reused across assets and calls (aggregateAsset never calls out, so they cannot be re-entered):
// USD price, base volume, volume share and ticker index of each eligible ticker of the asset being aggregated.
// P2, W2, TI2 and IDX are spares for sorting large groups.
let [P, P2, W, W2, SHARE] = [0, 0, 0, 0, 0].map(() => new Float64Array(64)) as [F64, F64, F64, F64, F64];
let [TI, TI2, IDX] = [0, 0, 0].map(() => new Int32Array(64)) as [I32, I32, I32];
// Distinct-venue count without a per-asset Set (clearing one reallocates it): venue → stamp of the last asset
// aggregation that saw it.
const VENUE_SEEN = new Map<string, number>();
let stamp = 0;

/** Grows the per-asset buffers to hold `n` tickers. */
export function reserveAssetBuffers(n: number): void {
  if (P.length >= n) return;
  [P, P2, W, W2, SHARE] = [0, 0, 0, 0, 0].map(() => new Float64Array(n)) as [F64, F64, F64, F64, F64];
  [TI, TI2, IDX] = [0, 0, 0].map(() => new Int32Array(n)) as [I32, I32, I32];
}

/** What {@link aggregateAsset} reads: the grouped tickers and the quote rates of the pass. */
export interface AssetContext {
  tickers: readonly Ticker[];
  now: number;
  rules: PriceRules;
  /** USD per quote unit by quote slot for the current pass (NaN: not convertible). */
  rate: Float64Array;
  start: Int32Array;
  order: Int32Array;
  slot: Int32Array;
  /** When given, each ticker's verdict and USD price are written here (the last aggregation of its asset wins). */
  judge?: Judgement | undefined;
}

/** The aggregate of an asset without an eligible ticker: every figure that needs a price is null. */
export function emptyAggregate(
  asset: string,
  stale: number,
  unpriced: number,
  outliers: number,
): PriceAggregate {
  return {
    asset,
    priceUsd: null,
    volumeUsd: null,
    baseVolume: 0,
    confidence: null,
    venues: 0,
    tickersUsed: 0,
    droppedStale: stale,
    droppedOutlier: outliers,
    droppedUnpriced: unpriced,
    lastUpdated: null,
  };
}

/**
 * Aggregates group g from its tickers convertible at `c.rate`: USD prices, outlier removal (MAD rule, or the
 * two-ticker rule), volume-weighted median, volume, venues, confidence. See `aggregatePrices` for the rules.
 */
export function aggregateAsset(c: AssetContext, g: number, asset: string, stale: number): PriceAggregate {
  const { tickers, rules, judge } = c;
  const from = c.start[g]!;
  const to = c.start[g + 1]!;
  let n = 0;
  for (let k = from; k < to; k++) {
    const t = c.order[k]!;
    const tk = tickers[t]!;
    const p = tk.last * c.rate[c.slot[t]!]!;
    if (judge) {
      judge.verdicts[t] = V_UNPRICED;
      judge.usd[t] = NaN;
    }
    if (!(p > 0 && p < Infinity)) continue;
    if (judge) judge.usd[t] = p;
    P[n] = p;
    W[n] = tk.baseVolume;
    TI[n] = t;
    n++;
  }
  const unpriced = to - from - n;
  if (n === 0) return emptyAggregate(asset, stale, unpriced, 0);
  sortByPrice(n);

  // The used tickers are P[lo..hi]: outliers are the extremes of the sorted prices.
  let lo = 0;
  let hi = n - 1;
  let m = medianSorted(P, 0, n);
  let dev = madSorted(P, m, 0, n);
  if (n >= 3) {
    const limit = rules.madK * Math.max(dev, rules.madFloor * m);
    while (lo <= hi && Math.abs(P[lo]! - m) > limit) lo++;
    while (hi >= lo && Math.abs(P[hi]! - m) > limit) hi--;
  } else if (n === 2 && P[1]! > P[0]! * (1 + PAIR_MAX_SPREAD)) {
    lo = hi = pairWinner(W[0]!, W[1]!, tickers[TI[0]!]!.ts, tickers[TI[1]!]!.ts);
  }
  if (judge) for (let i = 0; i < n; i++) judge.verdicts[TI[i]!] = i >= lo && i <= hi ? V_USED : V_OUTLIER;
  if (hi < lo) return emptyAggregate(asset, stale, unpriced, n);
  const used = hi - lo + 1;
  if (used < n) {
    m = medianSorted(P, lo, hi + 1);
    dev = madSorted(P, m, lo, hi + 1);
  }

  const priceUsd = weightedMedianSorted(P, W, lo, hi + 1);
  let baseVolume = 0;
  let lastUpdated = -Infinity;
  let ageSum = 0;
  let venues = 0;
  if (++stamp > 2 ** 30 || VENUE_SEEN.size > 100_000) {
    VENUE_SEEN.clear(); // bounded: venue ids are few, but ids are input
    stamp = 1;
  }
  for (let i = lo; i <= hi; i++) {
    const tk = tickers[TI[i]!]!;
    baseVolume += W[i]!;
    if (VENUE_SEEN.get(tk.venue) !== stamp) {
      VENUE_SEEN.set(tk.venue, stamp);
      venues++;
    }
    if (tk.ts > lastUpdated) lastUpdated = tk.ts;
    ageSum += rules.maxAgeMs > 0 ? Math.min(1, Math.max(0, (c.now - tk.ts) / rules.maxAgeMs)) : 0;
  }
  for (let i = lo; i <= hi; i++) SHARE[i] = baseVolume > 0 ? W[i]! / baseVolume : 1 / used;
  const confidence = confidenceScore({
    venues,
    dispersion: m > 0 ? dev / m : 0,
    volumeShares: SHARE.subarray(lo, hi + 1),
    meanAgeFraction: ageSum / used,
  });
  return {
    asset,
    priceUsd,
    volumeUsd: baseVolume * priceUsd,
    baseVolume,
    confidence,
    venues,
    tickersUsed: used,
    droppedStale: stale,
    droppedOutlier: n - used,
    droppedUnpriced: unpriced,
    lastUpdated,
  };
}

/** Sorts P[0..n-1] ascending, moving W and TI along. */
function sortByPrice(n: number): void {
  if (n <= 32) {
    for (let i = 1; i < n; i++) {
      const p = P[i]!;
      const w = W[i]!;
      const t = TI[i]!;
      let j = i - 1;
      for (; j >= 0 && P[j]! > p; j--) {
        P[j + 1] = P[j]!;
        W[j + 1] = W[j]!;
        TI[j + 1] = TI[j]!;
      }
      P[j + 1] = p;
      W[j + 1] = w;
      TI[j + 1] = t;
    }
    return;
  }
  const idx = IDX.subarray(0, n);
  for (let i = 0; i < n; i++) idx[i] = i;
  idx.sort((a, b) => P[a]! - P[b]!);
  for (let i = 0; i < n; i++) {
    const k = idx[i]!;
    P2[i] = P[k]!;
    W2[i] = W[k]!;
    TI2[i] = TI[k]!;
  }
  [P, P2, W, W2, TI, TI2] = [P2, P, W2, W, TI2, TI];
}

/** Index (0 or 1) of the ticker kept when two tickers disagree: more volume, then the newer, then the lower price. */
function pairWinner(w0: number, w1: number, ts0: number, ts1: number): number {
  if (w0 !== w1) return w0 > w1 ? 0 : 1;
  if (ts0 !== ts1) return ts0 > ts1 ? 0 : 1;
  return 0; // P[0] <= P[1]: the lower price
}
