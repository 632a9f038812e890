/**
 * Parameters of `/coins/{id}/history` (`date`) and `/coins/{id}/ohlc/range` (`interval` and its span limits). Pure:
 * every failure is a 400 whose message names the parameter and what it accepts.
 */
import { missingParam, paramError, paramErrors, single } from '../core/params.ts';
import type { Query } from '../core/params.ts';
import { DAY_MS, HOUR_MS, RETENTION_MS } from '../engine/history.ts';
import { EARLIEST_MS, MAX_DAYS } from './chart-params.ts';
import type { TimeWindow } from './chart-params.ts';

const DMY = /^(\d{2})-(\d{2})-(\d{4})$/;
const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_RULE =
  'a date as dd-mm-yyyy (CoinGecko, e.g. 30-12-2025) or yyyy-mm-dd (e.g. 2025-12-30), from 01-01-2009 to today (UTC)';

/**
 * `date` of `/coins/{id}/history`: CoinGecko's `dd-mm-yyyy`, or `yyyy-mm-dd` (what its newer SDK sends). Returns
 * 00:00 UTC of that day, UNIX ms. Impossible dates (31-02-2025), dates before 2009 and dates after today are refused.
 */
export function parseHistoryDate(q: Query, now: number): number {
  const raw = single(q, 'date');
  if (raw === undefined || raw.trim() === '') throw missingParam('date', DATE_RULE);
  const v = raw.trim();
  const m = DMY.exec(v);
  const n = YMD.exec(v);
  const [d, mo, y] = m ? [m[1], m[2], m[3]] : n ? [n[3], n[2], n[1]] : [];
  if (d === undefined) throw paramError('date', `must be ${DATE_RULE}`);
  const day = Number(d);
  const ms = Date.UTC(Number(y), Number(mo) - 1, day);
  if (Number(mo) < 1 || Number(mo) > 12 || new Date(ms).getUTCDate() !== day)
    throw paramError('date', `must be ${DATE_RULE}; ${v.slice(0, 10)} is not a calendar date`);
  if (ms < EARLIEST_MS || ms > Math.floor(now / DAY_MS) * DAY_MS)
    throw paramError('date', `must be ${DATE_RULE}; ${v.slice(0, 10)} is outside that range`);
  return ms;
}

/** `interval` of `/coins/{id}/ohlc/range` (required, CoinGecko's values). */
export type RangeInterval = 'daily' | 'hourly';

/** Longest span of hourly candles per request (CoinGecko's limit: 31 days). */
export const MAX_HOURLY_RANGE_MS = 31 * DAY_MS;

export function parseRangeInterval(q: Query): RangeInterval {
  const v = single(q, 'interval');
  if (v === undefined || v === '') throw missingParam('interval', 'daily or hourly');
  if (v === 'daily' || v === 'hourly') return v;
  throw paramError('interval', 'must be daily or hourly');
}

/**
 * Checks a window of `/ohlc/range` against its interval: daily up to 3,650 days; hourly up to 31 days and starting
 * within the hourly bars we keep (the last 95 days). 400 naming the rule otherwise.
 */
export function checkRangeSpan(window: TimeWindow, interval: RangeInterval, now: number): void {
  const span = window.to - window.from;
  if (interval === 'daily') {
    if (span > MAX_DAYS * DAY_MS) throw paramErrors.range(`a daily range may span at most ${MAX_DAYS} days`);
    return;
  }
  if (span > MAX_HOURLY_RANGE_MS)
    throw paramErrors.range('an hourly range may span at most 31 days: use interval=daily');
  if (window.from < now - RETENTION_MS['1h'] + HOUR_MS)
    throw paramErrors.range(
      'interval=hourly serves only the last 95 days (hourly bars are not kept longer): from must lie within them, or use interval=daily',
    );
}
