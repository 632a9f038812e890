/**
 * Parameters of the chart routes (`/coins/{id}/market_chart`, `/market_chart/range`, `/ohlc`): `days`, `interval`,
 * `from`/`to`, and the choice of bar resolution. Pure: no server, no store; every failure is a 400 whose message
 * names the parameter and what it accepts.
 */
import { chartResolution, DAY_MS, RETENTION_MS } from '../engine/history.ts';
import type { Resolution } from '../engine/types.ts';
import { missingParam, paramError, paramErrors, single } from '../core/params.ts';
import type { Query } from '../core/params.ts';

/** Largest numeric `days` accepted (10 years); longer histories are asked for with `days=max`. */
export const MAX_DAYS = 3650;
/** Earliest `from` of `/market_chart/range`: 2009-01-01 00:00 UTC (no crypto market existed before). */
export const EARLIEST_MS = Date.UTC(2009, 0, 1);
/** Latest accepted timestamp, 9999-12-31 23:59:59 UTC: a bigger number is almost surely milliseconds. */
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

/** A chart length: a span in milliseconds ending now, or all history (`max`). */
export type DaysSpec = { kind: 'days'; days: number; spanMs: number } | { kind: 'max' };

/** The `interval` override of the chart routes (CoinGecko names); absent/empty = automatic. */
export type ChartInterval = '5m' | 'hourly' | 'daily';
const INTERVAL_RES: Readonly<Record<ChartInterval, Resolution>> = { '5m': '5m', hourly: '1h', daily: '1d' };

/** A time window in UNIX ms: `from` inclusive, `to` inclusive. */
export interface TimeWindow {
  from: number;
  to: number;
}

/**
 * `days` of `/market_chart` (`decimals: true`: a number > 0 with at most 2 decimals, e.g. `0.5` = 12 hours) or of
 * `/ohlc` (`decimals: false`: an integer), at most {@link MAX_DAYS}, or `max`. Required.
 */
export function parseDays(q: Query, opts: { decimals: boolean }): DaysSpec {
  const expected = opts.decimals
    ? `a number of days from 0.01 to ${MAX_DAYS} (at most 2 decimals, e.g. 1, 0.5, 30) or max`
    : `an integer number of days from 1 to ${MAX_DAYS} (e.g. 1, 7, 14, 30, 90, 180, 365) or max`;
  const raw = single(q, 'days');
  if (raw === undefined || raw.trim() === '') throw missingParam('days', expected);
  const v = raw.trim().toLowerCase();
  if (v === 'max') return { kind: 'max' };
  const shape = opts.decimals ? /^\d{1,5}(\.\d{1,2})?$/ : /^\d{1,5}$/;
  const days = Number(v);
  if (!shape.test(v) || !(days > 0) || days > MAX_DAYS) throw paramError('days', `must be ${expected}`);
  return { kind: 'days', days, spanMs: Math.round(days * DAY_MS) };
}

/** `interval` of the chart routes: empty/absent → undefined (automatic), else `5m`, `hourly` or `daily`. */
export function parseChartInterval(q: Query): ChartInterval | undefined {
  const v = single(q, 'interval');
  if (v === undefined || v === '') return undefined;
  if (v === '5m' || v === 'hourly' || v === 'daily') return v;
  throw paramError('interval', 'must be empty (automatic granularity), 5m, hourly or daily');
}

/**
 * `interval` of `/ohlc`: only `daily` (or empty). Candles are always daily (product rule), so any other value is a
 * 400 rather than silently ignored.
 */
export function parseOhlcInterval(q: Query): 'daily' {
  const v = single(q, 'interval');
  if (v === undefined || v === '' || v === 'daily') return 'daily';
  throw paramError('interval', 'must be daily or empty: OHLC candles are daily');
}

/**
 * One timestamp of `/market_chart/range`, in UNIX ms. Accepts UNIX seconds (integer or decimal, e.g.
 * `1700000000` or `1700000000.5`), an ISO date `YYYY-MM-DD` (00:00 UTC), `YYYY-MM-DDTHH:MM`, or a full ISO date
 * time with optional seconds, fraction and offset (`Z`, `+02:00`); without an offset the time is UTC.
 */
