import { describe, expect, it } from 'vitest';
import type { RateAt } from '../../src/engine/chart.ts';
import { buildChart, dailyCandles } from '../../src/engine/chart.ts';
import { DAY_MS } from '../../src/engine/history.ts';
import type { Bar } from '../../src/engine/types.ts';

const D0 = Date.UTC(2024, 2, 1);
const day = (i: number): number => D0 + i * DAY_MS;

function bar(
  ts: number,
  o: number,
  h: number,
  l: number,
  c: number,
  vol: number | null = 10,
  cap: number | null = 100,
): Bar {
  return {
    ts,
    open: o,
    high: h,
    low: l,
    close: c,
    openTs: ts + 1,
    closeTs: ts + DAY_MS - 1,
    volumeUsd: vol,
    marketCapUsd: cap,
  };
}

/** 1 USD per unit on day 0, 2 USD per unit from day 1 on, unknown on day 2, 4 from day 3. */
const rate: RateAt = (ts) => (ts < day(1) ? 1 : ts < day(2) ? 2 : ts < day(3) ? null : 4);

const bars = [
  bar(day(0), 8, 12, 6, 10),
  bar(day(1), 10, 30, 9, 20),
  bar(day(2), 20, 21, 19, 20),
  bar(day(3), 20, 50, 10, 40, null, null),
];

describe('buildChart', () => {
  it('stamps each bar with its bucket start and converts with the rate of that time', () => {
    const c = buildChart(bars, { from: day(0), to: day(3), rate });
    expect(c.prices).toEqual([
      [day(0), 10],
      [day(1), 10], // same USD-per-unit ratio on a day with a different rate converts differently: 20 / 2
      [day(2), null], // unknown rate → null, never 0
      [day(3), 10],
    ]);
    expect(c.market_caps).toEqual([
      [day(0), 100],
      [day(1), 50],
      [day(2), null],
      [day(3), null], // unverified market cap stays null
    ]);
    expect(c.total_volumes).toEqual([
      [day(0), 10],
      [day(1), 5],
      [day(2), null],
      [day(3), null],
    ]);
  });

  it('includes bars with from ≤ ts ≤ to only', () => {
    const c = buildChart(bars, { from: day(1), to: day(2), rate: () => 1 });
    expect(c.prices.map(([t]) => t)).toEqual([day(1), day(2)]);
    const none = buildChart(bars, { from: day(1) + 1, to: day(2) - 1, rate: () => 1 });
    expect(none).toEqual({ prices: [], market_caps: [], total_volumes: [] });
  });

  it('appends the "now" point when it is newer than the last bar and inside the range', () => {
    const latest = { asset: 'x', ts: day(3) + 5000, priceUsd: 44, volumeUsd: 8, marketCapUsd: null };
    const c = buildChart(bars, { from: day(0), to: day(4), rate, latest });
    expect(c.prices.at(-1)).toEqual([day(3) + 5000, 11]);
    expect(c.total_volumes.at(-1)).toEqual([day(3) + 5000, 2]);
    expect(c.market_caps.at(-1)).toEqual([day(3) + 5000, null]);
    expect(buildChart(bars, { from: day(0), to: day(3), rate, latest }).prices).toHaveLength(4);
    const stale = { ...latest, ts: day(3) };
    expect(buildChart(bars, { from: day(0), to: day(4), rate, latest: stale }).prices).toHaveLength(4);
    expect(buildChart(bars, { from: day(0), to: day(4), rate, latest: null }).prices).toHaveLength(4);
  });

  it('treats a non-positive or non-finite rate as unknown', () => {
    for (const r of [0, -1, NaN, Infinity]) {
      expect(buildChart(bars.slice(0, 1), { from: day(0), to: day(0), rate: () => r }).prices).toEqual([
        [day(0), null],
      ]);
    }
  });
});

describe('dailyCandles', () => {
  it('stamps candles with their close time and converts all four prices with that day’s rate', () => {
    const rows = dailyCandles(bars, { from: day(0), to: day(4), rate });
    expect(rows).toEqual([
      [day(1), 8, 12, 6, 10],
      [day(2), 5, 15, 4.5, 10],
      // day 2 has no rate: skipped, not zero-filled
      [day(4), 5, 12.5, 2.5, 10],
    ]);
  });

  it('selects completed days by close time and appends the open day from `today`', () => {
    const now = day(3) + 7 * 3_600_000;
    // bars[3] is the open day (it closes after `now`): only `today` may add it.
    const rows = dailyCandles(bars, { from: day(1), to: now, rate: () => 1 });
    expect(rows.map((r) => r[0])).toEqual([day(1), day(2), day(3)]);
    const today = bar(day(3), 20, 45, 15, 44);
    const withToday = dailyCandles(bars, { from: day(1), to: now, rate: () => 1, today });
    expect(withToday.at(-1)).toEqual([day(4), 20, 45, 15, 44]);
    expect(withToday).toHaveLength(4);
    const r = dailyCandles(bars, { from: day(1), to: now, rate, today });
    expect(r.at(-1)).toEqual([day(4), 5, 11.25, 3.75, 11]);
  });
});
