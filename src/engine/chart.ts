/**
 * Chart series (`/coins/{id}/market_chart[/range]`) and OHLC candles (`/coins/{id}/ohlc[/range]`) from history
 * bars, converted to the requested currency with the rate of each point's own time.
 */
import { DAY_MS, lowerBound, upperBound } from './history.ts';
import type { Bar, PricePoint } from './types.ts';

/**
 * USD per one unit of the target currency at time `ts` (UNIX ms); 1 for `usd`; null when unknown. A USD value
 * converts as `usd / rate(ts)`.
 */
export type RateAt = (ts: number) => number | null;

/** The three CoinGecko chart arrays: `[timestamp_ms, value]`, value null when it cannot be verified. */
export interface ChartSeries {
  prices: [number, number | null][];
  market_caps: [number, number | null][];
  total_volumes: [number, number | null][];
}

/** Options of {@link buildChart}. */
export interface ChartOptions {
  /** First timestamp included, UNIX ms (inclusive). */
  from: number;
  /** Last timestamp included, UNIX ms (inclusive). */
  to: number;
  /** Conversion rate at a time; see {@link RateAt}. */
  rate: RateAt;
  /** The "now" point, appended when given, inside `[from, to]` and later than the last bar. Default: none. */
  latest?: PricePoint | null;
}

/** Options of {@link dailyCandles}. */
export interface CandleOptions {
  /** Earliest candle close time included, UNIX ms (inclusive). */
  from: number;
  /** Latest candle close time included for completed days, UNIX ms (inclusive). */
  to: number;
  /** Conversion rate at a time; see {@link RateAt}. */
  rate: RateAt;
  /** The current, still open daily bar; appended as the last candle when given. Default: none. */
  today?: Bar | null;
}

/** `usd / rate`, or null when either is unknown or the rate is not a finite number > 0. */
function convert(usd: number | null, rate: number | null): number | null {
  if (usd === null || rate === null || !(Number.isFinite(rate) && rate > 0)) return null;
  return usd / rate;
}

/**
 * Builds the chart arrays from `bars` (one resolution, sorted by `ts`; pick it with `chartResolution`).
 *
 * Each bar with `from ≤ bar.ts ≤ to` gives one point stamped with its bucket start (UTC aligned, so daily
 * points sit at 00:00 UTC like CoinGecko's) and holding the bar's closing price, market cap and volume.
 * Values are converted with `rate(bar.ts)`, the historical rate of the point's own time; a value is null
 * (never 0) when the rate or the USD figure is unknown. `latest` is appended as the final "now" point stamped
 * with its own time.
 */
export function buildChart(bars: readonly Bar[], opts: ChartOptions): ChartSeries {
  const out: ChartSeries = { prices: [], market_caps: [], total_volumes: [] };
  const push = (ts: number, price: number, cap: number | null, vol: number | null): void => {
    const r = opts.rate(ts);
    out.prices.push([ts, convert(price, r)]);
    out.market_caps.push([ts, convert(cap, r)]);
    out.total_volumes.push([ts, convert(vol, r)]);
  };
  const end = upperBound(bars, opts.to);
  let lastTs = -Infinity;
  for (let i = lowerBound(bars, opts.from); i < end; i++) {
    const bar = bars[i] as Bar;
    push(bar.ts, bar.close, bar.marketCapUsd, bar.volumeUsd);
    lastTs = bar.ts;
  }
  const p = opts.latest;
  if (p && p.ts > lastTs && p.ts >= opts.from && p.ts <= opts.to) {
    push(p.ts, p.priceUsd, p.marketCapUsd, p.volumeUsd);
  }
  return out;
}

/**
 * Daily OHLC rows `[close_time_ms, open, high, low, close]` from daily bars (sorted by `ts`). The timestamp
 * is the candle close, `bar.ts + 1 day` (CoinGecko convention). Completed days are included when that close
 * time lies in `[from, to]`; `today` (the open day) is appended after them, stamped with its coming close
 * time, when its day overlaps `[from, to]` and is later than the last completed day. All four prices of a day
 * are converted with the rate at the day's start, `rate(bar.ts)`; a day whose rate is unknown is skipped, not
 * zero-filled.
 */
export function dailyCandles(
  bars1d: readonly Bar[],
  opts: CandleOptions,
): [number, number, number, number, number][] {
  return candles(bars1d, DAY_MS, opts);
}

/**
 * OHLC rows of bars `widthMs` wide (hourly: `HOUR_MS`), by the rules of {@link dailyCandles}: stamped with the close
 * time `bar.ts + widthMs`, completed bars whose close lies in `[from, to]`, the open bar (`opts.today`) appended
 * when it overlaps, each converted with the rate at its start and skipped when that rate is unknown.
 */
export function candles(
  bars: readonly Bar[],
  widthMs: number,
  opts: CandleOptions,
): [number, number, number, number, number][] {
  const rows: [number, number, number, number, number][] = [];
  const row = (bar: Bar): void => {
    const r = opts.rate(bar.ts);
    if (r === null || !(Number.isFinite(r) && r > 0)) return;
    rows.push([bar.ts + widthMs, bar.open / r, bar.high / r, bar.low / r, bar.close / r]);
  };
  const end = upperBound(bars, opts.to - widthMs);
  let lastTs = -Infinity;
  for (let i = lowerBound(bars, opts.from - widthMs); i < end; i++) {
    const bar = bars[i] as Bar;
    row(bar);
    lastTs = bar.ts;
  }
  const t = opts.today;
  if (t && t.ts > lastTs && t.ts <= opts.to && t.ts + widthMs > opts.from) row(t);
  return rows;
}
