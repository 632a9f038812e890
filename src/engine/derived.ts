/**
 * Figures derived from an asset's aggregate price and its history: percent changes, 24h high/low, ATH/ATL and
 * the 7-day sparkline. Runs for every asset every tick, so lookups are binary searches and the all-time
 * extremes are cached per bar array (see {@link computeDerived}).
 */
import {
  barsRevision,
  bucketStart,
  DAY_MS,
  HOUR_MS,
  lowerBound,
  RESOLUTION_MS,
  upperBound,
} from './history.ts';
import type { AssetHistory, Bar, ChangeWindow, Extreme, PriceChanges, Resolution } from './types.ts';

/** Everything {@link computeDerived} returns; all money in USD. */
export interface Derived {
  changes: PriceChanges;
  /** price − reference price 24h ago; null when either is unknown. */
  priceChange24hUsd: number | null;
  /** Highest price over the last 24h (5-minute bars + current price); null when history is shorter than 24h. */
  high24hUsd: number | null;
  /** Lowest price over the last 24h; null like {@link Derived.high24hUsd}. */
  low24hUsd: number | null;
  ath: Extreme | null;
  atl: Extreme | null;
  /** Hourly closes of the last 168 hourly buckets (current one included), oldest first; gaps skipped. */
  sparkline7d: number[];
  /** Market cap at the 24h reference observation; null when it is unknown or was unverified then. */
  marketCap24hAgoUsd: number | null;
}

/** Length of each change window and the resolution its reference price is read from. */
export const CHANGE_WINDOWS: Readonly<Record<ChangeWindow, { ms: number; res: Resolution }>> = {
  '1h': { ms: HOUR_MS, res: '5m' },
  '24h': { ms: DAY_MS, res: '5m' },
  '7d': { ms: 7 * DAY_MS, res: '1h' },
  '14d': { ms: 14 * DAY_MS, res: '1h' },
  '30d': { ms: 30 * DAY_MS, res: '1h' },
  '60d': { ms: 60 * DAY_MS, res: '1h' },
  '200d': { ms: 200 * DAY_MS, res: '1d' },
  '1y': { ms: 365 * DAY_MS, res: '1d' },
};

/** Number of hourly points in a full sparkline. */
export const SPARKLINE_POINTS = 168;

/**
 * The reference bar for time `t`: the last bar whose close observation is at or before `t` (`closeTs ≤ t`),
 * provided that observation is at most one bucket of `res` older than `t`; otherwise undefined. Bars are
 * sorted, so `closeTs` increases with the index and a binary search finds it.
 */
export function referenceBar(bars: readonly Bar[], t: number, res: Resolution): Bar | undefined {
  let lo = 0;
  let hi = bars.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((bars[mid] as Bar).closeTs <= t) lo = mid + 1;
    else hi = mid;
  }
  const bar = bars[lo - 1];
  return bar !== undefined && t - bar.closeTs <= RESOLUTION_MS[res] ? bar : undefined;
}

function barsAt(h: AssetHistory, res: Resolution): readonly Bar[] {
  return res === '5m' ? h.bars5m : res === '1h' ? h.bars1h : h.bars1d;
}

function pct(price: number | null, ref: number | undefined): number | null {
  if (price === null || ref === undefined || !(ref > 0)) return null;
  return ((price - ref) / ref) * 100;
}

/** Time of an extreme inside a bar: `openTs` when the open set it, else `closeTs` (exact if the close did). */
function timeIn(bar: Bar, value: number): number {
  return value === bar.open ? bar.openTs : bar.closeTs;
}

interface Extremes {
  ath: Extreme | null;
  atl: Extreme | null;
}

/** Higher price wins; an equal price keeps the earlier time. */
function better(cur: Extreme | null, price: number, ts: number, high: boolean): Extreme | null {
  if (cur === null || (high ? price > cur.priceUsd : price < cur.priceUsd)) return { priceUsd: price, ts };
  if (price === cur.priceUsd && ts < cur.ts) return { priceUsd: price, ts };
  return cur;
}

function foldBars(acc: Extremes, bars: readonly Bar[], from: number, to: number): Extremes {
  let { ath, atl } = acc;
  for (let i = from; i < to; i++) {
    const bar = bars[i] as Bar;
    ath = better(ath, bar.high, timeIn(bar, bar.high), true);
    atl = better(atl, bar.low, timeIn(bar, bar.low), false);
  }
  return { ath, atl };
}

interface PrefixCache extends Extremes {
  n: number;
  first: Bar | undefined;
  last: Bar | undefined;
  rev: number;
}

const prefixes = new WeakMap<readonly Bar[], PrefixCache>();

/**
 * Extremes over all bars but the last (the live bucket), cached per array and extended incrementally. The
 * cache is dropped when the first bar, the last cached bar or {@link barsRevision} changed, i.e. whenever the
 * prefix may have changed through `applyPoint` or the array was replaced. Code that edits old bars in place
 * must replace the array.
 */
