import { breathe } from '../core/turns.ts';

const DAY_MS = 86_400_000;

/** Start of the UTC day of `ts`. */
export function dayOf(ts: number): number {
  return Math.floor(ts / DAY_MS) * DAY_MS;
}

/** Column-major arrays for `unnest` bulk statements. */
export function columns<T>(rows: readonly T[], pick: ((row: T) => unknown)[]): unknown[][] {
  const out = pick.map(() => new Array<unknown>(rows.length));
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as T;
    for (let c = 0; c < pick.length; c++) (out[c] as unknown[])[i] = (pick[c] as (row: T) => unknown)(row);
  }
  return out;
}

/**
 * Text that JSON writes as it is and that may stand between double quotes in an array literal: no quote, backslash,
 * control character or surrogate (JSON would escape them).
 */
// eslint-disable-next-line no-control-regex -- control characters are what it must exclude
const PLAIN = /^[^"\\\u0000-\u001f\u007f\ud800-\udfff]*$/;

/**
 * A column of `unnest` bulk statements as the PostgreSQL array literal `{…}` (what the drivers would make of a
 * JavaScript array, without their per-element work: JSON writes numbers exactly as PostgreSQL reads them back, the
 * shortest text of the same double, and `null` as NULL). Values the literal cannot carry this way (a non-finite
 * number, text with quotes, backslashes or control characters) make it return the array itself, for the driver.
 */
export function arrayParam(values: readonly unknown[]): string | readonly unknown[] {
  for (const v of values) {
    if (v === null) continue;
    if (typeof v === 'number' ? !Number.isFinite(v) : typeof v !== 'string' || !PLAIN.test(v)) return values;
  }
  return `{${JSON.stringify(values).slice(1, -1)}}`;
}

/** {@link columns}, each column as an {@link arrayParam}. */
export function arrayParams<T>(rows: readonly T[], pick: ((row: T) => unknown)[]): unknown[] {
  return columns(rows, pick).map(arrayParam);
}

/**
 * Rows of a bulk statement at a time: enough to amortise a statement, few enough that the embedded store's run of
 * one (it holds the event loop) stays near 100 ms.
 */
export const BULK_ROWS = 5_000;

/** Runs `write` over `rows` in slices of at most {@link BULK_ROWS}, letting the event loop turn between them. */
export async function inSlices<T>(
  rows: readonly T[],
  write: (slice: readonly T[]) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += BULK_ROWS) {
    if (i > 0) await breathe();
    await write(rows.length <= BULK_ROWS ? rows : rows.slice(i, i + BULK_ROWS));
  }
}

/** The numbers of a JSON-like array literal; `NaN` and `±Infinity`, which JSON cannot spell, read one by one. */
export function numbers(text: string): (number | null)[] {
  try {
    return JSON.parse(text) as (number | null)[];
  } catch {
    return text
      .slice(1, -1)
      .split(',')
      .map((v) => (v === 'null' ? null : Number(v)));
  }
}
