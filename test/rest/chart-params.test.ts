import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, MINUTE_MS, RETENTION_MS } from '../../src/engine/history.ts';
import { ApiError } from '../../src/core/errors.ts';
import type { Query } from '../../src/core/params.ts';
import {
  EARLIEST_MS,
  MAX_DAYS,
  parseChartInterval,
  parseDays,
  parseOhlcInterval,
  parseRange,
  parseTime,
  pickResolution,
} from '../../src/market/chart-params.ts';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

/** The ApiError thrown by `fn` (fails the test when nothing or something else is thrown). */
function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

describe('parseDays', () => {
  const chart = (days: Query['days']) => parseDays({ days }, { decimals: true });
  const ohlc = (days: Query['days']) => parseDays({ days }, { decimals: false });

  it('accepts integers, max and (for charts) up to 2 decimals', () => {
    expect(chart('2')).toEqual({ kind: 'days', days: 2, spanMs: 2 * DAY_MS });
    expect(chart('0.5')).toEqual({ kind: 'days', days: 0.5, spanMs: 12 * HOUR_MS });
    expect(chart('0.01')).toEqual({ kind: 'days', days: 0.01, spanMs: 864_000 });
    expect(chart(String(MAX_DAYS))).toMatchObject({ days: MAX_DAYS });
    expect(chart('max')).toEqual({ kind: 'max' });
    expect(chart(' MAX ')).toEqual({ kind: 'max' });
    expect(ohlc('365')).toEqual({ kind: 'days', days: 365, spanMs: 365 * DAY_MS });
    expect(ohlc('max')).toEqual({ kind: 'max' });
  });

  it.each([
    '0',
    '0.00',
    '-1',
    '1e9',
    'abc',
    '1.234',
    '.5',
    '2.',
    '0x10',
    'Infinity',
    'NaN',
    '1,5',
    String(MAX_DAYS + 1),
    '1000000000',
  ])('rejects days=%s naming the parameter', (v) => {
    const e = apiError(() => chart(v));
    expect(e.status).toBe(400);
    expect(e.code).toBe('INVALID_PARAMETER');
    expect(e.message).toMatch(/^days must be a number of days from 0\.01 to 3650/);
  });

  it('rejects decimals for OHLC and says integers', () => {
    const e = apiError(() => ohlc('1.5'));
    expect(e.code).toBe('INVALID_PARAMETER');
    expect(e.message).toMatch(/^days must be an integer number of days from 1 to 3650/);
    expect(apiError(() => ohlc('0')).code).toBe('INVALID_PARAMETER');
  });

  it('requires days once', () => {
    expect(apiError(() => parseDays({}, { decimals: true })).code).toBe('MISSING_PARAMETER');
    expect(apiError(() => chart('  ')).code).toBe('MISSING_PARAMETER');
    expect(apiError(() => chart(['1', '2'])).code).toBe('REPEATED_PARAMETER');
    expect(apiError(() => chart('1\u0000')).code).toBe('INVALID_PARAMETER');
  });
});

describe('interval', () => {
  it('chart: empty is automatic, else 5m, hourly or daily exactly', () => {
    expect(parseChartInterval({})).toBeUndefined();
    expect(parseChartInterval({ interval: '' })).toBeUndefined();
    for (const v of ['5m', 'hourly', 'daily'] as const) expect(parseChartInterval({ interval: v })).toBe(v);
    for (const v of ['1m', 'Daily', 'weekly', '5min']) {
      const e = apiError(() => parseChartInterval({ interval: v }));
      expect(e.message).toBe('interval must be empty (automatic granularity), 5m, hourly or daily');
    }
  });

  it('ohlc: only daily', () => {
    expect(parseOhlcInterval({})).toBe('daily');
    expect(parseOhlcInterval({ interval: 'daily' })).toBe('daily');
    const e = apiError(() => parseOhlcInterval({ interval: 'hourly' }));
    expect(e.code).toBe('INVALID_PARAMETER');
    expect(e.message).toBe('interval must be daily or empty: OHLC candles are daily');
  });
});

describe('parseTime', () => {
  const t = Date.UTC(2024, 4, 1);
  it('reads UNIX seconds, integer or decimal', () => {
    expect(parseTime('from', String(t / 1000))).toBe(t);
    expect(parseTime('from', `${t / 1000}.5`)).toBe(t + 500);
    expect(parseTime('from', ` ${t / 1000} `)).toBe(t);
  });

  it('reads the ISO forms, UTC unless an offset is given', () => {
    expect(parseTime('from', '2024-05-01')).toBe(t);
    expect(parseTime('from', '2024-05-01T12:30')).toBe(t + 12 * HOUR_MS + 30 * MINUTE_MS);
    expect(parseTime('from', '2024-05-01 12:30')).toBe(t + 12 * HOUR_MS + 30 * MINUTE_MS);
    expect(parseTime('from', '2024-05-01T12:30:15Z')).toBe(t + 12 * HOUR_MS + 30 * MINUTE_MS + 15_000);
    expect(parseTime('from', '2024-05-01T12:30:15.250Z')).toBe(t + 12 * HOUR_MS + 30 * MINUTE_MS + 15_250);
    expect(parseTime('from', '2024-05-01T02:00:00+02:00')).toBe(t);
    expect(parseTime('from', '2024-04-30T22:00:00-0200')).toBe(t);
    expect(parseTime('from', new Date(t).toISOString())).toBe(t);
  });

  it.each([
    '2024-02-30',
    '2023-02-29',
    '2024-13-01',
    '2024-05-01T24:00',
    '2024-05-01T12:60',
    '2024-05-01T12',
    '2024-5-1',
    '01/05/2024',
    '-1700000000',
    '1e9',
    'now',
    '',
    '2024-05-01+02:00',
    '2024-05-01T10:00+25:00',
  ])('rejects %j with the accepted forms', (v) => {
    const e = apiError(() => parseTime('to', v));
    expect(e.code).toBe('INVALID_PARAMETER');
    expect(e.message).toMatch(/^to must be UNIX seconds \(e\.g\. 1700000000\) or an ISO date/);
  });

  it('points out milliseconds given as seconds', () => {
    expect(apiError(() => parseTime('from', '1714521600000')).message).toMatch(
      /milliseconds instead of seconds/,
    );
  });
});

