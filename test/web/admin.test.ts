/**
 * Pure helpers of the administrator dashboard (src/web/pages/admin/logic.ts) and the candlestick geometry
 * (src/web/shared/candles.tsx): review-form checks, the chart-granularity rule and its measurement, the request
 * statistics series and the chart labels.
 */
import { describe, expect, it } from 'vitest';
import {
  bandLabel,
  checkLimit,
  checkNote,
  compactCost,
  costBars,
  expectedGranularity,
  formatDuration,
  formatPrice,
  measureGranularity,
  minutesOf,
  perPlanSeries,
  plansOf,
  planTotals,
  mailtoHref,
  shortAddress,
  SPANS,
  totalSeries,
} from '../../src/web/pages/admin/logic.ts';
import type { PlanMinute } from '../../src/web/pages/admin/logic.ts';
import { candleGeometry } from '../../src/web/shared/candles.tsx';

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 21, 0, 0, 0);

describe('review forms', () => {
  it('requires a reason or notes, not blank, within the server limit', () => {
    expect(checkNote('', 'reason')).toMatch(/^Write a reason/);
    expect(checkNote('   \n ', 'reason')).toMatch(/^Write a reason/);
    expect(checkNote('', 'notes')).toMatch(/^Write notes/);
    expect(checkNote('Known developer.', 'reason')).toBeNull();
    expect(checkNote('x'.repeat(500), 'reason')).toBeNull();
    expect(checkNote('x'.repeat(501), 'reason')).toBe('Keep it to 500 characters (now 501).');
    expect(checkNote('x'.repeat(2000), 'notes')).toBeNull();
    expect(checkNote('x'.repeat(2001), 'notes')).toBe('Keep it to 2,000 characters (now 2,001).');
    // Surrounding space does not count.
    expect(checkNote(`  ${'x'.repeat(500)}  `, 'reason')).toBeNull();
  });

  it("checks an enterprise key's limit: empty keeps it, else a whole number 1–10,000", () => {
    expect(checkLimit('')).toEqual({ ok: true, value: undefined });
    expect(checkLimit(' 250 ')).toEqual({ ok: true, value: 250 });
    expect(checkLimit('10000')).toEqual({ ok: true, value: 10_000 });
    for (const bad of ['0', '10001', '1.5', '-3', 'abc', '1e3'])
      expect(checkLimit(bad), bad).toMatchObject({ ok: false });
  });

  it('shortens long addresses only', () => {
    expect(shortAddress('ltc1qxyzxyzxyzxyzxyzxyzxyzxyz0123456')).toBe('ltc1qxyzxy…123456');
    expect(shortAddress('LShort')).toBe('LShort');
  });

  it('mailto links are built by encoding: a stored address cannot add a query, recipients or escapes', () => {
    expect(mailtoHref('team@dice.example')).toBe('mailto:team@dice.example');
    expect(mailtoHref("o'brien+dev@dice.example")).toBe("mailto:o'brien%2Bdev@dice.example");
    const trick = mailtoHref('?cc=victim%40x.example&body=hi@evil.example');
    expect(trick).toBe('mailto:%3Fcc%3Dvictim%2540x.example%26body%3Dhi@evil.example');
    const url = new URL(trick);
    expect(url.search).toBe('');
    expect(decodeURIComponent(url.pathname)).toBe('?cc=victim%40x.example&body=hi@evil.example');
    expect(new URL(mailtoHref('a@b.example?subject=x')).search).toBe('');
    expect(mailtoHref('no-at-sign?x')).toBe('mailto:no-at-sign%3Fx');
  });
});