export function parseTime(name: string, raw: string): number {
  const expected =
    'must be UNIX seconds (e.g. 1700000000) or an ISO date such as 2024-05-01, 2024-05-01T12:30 or 2024-05-01T12:30:00Z (UTC unless an offset is given)';
  const v = raw.trim();
  if (/^\d{1,15}(\.\d{1,9})?$/.test(v)) {
    const ms = Math.round(Number(v) * 1000);
    if (ms > LATEST_MS)
      throw paramError(
        name,
        `${expected}; ${v.slice(0, 20)} is after the year 9999 (milliseconds instead of seconds?)`,
      );
    return ms;
  }
  const ms = parseIso(v);
  if (ms === null) throw paramError(name, expected);
  return ms;
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** A strictly checked ISO 8601 date / date time in UNIX ms, or null (also for impossible dates like 02-30). */
export function parseIso(v: string): number | null {
  const m = ISO.exec(v);
  if (!m) return null;
  const n = (i: number): number => Number(m[i] ?? 0);
  const [y, mo, d, h, mi, s] = [n(1), n(2), n(3), n(4), n(5), n(6)];
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  // Date.UTC rolls 2024-02-30 over into March: reject any date that does not survive the round trip.
  if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return null;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s) + Math.round(Number(m[7] ?? 0) * 1000);
  const off = m[8];
  if (!off || off.toUpperCase() === 'Z') return ms;
  const digits = off.replace(':', '');
  const oh = Number(digits.slice(1, 3));
  const om = Number(digits.slice(3, 5));
  if (oh > 23 || om > 59) return null;
  return ms - (off.startsWith('-') ? -1 : 1) * (oh * 60 + om) * 60_000;
}

/**
 * `from` and `to` of `/market_chart/range` (both required, see {@link parseTime}). `from` must be on or after
 * 2009-01-01 and before `to`; a `to` in the future is clamped to `now`. The window may be empty when `from` is in
 * the future.
 */
export function parseRange(q: Query, now: number): TimeWindow & { requestedTo: number } {
  const expected = 'UNIX seconds or an ISO date (e.g. 2024-05-01)';
  const fromRaw = single(q, 'from');
  const toRaw = single(q, 'to');
  if (fromRaw === undefined || fromRaw.trim() === '') throw missingParam('from', expected);
  if (toRaw === undefined || toRaw.trim() === '') throw missingParam('to', expected);
  const from = parseTime('from', fromRaw);
  const to = parseTime('to', toRaw);
  if (from < EARLIEST_MS) throw paramError('from', 'must be on or after 2009-01-01 (UNIX 1230768000)');
  if (from >= to) throw paramErrors.range('from must be earlier than to');
  return { from, to: Math.min(to, now), requestedTo: to };
}

/**
 * The bar resolution of a chart over `window` (its span is `to − from`; `max` charts pass `span: Infinity`).
 *
 * Automatic (`interval` undefined): {@link chartResolution} of the span (5-minute ≤ 2 days < hourly ≤ 95 days <
 * daily), coarsened when the window starts before that resolution is still kept (5-minute bars live 2 days + 1 h,
 * hourly bars 95 days + 1 day, see `RETENTION_MS`), so an old one-day range gets hourly points instead of none.
 *
 * Override: `daily` always; `hourly` only for a span ≤ 95 days starting within the hourly retention; `5m` only for
 * a span ≤ 2 days starting within the 5-minute retention. Otherwise 400 naming the rule.
 */
export function pickResolution(
  span: number,
  window: TimeWindow,
  now: number,
  interval?: ChartInterval,
): Resolution {
  const kept = (res: Resolution): boolean => res === '1d' || window.from >= now - RETENTION_MS[res];
  if (interval === undefined) {
    let res = chartResolution(Math.max(0, span));
    if (res === '5m' && !kept('5m')) res = '1h';
    if (res === '1h' && !kept('1h')) res = '1d';
    return res;
  }
  const res = INTERVAL_RES[interval];
  if (res === '1d') return res;
  const [fits, days, instead] =
    res === '5m'
      ? [chartResolution(span) === '5m', 2, 'hourly or daily']
      : [chartResolution(span) !== '1d', 95, 'daily'];
  const fail = (rule: string) => paramError(`interval=${interval}`, `${rule}; use ${instead}`);
  if (!fits) throw fail(`needs a span of at most ${days} days`);
  if (!kept(res))
    throw fail(
      `serves only the last ${days} days (finer data is not kept longer): the span must start within them`,
    );
  return res;
}
