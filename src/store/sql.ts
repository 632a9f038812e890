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