describe('chart granularity', () => {
  it('follows the rule: 5-minute up to 2 days, hourly up to 95 days, daily beyond', () => {
    expect([1, 2, 3, 7, 30, 90, 95, 96, 365].map(expectedGranularity)).toEqual([
      '5-minute',
      '5-minute',
      'hourly',
      'hourly',
      'hourly',
      'hourly',
      'hourly',
      'daily',
      'daily',
    ]);
    expect(SPANS.map(expectedGranularity)).toEqual(['5-minute', 'hourly', 'hourly', 'hourly', 'daily']);
  });

  const series = (step: number, n: number, last: number) => [
    ...Array.from({ length: n }, (_, i) => T0 + i * step),
    T0 + (n - 1) * step + last,
  ];

  it('measures the spacing of the bucket points, the current value (last point) left out', () => {
    // 288 five-minute buckets, then the current value 37 seconds after the last one.
    const m5 = measureGranularity(series(5 * MIN, 288, 37_000));
    expect(m5).toEqual({ points: 289, medianMs: 5 * MIN, granularity: '5-minute' });
    expect(measureGranularity(series(HOUR, 168, 20 * MIN))).toMatchObject({
      medianMs: HOUR,
      granularity: 'hourly',
    });
    expect(measureGranularity(series(DAY, 30, 11 * HOUR))).toMatchObject({
      medianMs: DAY,
      granularity: 'daily',
    });
  });

  it('takes the median, so a gap in the history does not change the answer', () => {
    const times = series(HOUR, 100, MIN);
    times.splice(40, 10); // ten hours missing
    expect(measureGranularity(times)).toMatchObject({ medianMs: HOUR, granularity: 'hourly' });
  });

  it('says so when there are too few points or the spacing matches no resolution', () => {
    expect(measureGranularity([])).toEqual({ points: 0, medianMs: null, granularity: null });
    expect(measureGranularity([T0])).toEqual({ points: 1, medianMs: null, granularity: null });
    // Two points: both are kept (the gap is all there is).
    expect(measureGranularity([T0, T0 + DAY])).toMatchObject({ granularity: 'daily' });
    expect(measureGranularity(series(15 * MIN, 50, 0))).toMatchObject({
      medianMs: 15 * MIN,
      granularity: null,
    });
  });

  it('formats durations for people', () => {
    expect(formatDuration(4_000)).toBe('4 s');
    expect(formatDuration(5 * MIN)).toBe('5 min');
    expect(formatDuration(HOUR)).toBe('1 h');
    expect(formatDuration(90 * MIN)).toBe('1 h 30 min');
    expect(formatDuration(DAY)).toBe('24 h');
    expect(formatDuration(3 * DAY + 4 * HOUR)).toBe('3 d 4 h');
    expect(formatDuration(7 * DAY)).toBe('7 d');
  });
});

describe('request statistics', () => {
  const row = (minute: number, plan: string, o: Partial<PlanMinute> = {}): PlanMinute => ({
    minute: new Date(T0 + minute * MIN).toISOString(),
    plan,
    requests: 0,
    clientErrors: 0,
    serverErrors: 0,
    rateLimited: 0,
    unauthorized: 0,
    ...o,
  });
  const rows = [
    row(1, 'pro', { requests: 7, rateLimited: 2 }),
    row(1, 'keyless', { requests: 3, clientErrors: 1 }),
    row(3, 'keyless', { requests: 5, serverErrors: 2, unauthorized: 4 }),
    row(2, 'partner-x', { requests: 1 }),
  ];

  it('lists every minute of the window', () => {
    expect(minutesOf(T0 + 30_000, T0 + 3 * MIN)).toEqual([T0, T0 + MIN, T0 + 2 * MIN]);
    expect(minutesOf(T0, T0)).toEqual([]);
    expect(minutesOf(T0 - DAY, T0).length).toBe(1440);
  });

  it('orders plans keyless, free, pro, enterprise, then others', () => {
    expect(plansOf(rows)).toEqual(['keyless', 'pro', 'partner-x']);
  });

  it('gives one series per plan with zeros for the minutes without requests', () => {
    const s = perPlanSeries(rows, T0, T0 + 5 * MIN, (r) => r.requests);
    expect(s.map((p) => p.plan)).toEqual(['keyless', 'pro', 'partner-x']);
    expect(s[0]?.points).toEqual([0, 3, 0, 5, 0].map((y, i) => ({ x: T0 + i * MIN, y })));
    expect(s[1]?.points.map((p) => p.y)).toEqual([0, 7, 0, 0, 0]);
    const errors = perPlanSeries(rows, T0, T0 + 5 * MIN, (r) => r.clientErrors + r.serverErrors);
    expect(errors[0]?.points.map((p) => p.y)).toEqual([0, 1, 0, 2, 0]);
    expect(perPlanSeries([], T0, T0 + 5 * MIN, (r) => r.requests)).toEqual([]);
  });

  it('sums over plans per minute; nothing at all → no points (the chart says "no data yet")', () => {
    expect(totalSeries(rows, T0, T0 + 4 * MIN, (r) => r.rateLimited).map((p) => p.y)).toEqual([0, 2, 0, 0]);
    expect(totalSeries(rows, T0, T0 + 4 * MIN, (r) => r.unauthorized).map((p) => p.y)).toEqual([0, 0, 0, 4]);
    expect(totalSeries([], T0, T0 + 4 * MIN, (r) => r.requests)).toEqual([]);
  });

  it('totals the window per plan', () => {
    expect(planTotals(rows)).toEqual([
      { plan: 'keyless', requests: 8, errors: 3, rateLimited: 0, unauthorized: 4 },
      { plan: 'pro', requests: 7, errors: 0, rateLimited: 2, unauthorized: 0 },
      { plan: 'partner-x', requests: 1, errors: 0, rateLimited: 0, unauthorized: 0 },
    ]);
  });

  it("labels the cost histogram's buckets: short upper bounds for the chart, exact ranges for the table", () => {
    const bars = costBars([
      { upTo: 0, count: 1 },
      { upTo: 10, count: 2 },
      { upTo: 11, count: 0 },
      { upTo: 2500, count: 3 },
      { upTo: 20000, count: 0 },
      { upTo: null, count: 4 },
    ]);
    expect(bars).toEqual([
      { label: '≤ 0', range: 'up to 0', value: 1 },
      { label: '≤ 10', range: '1–10', value: 2 },
      { label: '≤ 11', range: '11', value: 0 },
      { label: '≤ 2.5k', range: '12–2500', value: 3 },
      { label: '≤ 20k', range: '2501–20000', value: 0 },
      { label: '> 20k', range: 'more than 20000', value: 4 },
    ]);
    expect(compactCost(999)).toBe('999');
    expect(compactCost(1000)).toBe('1k');
  });
});

