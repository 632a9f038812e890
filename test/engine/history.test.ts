import { describe, expect, it } from 'vitest';
import {
  applyPoint,
  barsRevision,
  bucketStart,
  chartResolution,
  DAY_MS,
  emptyHistory,
  HOUR_MS,
  mergeBar,
  MINUTE_MS,
  NINETY_FIVE_DAYS_MS,
  RESOLUTION_MS,
  RETENTION_MS,
  rollup,
  TWO_DAYS_MS,
} from '../../src/engine/history.ts';
import type { Bar, PricePoint, Resolution } from '../../src/engine/types.ts';

const T0 = Date.UTC(2024, 0, 10); // a UTC midnight

function pt(
  ts: number,
  priceUsd: number,
  volumeUsd: number | null = 1000,
  marketCapUsd: number | null = 5000,
): PricePoint {
  return { asset: 'litecoin', ts, priceUsd, volumeUsd, marketCapUsd };
}

function fold(points: readonly PricePoint[], res: Resolution): Bar[] {
  const byBucket = new Map<number, Bar>();
  for (const p of points) {
    const b = bucketStart(p.ts, res);
    byBucket.set(b, mergeBar(byBucket.get(b), p, res));
  }
  return [...byBucket.values()].sort((a, b) => a.ts - b.ts);
}

/** Deterministic pseudo-random numbers in [0, 1). */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

describe('bucketStart', () => {
  it('aligns to UTC buckets of each resolution', () => {
    const ts = Date.UTC(2024, 0, 10, 13, 47, 12, 345);
    expect(bucketStart(ts, '5m')).toBe(Date.UTC(2024, 0, 10, 13, 45));
    expect(bucketStart(ts, '1h')).toBe(Date.UTC(2024, 0, 10, 13));
    expect(bucketStart(ts, '1d')).toBe(Date.UTC(2024, 0, 10));
    expect(bucketStart(Date.UTC(2024, 0, 10, 13, 45), '5m')).toBe(Date.UTC(2024, 0, 10, 13, 45));
    expect(RESOLUTION_MS).toEqual({ '5m': 300_000, '1h': 3_600_000, '1d': 86_400_000 });
  });
});

describe('chartResolution', () => {
  it('uses 5-minute bars up to exactly 2 days', () => {
    expect(TWO_DAYS_MS).toBe(2 * DAY_MS);
    expect(chartResolution(DAY_MS)).toBe('5m');
    expect(chartResolution(TWO_DAYS_MS)).toBe('5m');
    expect(chartResolution(TWO_DAYS_MS + 1)).toBe('1h');
  });

  it('uses hourly bars up to exactly 95 days, daily beyond', () => {
    expect(NINETY_FIVE_DAYS_MS).toBe(95 * DAY_MS);
    expect(chartResolution(90 * DAY_MS)).toBe('1h');
    expect(chartResolution(NINETY_FIVE_DAYS_MS)).toBe('1h');
    expect(chartResolution(NINETY_FIVE_DAYS_MS + 1)).toBe('1d');
    expect(chartResolution(Infinity)).toBe('1d');
    expect(() => chartResolution(NaN)).toThrow(RangeError);
  });
});

describe('mergeBar', () => {
  const points = [
    pt(T0 + 60_000, 10, 100, 1000),
    pt(T0 + 120_000, 14, 200, null),
    pt(T0 + 180_000, 8, 300, 3000),
    pt(T0 + 240_000, 11, null, 4000),
  ];

  it('takes open from the earliest, close/volume/cap from the latest, high max and low min', () => {
    const bar = fold(points, '5m')[0];
    expect(bar).toEqual({
      ts: T0,
      open: 10,
      openTs: T0 + 60_000,
      high: 14,
      low: 8,
      close: 11,
      closeTs: T0 + 240_000,
      volumeUsd: null,
      marketCapUsd: 4000,
    });
  });

  it('is idempotent: folding the same point again changes nothing', () => {
    let bar: Bar | undefined;
    for (const p of points) bar = mergeBar(bar, p, '5m');
    const once = bar;
    for (const p of points) bar = mergeBar(bar, p, '5m');
    expect(bar).toEqual(once);
    const single = mergeBar(undefined, points[1] as PricePoint, '1h');
    expect(mergeBar(single, points[1] as PricePoint, '1h')).toEqual(single);
  });

  it('gives the same bar for every order of the points', () => {
    const expected = fold(points, '5m');
    for (const order of permutations(points)) expect(fold(order, '5m')).toEqual(expected);
  });

  it('keeps the existing open/close on an exact time tie', () => {
    const a = mergeBar(undefined, pt(T0, 10), '5m');
    const b = mergeBar(a, pt(T0, 12), '5m');
    expect(b.open).toBe(10);
    expect(b.close).toBe(10);
    expect(b.high).toBe(12);
  });

  it('does not mutate its input and rejects a point outside the bucket or an invalid price', () => {
    const a = mergeBar(undefined, pt(T0, 10), '5m');
    const copy = { ...a };
    mergeBar(a, pt(T0 + 1000, 20), '5m');
    expect(a).toEqual(copy);
    expect(() => mergeBar(a, pt(T0 + 5 * MINUTE_MS, 20), '5m')).toThrow(RangeError);
    expect(() => mergeBar(undefined, pt(T0, 0), '5m')).toThrow(RangeError);
    expect(() => mergeBar(undefined, pt(T0, NaN), '5m')).toThrow(RangeError);
  });
});

