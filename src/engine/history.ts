/**
 * Price history as bars at three resolutions (5 minutes, 1 hour, 1 day), and the chart granularity rule. Pure
 * functions over {@link AssetHistory}; the store persists bars and runs {@link rollup} when fine data ages
 * out.
 */
import type { AssetHistory, Bar, PricePoint, Resolution } from './types.ts';

/** One minute in milliseconds. */
export const MINUTE_MS = 60_000;
/** One hour in milliseconds. */
export const HOUR_MS = 60 * MINUTE_MS;
/** One UTC day in milliseconds (UNIX time has no leap seconds). */
export const DAY_MS = 24 * HOUR_MS;

/** Bucket length of each resolution, in milliseconds. */
export const RESOLUTION_MS: Readonly<Record<Resolution, number>> = {
  '5m': 5 * MINUTE_MS,
  '1h': HOUR_MS,
  '1d': DAY_MS,
};

/** Resolutions from finest to coarsest. */
export const RESOLUTIONS: readonly Resolution[] = ['5m', '1h', '1d'];

/** Longest span served from 5-minute bars (inclusive): 2 days. */
export const TWO_DAYS_MS = 2 * DAY_MS;
/** Longest span served from hourly bars (inclusive): 95 days. */
export const NINETY_FIVE_DAYS_MS = 95 * DAY_MS;

/**
 * How long fine bars are kept in memory: 2 days + 1 hour of 5-minute bars, 95 days + 1 day of hourly bars
 * (the slack keeps a chart of exactly 2 or 95 days fully covered while the oldest bucket ages out). Daily bars
 * are kept forever.
 */
export const RETENTION_MS: Readonly<{ '5m': number; '1h': number }> = {
  '5m': TWO_DAYS_MS + HOUR_MS,
  '1h': NINETY_FIVE_DAYS_MS + DAY_MS,
};

/** Start of the UTC-aligned bucket of `res` that contains `ts` (UNIX ms). */
export function bucketStart(ts: number, res: Resolution): number {
  const size = RESOLUTION_MS[res];
  return Math.floor(ts / size) * size;
}

/**
 * Resolution of a chart spanning `spanMs`: `'5m'` when span ≤ 2 days, `'1h'` when 2 days < span ≤ 95 days,
 * `'1d'` beyond (including `Infinity`, i.e. `days=max`). Throws `RangeError` on `NaN`.
 */
export function chartResolution(spanMs: number): Resolution {
  if (Number.isNaN(spanMs)) throw new RangeError('chart span must be a number of milliseconds');
  if (spanMs <= TWO_DAYS_MS) return '5m';
  if (spanMs <= NINETY_FIVE_DAYS_MS) return '1h';
  return '1d';
}

/** A history with no bars. */
export function emptyHistory(): AssetHistory {
  return { bars5m: [], bars1h: [], bars1d: [] };
}

/** The bar array of `history` at resolution `res` (the live array, not a copy). */
export function barsOf(history: AssetHistory, res: Resolution): Bar[] {
  return res === '5m' ? history.bars5m : res === '1h' ? history.bars1h : history.bars1d;
}

