/**
 * The market-wide chart (`/global/market_cap_chart`): at each bucket of the chosen resolution, the sum of the market
 * caps of the coins whose market cap was verified in that bucket, and the sum of those same coins' 24h volumes (the
 * set `/global` totals over, docs/methodology.md "Global"). Pure; converted with the rate of each point's own time.
 */
import type { RateAt } from './chart.ts';
import type { Bar } from './types.ts';

/** CoinGecko's body: `[UNIX ms, value]` pairs; a value is null when no coin was verified then or the rate is unknown. */
export interface GlobalChart {
  market_cap: [number, number | null][];
  volume: [number, number | null][];
}

export interface GlobalChartOptions {
  /** First bucket start included, UNIX ms (inclusive). */
  from: number;
  /** Last bucket start included, UNIX ms (inclusive). */
  to: number;
  rate: RateAt;
  /** The "now" point (the current `/global` totals in USD), appended when later than the last bucket. */
  latest?: { ts: number; marketCapUsd: number | null; volumeUsd: number | null } | null;
}

/** Sums each bucket over the coins' bars (one resolution, each coin's bars sorted by `ts`). */
export function globalChart(barsByCoin: Iterable<readonly Bar[]>, opts: GlobalChartOptions): GlobalChart {
  const sums = new Map<number, { cap: number; vol: number; coins: number }>();
  for (const bars of barsByCoin) {
    for (const b of bars) {
      if (b.ts < opts.from || b.ts > opts.to) continue;
      let s = sums.get(b.ts);
      if (!s) sums.set(b.ts, (s = { cap: 0, vol: 0, coins: 0 }));
      if (b.marketCapUsd === null) continue;
      s.cap += b.marketCapUsd;
      s.vol += b.volumeUsd ?? 0;
      s.coins++;
    }
  }
  const out: GlobalChart = { market_cap: [], volume: [] };
  const push = (ts: number, cap: number | null, vol: number | null): void => {
    const r = opts.rate(ts);
    const ok = r !== null && Number.isFinite(r) && r > 0;
    out.market_cap.push([ts, ok && cap !== null ? cap / r : null]);
    out.volume.push([ts, ok && vol !== null ? vol / r : null]);
  };
  const times = [...sums.keys()].sort((a, b) => a - b);
  for (const ts of times) {
    const s = sums.get(ts)!;
    push(ts, s.coins > 0 ? s.cap : null, s.coins > 0 ? s.vol : null);
  }
  const l = opts.latest;
  if (l && l.ts > (times[times.length - 1] ?? -Infinity) && l.ts >= opts.from && l.ts <= opts.to)
    push(l.ts, l.marketCapUsd, l.marketCapUsd === null ? null : l.volumeUsd);
  return out;
}