describe('parseRange', () => {
  const sec = (ms: number) => String(ms / 1000);

  it('accepts seconds and ISO dates alike and clamps a future to to now', () => {
    const a = parseRange({ from: '2026-11-01', to: '2026-11-10' }, NOW);
    const b = parseRange({ from: sec(Date.UTC(2026, 10, 1)), to: sec(Date.UTC(2026, 10, 10)) }, NOW);
    expect(a).toEqual(b);
    expect(a).toEqual({
      from: Date.UTC(2026, 10, 1),
      to: Date.UTC(2026, 10, 10),
      requestedTo: Date.UTC(2026, 10, 10),
    });
    const future = parseRange({ from: '2026-11-20', to: '2030-01-01' }, NOW);
    expect(future.to).toBe(NOW);
    expect(future.requestedTo).toBe(Date.UTC(2030, 0, 1));
  });

  it('rejects from ≥ to, from before 2009 and missing ends', () => {
    const same = apiError(() => parseRange({ from: '2024-01-01', to: '2024-01-01' }, NOW));
    expect([same.status, same.code, same.message]).toEqual([
      400,
      'INVALID_RANGE',
      'from must be earlier than to',
    ]);
    expect(apiError(() => parseRange({ from: '2024-02-01', to: '2024-01-01' }, NOW)).code).toBe(
      'INVALID_RANGE',
    );
    const old = apiError(() => parseRange({ from: '2008-12-31', to: '2024-01-01' }, NOW));
    expect(old.message).toBe('from must be on or after 2009-01-01 (UNIX 1230768000)');
    expect(parseRange({ from: sec(EARLIEST_MS), to: '2009-01-02' }, NOW).from).toBe(EARLIEST_MS);
    expect(apiError(() => parseRange({ to: '2024-01-01' }, NOW)).message).toMatch(/^from is required/);
    expect(apiError(() => parseRange({ from: '2024-01-01' }, NOW)).message).toMatch(/^to is required/);
    expect(apiError(() => parseRange({ from: ['1', '2'], to: '3' }, NOW)).code).toBe('REPEATED_PARAMETER');
  });
});

describe('pickResolution', () => {
  const ending = (span: number) => ({ from: NOW - span, to: NOW });

  it('follows the span with exact boundaries when automatic', () => {
    expect(pickResolution(2 * DAY_MS, ending(2 * DAY_MS), NOW)).toBe('5m');
    expect(pickResolution(2 * DAY_MS + 1, ending(2 * DAY_MS + 1), NOW)).toBe('1h');
    expect(pickResolution(95 * DAY_MS, ending(95 * DAY_MS), NOW)).toBe('1h');
    expect(pickResolution(95 * DAY_MS + 1, ending(95 * DAY_MS + 1), NOW)).toBe('1d');
    expect(pickResolution(Infinity, { from: 0, to: NOW }, NOW)).toBe('1d');
    expect(pickResolution(-5, { from: NOW + 10, to: NOW }, NOW)).toBe('5m');
  });

  it('coarsens an old window to the finest resolution still kept', () => {
    const oldDay = { from: NOW - 10 * DAY_MS, to: NOW - 9 * DAY_MS };
    expect(pickResolution(DAY_MS, oldDay, NOW)).toBe('1h');
    const ancient = { from: NOW - 200 * DAY_MS, to: NOW - 199 * DAY_MS };
    expect(pickResolution(DAY_MS, ancient, NOW)).toBe('1d');
    const edge = { from: NOW - RETENTION_MS['5m'], to: NOW - DAY_MS };
    expect(pickResolution(DAY_MS, edge, NOW)).toBe('5m');
  });

  it('honours an interval only where the data exists', () => {
    expect(pickResolution(2 * DAY_MS, ending(2 * DAY_MS), NOW, '5m')).toBe('5m');
    expect(pickResolution(DAY_MS, ending(DAY_MS), NOW, 'hourly')).toBe('1h');
    expect(pickResolution(DAY_MS, ending(DAY_MS), NOW, 'daily')).toBe('1d');
    expect(pickResolution(Infinity, { from: 0, to: NOW }, NOW, 'daily')).toBe('1d');
    const e5 = apiError(() => pickResolution(3 * DAY_MS, ending(3 * DAY_MS), NOW, '5m'));
    expect(e5.message).toBe('interval=5m needs a span of at most 2 days; use hourly or daily');
    const eh = apiError(() => pickResolution(96 * DAY_MS, ending(96 * DAY_MS), NOW, 'hourly'));
    expect(eh.message).toBe('interval=hourly needs a span of at most 95 days; use daily');
    expect(apiError(() => pickResolution(Infinity, { from: 0, to: NOW }, NOW, 'hourly')).code).toBe(
      'INVALID_PARAMETER',
    );
    const old = apiError(() =>
      pickResolution(DAY_MS, { from: NOW - 5 * DAY_MS, to: NOW - 4 * DAY_MS }, NOW, '5m'),
    );
    expect(old.message).toMatch(/^interval=5m serves only the last 2 days/);
  });
});
