/**
 * The one rule for numbers the product serves, REST and graph alike: an exact whole number (a count, a height, a
 * UNIX time: a safe integer) is served as it is; any other number with at most {@link SERVED_DIGITS} significant
 * digits, so binary-float noise (`19963642.939999998`, `0.30000000000000004`, a yen market cap of
 * `422919988632202200`) never reaches a client. Applied at each transport's edge: the
 * price API's serialisation (unless the caller asks `precision=full`) and every `Float` field of the subgraphs.
 */

/** Significant digits of a served non-integer number: more than any figure we compute is accurate to. */
export const SERVED_DIGITS = 12;

/** `x` as served: safe integers and non-finite values unchanged, others rounded to {@link SERVED_DIGITS} digits. */
export function servedNumber(x: number): number {
  return Number.isSafeInteger(x) || !Number.isFinite(x) ? x : Number(x.toPrecision(SERVED_DIGITS));
}

/** A `JSON.stringify` replacer applying {@link servedNumber} to every number of a value. */
export function servedNumbers(_key: string, v: unknown): unknown {
  return typeof v === 'number' ? servedNumber(v) : v;
}
