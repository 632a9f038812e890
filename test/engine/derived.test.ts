import { describe, expect, it } from 'vitest';
import { computeDerived, referenceBar } from '../../src/engine/derived.ts';
import { applyPoint, DAY_MS, emptyHistory, HOUR_MS, MINUTE_MS } from '../../src/engine/history.ts';
import type { AssetHistory, Bar } from '../../src/engine/types.ts';

const STEP = 5 * MINUTE_MS;
/** Now: 2024-06-01 12:00 UTC. */
const NOW = Date.UTC(2024, 5, 1, 12);

/** A smooth, strictly increasing price path, so every reference time gives a distinct price. */
const f = (t: number): number => 100 + (t - NOW) / DAY_MS / 10 + 40;

/** Observations every 5 minutes (at bucket starts) from `from` to `to`, each folded at its own time. */
function build(
  from: number,
  to: number,
  price: (t: number) => number = f,
  mcap = (t: number) => price(t) * 1e6,
): AssetHistory {
  const h = emptyHistory();
  for (let t = from; t <= to; t += STEP) {
    applyPoint(h, { asset: 'x', ts: t, priceUsd: price(t), volumeUsd: 1, marketCapUsd: mcap(t) }, t);
  }
  return h;
}

const pctFrom = (ref: number): number => ((f(NOW) - ref) / ref) * 100;

describe('computeDerived: changes', () => {
  const h = build(NOW - 400 * DAY_MS, NOW);

  it('computes every window from the close at or before now − W in its resolution', () => {
    const d = computeDerived(h, f(NOW), NOW);
    // 5-minute bars hold one observation each, at the bucket start: the reference is exactly now − W.
    expect(d.changes['1h']).toBeCloseTo(pctFrom(f(NOW - HOUR_MS)), 10);
    expect(d.changes['24h']).toBeCloseTo(pctFrom(f(NOW - DAY_MS)), 10);
    // Hourly bars close at :55, so at now − W = hh:00 the reference is the previous hour's close, 5 minutes
    // earlier.
    for (const [w, days] of [
      ['7d', 7],
      ['14d', 14],
      ['30d', 30],
      ['60d', 60],
    ] as const) {
      expect(d.changes[w]).toBeCloseTo(pctFrom(f(NOW - days * DAY_MS - STEP)), 10);
    }
    // Daily bars close at 23:55: the reference for 12:00 is the previous day's close.
    const dailyRef = (days: number): number => f(Date.UTC(2024, 5, 1) - days * DAY_MS - STEP);
    expect(d.changes['200d']).toBeCloseTo(pctFrom(dailyRef(200)), 10);
    expect(d.changes['1y']).toBeCloseTo(pctFrom(dailyRef(365)), 10);
    expect(d.priceChange24hUsd).toBeCloseTo(f(NOW) - f(NOW - DAY_MS), 10);
    expect(d.marketCap24hAgoUsd).toBeCloseTo(f(NOW - DAY_MS) * 1e6, 4);
    expect(Object.values(d.changes).every((v) => v !== null && v > 0)).toBe(true);
  });

  it('is null for every window the history does not reach back to', () => {
    const short = build(NOW - 10 * DAY_MS, NOW);
    const d = computeDerived(short, f(NOW), NOW);
    expect(d.changes['1h']).not.toBeNull();
    expect(d.changes['24h']).not.toBeNull();
    expect(d.changes['7d']).not.toBeNull();
    expect(d.changes['14d']).toBeNull();
    expect(d.changes['30d']).toBeNull();
    expect(d.changes['60d']).toBeNull();
    expect(d.changes['200d']).toBeNull();
    expect(d.changes['1y']).toBeNull();

    const tiny = build(NOW - 30 * MINUTE_MS, NOW);
    const t = computeDerived(tiny, f(NOW), NOW);
    expect(Object.values(t.changes)).toEqual(Array(8).fill(null));
    expect(t.priceChange24hUsd).toBeNull();
    expect(t.marketCap24hAgoUsd).toBeNull();
  });

  it('is null when the history has a gap of more than one bucket at now − W', () => {
    const full = build(NOW - 2 * DAY_MS, NOW);
    const t = NOW - DAY_MS;
    const gap = { ...full, bars5m: full.bars5m.filter((b) => b.ts <= t - 2 * STEP || b.ts > t) };
    const d = computeDerived(gap, f(NOW), NOW);
    expect(d.changes['24h']).toBeNull();
    expect(d.high24hUsd).toBeNull();
    expect(d.changes['1h']).not.toBeNull();
    // One bucket back is still accepted.
    const edge = { ...full, bars5m: full.bars5m.filter((b) => b.ts <= t - STEP || b.ts > t) };
    expect(computeDerived(edge, f(NOW), NOW).changes['24h']).toBeCloseTo(pctFrom(f(t - STEP)), 10);
  });

  it('is null for all windows when the price is null', () => {
    const d = computeDerived(h, null, NOW);
    expect(Object.values(d.changes)).toEqual(Array(8).fill(null));
    expect(d.priceChange24hUsd).toBeNull();
    expect(d.ath).not.toBeNull();
  });

  it('accepts a reference at most one bucket older than now − W', () => {
    const bar = (closeTs: number): Bar => ({
      ts: closeTs - (closeTs % STEP),
      open: 1,
      high: 1,
      low: 1,
      close: 1,
      openTs: closeTs,
      closeTs,
      volumeUsd: null,
      marketCapUsd: null,
    });
    const t = NOW - HOUR_MS;
    expect(referenceBar([bar(t - STEP)], t, '5m')).toBeDefined();
    expect(referenceBar([bar(t - STEP - 1)], t, '5m')).toBeUndefined();
    expect(referenceBar([bar(t - STEP), bar(t + 1)], t, '5m')?.closeTs).toBe(t - STEP);
    expect(referenceBar([bar(t + 1)], t, '5m')).toBeUndefined();
  });
});

