import { describe, expect, it } from 'vitest';
import type { MarketSnapshot } from '../../src/engine/snapshot.ts';
import type { AssetMarket, Bar } from '../../src/engine/types.ts';
import { ChartCache, MAX_CACHED_BYTES, heldBytes } from '../../src/market/charts.ts';

/**
 * The chart cache keeps the charts of the current snapshot only: entries are keyed by their snapshot's version, so
 * those of an older one are never read again, and kept they filled the cache's bound with dead charts under varied
 * traffic (the soak benchmark, bench/README.md). Within a snapshot it holds MAX_CACHED_BYTES of charts by their
 * heap weight: its former bound, 500,000 points, let a burst of varied charts keep ~114 MB (issue 32).
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

const ask = (id: string, hours = 48) => ({
  coin: coin(id),
  code: 'usd',
  res: '1h' as const,
  spanKey: String(hours / 24),
  from: NOW - hours * HOUR,
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
    const held = charts.cachedBytes();
    expect(held).toBeGreaterThanOrEqual(20 * 48);

    await charts.series(snapshot(NOW + 60_000), ask('c0'), read);
    expect(charts.built()).toBe(21);
    // Only the new snapshot's one chart is held.
    expect(charts.cachedBytes()).toBeGreaterThan(0);
    expect(charts.cachedBytes()).toBeLessThanOrEqual(held / 20);
  });

  it('holds at most MAX_CACHED_BYTES of charts in one snapshot, the least recently used let go first', async () => {
    const charts = new ChartCache();
    const hours = 90 * 24; // hourly charts of 90 days: 2,160 points, ~490 KB each
    const read = () => Promise.resolve(bars(hours));
    const snap = snapshot(NOW);
    const first = await charts.series(snap, ask('c0', hours), read);
    const fit = Math.floor(MAX_CACHED_BYTES / heldBytes(first)); // 68
    for (let i = 1; i < fit + 10; i++) await charts.series(snap, ask(`c${i}`, hours), read);
    expect(charts.cachedBytes()).toBeLessThanOrEqual(MAX_CACHED_BYTES);
    expect(charts.built()).toBe(fit + 10);

    await charts.series(snap, ask(`c${fit + 9}`, hours), read); // the latest: still held
    expect(charts.built()).toBe(fit + 10);
    await charts.series(snap, ask('c0', hours), read); // the first: let go, built again
    expect(charts.built()).toBe(fit + 11);
  });
});
