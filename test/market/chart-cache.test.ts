import { describe, expect, it } from 'vitest';
import type { MarketSnapshot } from '../../src/engine/snapshot.ts';
import type { AssetMarket, Bar } from '../../src/engine/types.ts';
import { ChartCache } from '../../src/market/charts.ts';

/**
 * The chart cache keeps the charts of the current snapshot only: entries are keyed by their snapshot's version, so
 * those of an older one are never read again, and kept they filled the cache's 500,000 points (~75 MB) with dead
 * charts under varied traffic (the soak benchmark, bench/README.md).
 */
const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 12);

/** A snapshot as the chart builder reads it: its time (the appended point) and, for `usd`, no rates. */
const snapshot = (computedAt: number) => ({ computedAt, rates: {} }) as unknown as MarketSnapshot;
const coin = (id: string) =>
  ({ id, price: { priceUsd: 2, volumeUsd: 10 }, marketCapUsd: null }) as unknown as AssetMarket;
/** `n` hourly bars before NOW: the store's history as `ReadBars` hands it over. */
const bars = (n: number): Bar[] =>
  Array.from({ length: n }, (_, i) => {
    const ts = NOW - (n - i) * HOUR;
    return {
      ts,
      open: 1,
      high: 1,
      low: 1,
      close: 1,
      openTs: ts,
      closeTs: ts,
      volumeUsd: 1,
      marketCapUsd: null,
    };
  });

const ask = (id: string) => ({
  coin: coin(id),
  code: 'usd',
  res: '1h' as const,
  spanKey: '2',
  from: NOW - 48 * HOUR,
  to: NOW,
});

describe('ChartCache', () => {
  it('builds a chart once per snapshot and lets go of the older snapshots’ charts at the next one', async () => {
    const charts = new ChartCache();
    const read = () => Promise.resolve(bars(48));
    const first = snapshot(NOW);
    for (let i = 0; i < 20; i++) await charts.series(first, ask(`c${i}`), read);
    await charts.series(first, ask('c0'), read);
    expect(charts.built()).toBe(20);
    const held = charts.cachedPoints();
    expect(held).toBeGreaterThanOrEqual(20 * 48);

    await charts.series(snapshot(NOW + 60_000), ask('c0'), read);
    expect(charts.built()).toBe(21);
    // Only the new snapshot's one chart is held.
    expect(charts.cachedPoints()).toBeGreaterThan(0);
    expect(charts.cachedPoints()).toBeLessThanOrEqual(held / 20);
  });
});