function closedExtremes(bars: readonly Bar[]): Extremes {
  const n = Math.max(bars.length - 1, 0);
  const rev = barsRevision(bars);
  let c = prefixes.get(bars);
  const valid = c && c.n <= n && c.rev === rev && bars[0] === c.first && bars[c.n - 1] === c.last;
  if (!c || !valid) c = { ath: null, atl: null, n: 0, first: undefined, last: undefined, rev };
  if (c.n < n) {
    const e = foldBars(c, bars, c.n, n);
    c = { ...e, n, first: bars[0], last: bars[n - 1], rev };
  }
  prefixes.set(bars, c);
  return c;
}

function extremes(h: AssetHistory, priceUsd: number | null, now: number): Extremes {
  let acc: Extremes = { ath: null, atl: null };
  for (const bars of [h.bars1d, h.bars1h, h.bars5m]) {
    const closed = closedExtremes(bars);
    if (closed.ath) acc.ath = better(acc.ath, closed.ath.priceUsd, closed.ath.ts, true);
    if (closed.atl) acc.atl = better(acc.atl, closed.atl.priceUsd, closed.atl.ts, false);
    acc = foldBars(acc, bars, Math.max(bars.length - 1, 0), bars.length);
  }
  if (priceUsd !== null) {
    acc = { ath: better(acc.ath, priceUsd, now, true), atl: better(acc.atl, priceUsd, now, false) };
  }
  return acc;
}

/**
 * Derives the changes, 24h range, ATH/ATL and sparkline of one asset at time `now` from its history `h` and
 * its current aggregate price (null when no ticker is eligible). `h` should already contain the current
 * point.
 *
 * - Change over window W: `(price − ref) / ref × 100`, `ref` = close of {@link referenceBar} at `now − W`
 *   in the resolution of {@link CHANGE_WINDOWS} (5m for 1h/24h, 1h for 7d–60d, 1d for 200d/1y); null when the
 *   price is null or no close lies within one bucket at or before `now − W`.
 * - 24h high/low: highs/lows of 5-minute bars overlapping `[now − 24h, now]` plus the current price; null
 *   unless the 24h reference exists (history reaches back 24h).
 * - ATH/ATL: over daily, hourly and 5-minute bars plus the current price (at `now`); ties keep the earliest
 *   time. The time is the bar's `openTs` when the open set the extreme, else its `closeTs`, so it is accurate
 *   to the finest bar still holding that moment (5 min for the last 2 days, 1 h for 95 days, the day before).
 */
export function computeDerived(h: AssetHistory, priceUsd: number | null, now: number): Derived {
  const change = (w: ChangeWindow): number | null => {
    const { ms, res } = CHANGE_WINDOWS[w];
    return pct(priceUsd, referenceBar(barsAt(h, res), now - ms, res)?.close);
  };
  const changes: PriceChanges = {
    '1h': change('1h'),
    '24h': change('24h'),
    '7d': change('7d'),
    '14d': change('14d'),
    '30d': change('30d'),
    '60d': change('60d'),
    '200d': change('200d'),
    '1y': change('1y'),
  };
  const ref24h = referenceBar(h.bars5m, now - DAY_MS, '5m');

  let high24hUsd: number | null = null;
  let low24hUsd: number | null = null;
  if (ref24h !== undefined) {
    const from = lowerBound(h.bars5m, bucketStart(now - DAY_MS, '5m'));
    const to = upperBound(h.bars5m, now);
    for (let i = from; i < to; i++) {
      const bar = h.bars5m[i] as Bar;
      high24hUsd = high24hUsd === null ? bar.high : Math.max(high24hUsd, bar.high);
      low24hUsd = low24hUsd === null ? bar.low : Math.min(low24hUsd, bar.low);
    }
    if (priceUsd !== null) {
      high24hUsd = high24hUsd === null ? priceUsd : Math.max(high24hUsd, priceUsd);
      low24hUsd = low24hUsd === null ? priceUsd : Math.min(low24hUsd, priceUsd);
    }
  }

  const sparkFrom = bucketStart(now, '1h') - (SPARKLINE_POINTS - 1) * HOUR_MS;
  const sparkline7d: number[] = [];
  for (let i = lowerBound(h.bars1h, sparkFrom), end = upperBound(h.bars1h, now); i < end; i++) {
    sparkline7d.push((h.bars1h[i] as Bar).close);
  }

  const { ath, atl } = extremes(h, priceUsd, now);
  return {
    changes,
    priceChange24hUsd: priceUsd !== null && ref24h !== undefined ? priceUsd - ref24h.close : null,
    high24hUsd,
    low24hUsd,
    ath,
    atl,
    sparkline7d,
    marketCap24hAgoUsd: ref24h?.marketCapUsd ?? null,
  };
}