describe('labels', () => {
  it('labels confidence bands and prices', () => {
    expect(bandLabel(0.2, 0.4)).toBe('0.2–0.4');
    expect(bandLabel(0, 0.2)).toBe('0.0–0.2');
    expect(formatPrice(null)).toBe('—');
    expect(formatPrice(91_234.5)).toBe('91,235');
    expect(formatPrice(70.2)).toBe('70.20');
    expect(formatPrice(0.00001237)).toBe('0.00001237');
    expect(formatPrice(0.1419)).toBe('0.1419');
    expect(formatPrice(0)).toBe('0');
  });
});

describe('candlestick geometry', () => {
  const c = (time: number, open: number, high: number, low: number, close: number) => ({
    time,
    open,
    high,
    low,
    close,
  });
  const size = { w: 100, h: 100, pad: { l: 0, r: 0, t: 0, b: 0 } };

  it('scales from the lowest low to the highest high, one slot per candle', () => {
    const g = candleGeometry([c(1, 10, 20, 5, 15), c(2, 15, 16, 0, 1)], size);
    expect(g.lo).toBe(0);
    expect(g.hi).toBe(20);
    const [a, b] = g.bars;
    // Slots of 50: centres at 25 and 75, bodies 60 % of the slot wide (at most 24).
    expect([a?.x, b?.x, a?.width]).toEqual([25, 75, 24]);
    // Rising: close 15 above open 10; the body spans 15 → 10, the wick 20 → 5.
    expect(a).toMatchObject({ up: true, wickTop: 0, wickBottom: 75, bodyTop: 25, bodyHeight: 25 });
    // Falling: open 15 above close 1.
    expect(b).toMatchObject({ up: false, wickTop: 20, wickBottom: 100, bodyTop: 25, bodyHeight: 70 });
  });

  it('skips candles with an unknown price and keeps a flat candle visible', () => {
    const g = candleGeometry([{ time: 1, open: null, high: 2, low: 1, close: 1 }, c(2, 5, 5, 5, 5)], size);
    expect(g.bars).toHaveLength(1);
    expect(g.hi).toBeGreaterThan(g.lo);
    expect(g.bars[0]?.bodyHeight).toBe(1);
    expect(candleGeometry([], size).bars).toEqual([]);
  });
});
