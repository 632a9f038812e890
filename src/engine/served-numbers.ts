/**
 * The one rule for numbers the product serves, REST and graph alike: an exact whole number (a count, a height, a
 * UNIX time: a safe integer) is served as it is; any other number with at most {@link SERVED_DIGITS} significant
 * digits, so binary-float noise (`19963642.939999998`, `0.30000000000000004`, a yen market cap of
 * `422919988632202200`) never reaches a client. Applied at each transport's edge: the
 * price API's serialisation (unless the caller asks `precision=full`) and every `Float` field of the subgraphs.
 */

/** Significant digits of a served non-integer number: more than any figure we compute is accurate to. */
export const SERVED_DIGITS = 12;

/** Powers of ten that are exact doubles (10^0 … 10^22). */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * `x` as served: safe integers and non-finite values unchanged, others rounded to {@link SERVED_DIGITS} significant
 * digits. Arithmetic, not `toPrecision` (a string round trip, ~5× slower on the graph's hot path): the 12-digit
 * integer `m` is exact, and `m / 10^k` or `m × 10^k` is one correctly rounded operation, so the result is the
 * double nearest to the 12-digit decimal, as `Number(x.toPrecision(12))` would give.
 */
export function servedNumber(x: number): number {
  if (Number.isSafeInteger(x) || !Number.isFinite(x) || x === 0) return x;
  const shift = SERVED_DIGITS - 1 - Math.floor(Math.log10(Math.abs(x)));
  if (shift > 0 && shift <= 22) return Math.round(x * (POW10[shift] as number)) / (POW10[shift] as number);
  if (shift <= 0 && -shift <= 22)
    return Math.round(x / (POW10[-shift] as number)) * (POW10[-shift] as number);
  return Number(x.toPrecision(SERVED_DIGITS)); // beyond 10^±22: rare, the exact way
}

/** A `JSON.stringify` replacer applying {@link servedNumber} to every number of a value. */
export function servedNumbers(_key: string, v: unknown): unknown {
  return typeof v === 'number' ? servedNumber(v) : v;
}