/** Index of the first bar whose `ts` is ≥ `ts` (`bars.length` when none); `bars` sorted by `ts`. */
export function lowerBound(bars: readonly Bar[], ts: number): number {
  let lo = 0;
  let hi = bars.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((bars[mid] as Bar).ts < ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first bar whose `ts` is > `ts` (`bars.length` when none); `bars` sorted by `ts`. */
export function upperBound(bars: readonly Bar[], ts: number): number {
  let lo = 0;
  let hi = bars.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((bars[mid] as Bar).ts <= ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Merges `bar` into `into` (a bar of resolution `res`, or undefined to start a new bucket). Open from the
 * earliest observation, close/volume/market cap from the latest (ties keep `into`), high = max, low = min.
 * Commutative and idempotent up to exact time ties. Throws `RangeError` when `bar` does not fall into the
 * bucket of `into`.
 */
export function combineBars(into: Bar | undefined, bar: Bar, res: Resolution): Bar {
  const ts = bucketStart(bar.ts, res);
  if (into === undefined)
    return {
      ts,
      open: bar.open,
      high: bar.high,
      low: bar.low,
      close: bar.close,
      openTs: bar.openTs,
      closeTs: bar.closeTs,
      volumeUsd: bar.volumeUsd,
      marketCapUsd: bar.marketCapUsd,
    };
  if (into.ts !== ts)
    throw new RangeError(`bar at ${bar.ts} is outside the ${res} bucket starting ${into.ts}`);
  const takeOpen = bar.openTs < into.openTs;
  const takeClose = bar.closeTs > into.closeTs;
  return {
    ts,
    open: takeOpen ? bar.open : into.open,
    openTs: takeOpen ? bar.openTs : into.openTs,
    high: Math.max(into.high, bar.high),
    low: Math.min(into.low, bar.low),
    close: takeClose ? bar.close : into.close,
    closeTs: takeClose ? bar.closeTs : into.closeTs,
    volumeUsd: takeClose ? bar.volumeUsd : into.volumeUsd,
    marketCapUsd: takeClose ? bar.marketCapUsd : into.marketCapUsd,
  };
}

/** Throws `RangeError` unless the point's ts is finite and its price finite and > 0. */
function assertPoint(point: PricePoint): void {
  if (!Number.isFinite(point.ts)) throw new RangeError('point ts must be a finite UNIX ms');
  if (!(Number.isFinite(point.priceUsd) && point.priceUsd > 0)) {
    throw new RangeError(`point price must be a finite number > 0, got ${point.priceUsd}`);
  }
}

/** A one-observation bar of `point`. */
function pointBar(point: PricePoint, res: Resolution): Bar {
  assertPoint(point);
  return foldPoint(undefined, point, bucketStart(point.ts, res));
}

/**
 * Folds one observation into `bar` (undefined starts the bucket) and returns a new bar; `bar` is not mutated.
 * The latest observation sets close, volume and market cap even when they are null (an unverified market cap
 * at the close is null). Throws `RangeError` for an invalid point or a point outside the bar's bucket.
 */
export function mergeBar(bar: Bar | undefined, point: PricePoint, res: Resolution): Bar {
  return combineBars(bar, pointBar(point, res), res);
}

/**
 * Downsamples `bars` (any finer resolution, any order) into `to` buckets with {@link combineBars}; returns
 * new bars sorted by `ts`. Rolling up 5-minute bars gives the same bars as folding their points directly into
 * `to`.
 */
export function rollup(bars: readonly Bar[], to: Resolution): Bar[] {
  const out = new Map<number, Bar>();
  for (const bar of bars) {
    const ts = bucketStart(bar.ts, to);
    out.set(ts, combineBars(out.get(ts), bar, to));
  }
  return [...out.values()].sort((a, b) => a.ts - b.ts);
}

const revisions = new WeakMap<readonly Bar[], number>();

/**
 * Counter bumped by {@link applyPoint} whenever it changes a bar array anywhere but at its tail (a late point
 * into an older bucket, a trim). Lets callers cache results over the unchanged prefix of an array (see
 * `derived.ts`).
 */
export function barsRevision(bars: readonly Bar[]): number {
  return revisions.get(bars) ?? 0;
}

function touch(bars: readonly Bar[]): void {
  revisions.set(bars, barsRevision(bars) + 1);
}

/**
 * `mergeBar(into, point, res)` for a point already checked and a bar of its bucket `ts` (or none), without the
 * one-observation bar in between: the same fields in the same order, the same values.
 */
function foldPoint(into: Bar | undefined, point: PricePoint, ts: number): Bar {
  const p = point.priceUsd;
  if (into === undefined) {
    return {
      ts,
      open: p,
      high: p,
      low: p,
      close: p,
      openTs: point.ts,
      closeTs: point.ts,
      volumeUsd: point.volumeUsd,
      marketCapUsd: point.marketCapUsd,
    };
  }
  const takeOpen = point.ts < into.openTs;
  const takeClose = point.ts > into.closeTs;
  return {
    ts,
    open: takeOpen ? p : into.open,
    openTs: takeOpen ? point.ts : into.openTs,
    high: Math.max(into.high, p),
    low: Math.min(into.low, p),
    close: takeClose ? p : into.close,
    closeTs: takeClose ? point.ts : into.closeTs,
    volumeUsd: takeClose ? point.volumeUsd : into.volumeUsd,
    marketCapUsd: takeClose ? point.marketCapUsd : into.marketCapUsd,
  };
}

function upsert(bars: Bar[], point: PricePoint, res: Resolution): void {
  const ts = bucketStart(point.ts, res);
  const last = bars[bars.length - 1];
  if (last === undefined || last.ts < ts) {
    bars.push(foldPoint(undefined, point, ts));
  } else if (last.ts === ts) {
    bars[bars.length - 1] = foldPoint(last, point, ts);
  } else {
    const i = lowerBound(bars, ts);
    const existing = bars[i];
    if (existing?.ts === ts) bars[i] = foldPoint(existing, point, ts);
    else bars.splice(i, 0, foldPoint(undefined, point, ts));
    touch(bars);
  }
}

/** Removes, from the front, bars whose bucket ended at or before `cutoff`. */
function trim(bars: Bar[], res: Resolution, cutoff: number): void {
  const n = upperBound(bars, cutoff - RESOLUTION_MS[res]);
  if (n > 0) {
    bars.splice(0, n);
    touch(bars);
  }
}

/**
 * Folds `point` into the 5-minute, hourly and daily bars of `history` in place (bars stay sorted; appending
 * is O(1), a late point is placed by binary search) and drops fine bars whose bucket ended more than
 * {@link RETENTION_MS} before `now`. A point already older than a window's retention is not added to that
 * window. Throws `RangeError` (before changing anything) when the point's ts is not finite or its price is
 * not a finite number > 0.
 */
export function applyPoint(history: AssetHistory, point: PricePoint, now: number): void {
  assertPoint(point);
  for (const res of RESOLUTIONS) {
    const bars = barsOf(history, res);
    if (res === '1d') {
      upsert(bars, point, res);
      continue;
    }
    const cutoff = now - RETENTION_MS[res];
    if (bucketStart(point.ts, res) + RESOLUTION_MS[res] > cutoff) upsert(bars, point, res);
    trim(bars, res, cutoff);
  }
}