describe('computeDerived: 24h high/low', () => {
  it('uses 5-minute bars overlapping the last 24h plus the current price', () => {
    const h = build(NOW - 2 * DAY_MS, NOW, (t) =>
      t === NOW - 25 * HOUR_MS ? 999 : t === NOW - 3 * HOUR_MS ? 150 : 100,
    );
    const d = computeDerived(h, 101, NOW);
    expect(d.high24hUsd).toBe(150); // the 999 spike is 25h old
    expect(d.low24hUsd).toBe(100);
    expect(computeDerived(h, 200, NOW).high24hUsd).toBe(200);
    expect(computeDerived(h, 50, NOW).low24hUsd).toBe(50);
  });

  it('is null when the history does not reach back 24h', () => {
    const h = build(NOW - 20 * HOUR_MS, NOW);
    const d = computeDerived(h, f(NOW), NOW);
    expect(d.high24hUsd).toBeNull();
    expect(d.low24hUsd).toBeNull();
  });
});

describe('computeDerived: ATH/ATL', () => {
  const day = (i: number): number => Date.UTC(2023, 0, 1) + i * DAY_MS;
  const daily = (i: number, o: number, hi: number, lo: number, c: number): Bar => ({
    ts: day(i),
    open: o,
    high: hi,
    low: lo,
    close: c,
    openTs: day(i) + 1000,
    closeTs: day(i) + DAY_MS - 1000,
    volumeUsd: null,
    marketCapUsd: null,
  });

  it('reports the extreme price with the time of the bar that set it', () => {
    const h: AssetHistory = {
      bars1d: [
        daily(0, 10, 12, 5, 11),
        daily(1, 11, 40, 9, 20),
        daily(2, 20, 20, 3, 4),
        daily(3, 4, 8, 4, 8),
      ],
      bars1h: [],
      bars5m: [],
    };
    const d = computeDerived(h, 7, day(4));
    expect(d.ath).toEqual({ priceUsd: 40, ts: day(1) + DAY_MS - 1000 }); // intermediate high → closeTs
    expect(d.atl).toEqual({ priceUsd: 3, ts: day(2) + DAY_MS - 1000 });
    // A low set by the open carries the open time.
    const h2: AssetHistory = {
      bars1d: [daily(0, 2, 12, 2, 11), daily(1, 11, 11, 11, 11)],
      bars1h: [],
      bars5m: [],
    };
    expect(computeDerived(h2, null, day(2)).atl).toEqual({ priceUsd: 2, ts: day(0) + 1000 });
  });

  it('prefers the finer bar holding the same extreme, and the current price when beyond', () => {
    const hourly: Bar = {
      ...daily(1, 30, 40, 30, 35),
      ts: day(1) + 5 * HOUR_MS,
      openTs: day(1) + 5 * HOUR_MS,
      closeTs: day(1) + 6 * HOUR_MS - 1,
    };
    const h: AssetHistory = {
      bars1d: [daily(0, 10, 12, 5, 11), daily(1, 11, 40, 9, 20)],
      bars1h: [hourly],
      bars5m: [],
    };
    expect(computeDerived(h, 15, day(2)).ath).toEqual({ priceUsd: 40, ts: day(1) + 6 * HOUR_MS - 1 });
    expect(computeDerived(h, 41, day(2)).ath).toEqual({ priceUsd: 41, ts: day(2) });
    expect(computeDerived(h, 4, day(2)).atl).toEqual({ priceUsd: 4, ts: day(2) });
    expect(computeDerived(emptyHistory(), null, day(2)).ath).toBeNull();
  });

  it('stays correct across ticks, late points into old days and replaced arrays (cache)', () => {
    const h = build(NOW - 3 * DAY_MS, NOW - DAY_MS, () => 100);
    expect(computeDerived(h, 100, NOW).ath?.priceUsd).toBe(100);
    // A late observation lands in an older day (not the tail): the ATH must see it.
    applyPoint(
      h,
      { asset: 'x', ts: NOW - 2.5 * DAY_MS + 1, priceUsd: 500, volumeUsd: 1, marketCapUsd: null },
      NOW - DAY_MS,
    );
    expect(computeDerived(h, 100, NOW).ath).toEqual({ priceUsd: 500, ts: NOW - 2.5 * DAY_MS + 1 });
    // New days appended later extend the cached prefix.
    for (let t = NOW - DAY_MS + STEP; t <= NOW; t += STEP) {
      applyPoint(
        h,
        { asset: 'x', ts: t, priceUsd: t === NOW - HOUR_MS ? 1 : 100, volumeUsd: 1, marketCapUsd: null },
        t,
      );
      computeDerived(h, 100, t);
    }
    expect(computeDerived(h, 100, NOW).atl).toEqual({ priceUsd: 1, ts: NOW - HOUR_MS });
    const fresh = { bars1d: [...h.bars1d], bars1h: [...h.bars1h], bars5m: [...h.bars5m] };
    expect(computeDerived(h, 100, NOW)).toEqual(computeDerived(fresh, 100, NOW));
  });
});

describe('computeDerived: sparkline', () => {
  it('has the hourly closes of the last 168 hours, oldest first, skipping missing hours', () => {
    const h = build(NOW - 10 * DAY_MS, NOW);
    const d = computeDerived(h, f(NOW), NOW);
    expect(d.sparkline7d).toHaveLength(168);
    expect(d.sparkline7d[0]).toBeCloseTo(f(NOW - 167 * HOUR_MS + 55 * MINUTE_MS), 10);
    expect(d.sparkline7d[167]).toBe(f(NOW));
    const gap = {
      ...h,
      bars1h: h.bars1h.filter((b) => b.ts !== NOW - 5 * HOUR_MS && b.ts !== NOW - 6 * HOUR_MS),
    };
    const g = computeDerived(gap, f(NOW), NOW).sparkline7d;
    expect(g).toHaveLength(166);
    expect(g).toEqual(d.sparkline7d.filter((_, i) => i !== 167 - 5 && i !== 167 - 6));
  });
});