describe('applyPoint', () => {
  it('folds a point into all three windows and keeps bars sorted with late points', () => {
    const h = emptyHistory();
    const now = T0 + 2 * HOUR_MS;
    for (const m of [0, 70, 10, 65, 5]) applyPoint(h, pt(T0 + m * MINUTE_MS, 100 + m), now);
    expect(h.bars5m.map((b) => b.ts)).toEqual([0, 5, 10, 65, 70].map((m) => T0 + m * MINUTE_MS));
    expect(h.bars1h.map((b) => b.ts)).toEqual([T0, T0 + HOUR_MS]);
    expect(h.bars1d).toHaveLength(1);
    const day = h.bars1d[0] as Bar;
    expect([day.open, day.high, day.low, day.close]).toEqual([100, 170, 100, 170]);
    expect(h.bars1h[0]).toMatchObject({ open: 100, close: 110, high: 110, low: 100 });
  });

  it('bumps the revision when an older bar changes, not when the tail does', () => {
    const h = emptyHistory();
    applyPoint(h, pt(T0, 1), T0);
    applyPoint(h, pt(T0 + 10 * MINUTE_MS, 2), T0);
    const rev = barsRevision(h.bars5m);
    applyPoint(h, pt(T0 + 11 * MINUTE_MS, 3), T0);
    expect(barsRevision(h.bars5m)).toBe(rev);
    applyPoint(h, pt(T0 + 1 * MINUTE_MS, 4), T0);
    expect(barsRevision(h.bars5m)).toBe(rev + 1);
  });

  it('trims fine bars past retention and keeps daily bars forever', () => {
    const h = emptyHistory();
    const start = T0;
    for (let t = start; t <= start + 100 * DAY_MS; t += HOUR_MS) applyPoint(h, pt(t, 1 + t / 1e12), t);
    const now = start + 100 * DAY_MS;
    const first5m = h.bars5m[0] as Bar;
    const first1h = h.bars1h[0] as Bar;
    // The bar starting at the cutoff still overlaps the window; the one an hour earlier ended at or before
    // it.
    expect(first5m.ts).toBe(now - RETENTION_MS['5m']);
    expect(h.bars5m).toHaveLength(49 + 1);
    expect(first1h.ts).toBe(now - RETENTION_MS['1h']);
    expect(h.bars1h).toHaveLength(96 * 24 + 1);
    expect(h.bars1d).toHaveLength(101);
    expect(h.bars1d[0]?.ts).toBe(start);
  });

  it('does not add a point older than a window retention to that window', () => {
    const h = emptyHistory();
    const now = T0 + 200 * DAY_MS;
    applyPoint(h, pt(T0, 5), now);
    expect(h.bars5m).toEqual([]);
    expect(h.bars1h).toEqual([]);
    expect(h.bars1d).toHaveLength(1);
    expect(() => applyPoint(h, pt(now, -1), now)).toThrow(RangeError);
    expect(h.bars1d).toHaveLength(1);
  });
});

describe('rollup', () => {
  const rnd = prng(42);
  const points: PricePoint[] = [];
  for (let i = 0; i < 3000; i++) {
    const ts = T0 + Math.floor(rnd() * 3 * DAY_MS);
    points.push(pt(ts, 50 + rnd() * 10, rnd() < 0.1 ? null : rnd() * 1e6, rnd() < 0.1 ? null : rnd() * 1e9));
  }

  it('rolling up 5-minute bars equals folding the points directly into hours and days', () => {
    const fine = fold(points, '5m');
    expect(rollup(fine, '1h')).toEqual(fold(points, '1h'));
    expect(rollup(fine, '1d')).toEqual(fold(points, '1d'));
    expect(rollup(rollup(fine, '1h'), '1d')).toEqual(fold(points, '1d'));
  });

  it('does not depend on the order of the input bars', () => {
    const fine = fold(points, '5m');
    const shuffled = [...fine];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j] as Bar, shuffled[i] as Bar];
    }
    expect(shuffled).not.toEqual(fine);
    expect(rollup(shuffled, '1h')).toEqual(fold(points, '1h'));
  });
});
