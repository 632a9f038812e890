import { errorCatalog } from './errors.ts';

/**
 * Query-parameter parsing for the REST surfaces. Every failure is a 400 whose message names the parameter and what
 * it accepts. Unknown parameters are ignored (CoinGecko clients send extras); a parameter given twice is an error.
 */
export type Query = Record<string, string | string[] | undefined>;

/** The query parameters' errors, shared by every REST surface (and the graph's arguments where REST has the same). */
export const paramErrors = errorCatalog('params', {
  invalid: {
    status: 400,
    code: 'INVALID_PARAMETER',
    message: (name: string, expected: string) => `${name} ${expected}`,
  },
  missing: {
    status: 400,
    code: 'MISSING_PARAMETER',
    message: (name: string, expected: string) => `${name} is required: ${expected}`,
  },
  repeated: {
    status: 400,
    code: 'REPEATED_PARAMETER',
    message: (name: string) => `${name} must be given once`,
  },
  /** A time range the parameters give together that cannot be served (`rule` says why and what to send). */
  range: { status: 400, code: 'INVALID_RANGE', message: (rule: string) => rule },
});

export const paramError = paramErrors.invalid;
export const missingParam = paramErrors.missing;

/** The single value of `name`, or undefined; repeated → 400. Control characters are never accepted. */
export function single(q: Query, name: string): string | undefined {
  const v = q[name];
  if (Array.isArray(v)) throw paramErrors.repeated(name);
  // eslint-disable-next-line no-control-regex
  if (v !== undefined && /[\u0000-\u001f\u007f]/.test(v))
    throw paramError(name, 'must not contain control characters');
  return v;
}

export function required(q: Query, name: string, expected: string): string {
  const v = single(q, name);
  if (v === undefined || v.trim() === '') throw missingParam(name, expected);
  return v;
}

/** `true`/`false` (CoinGecko's booleans); absent → `def`. */
export function bool(q: Query, name: string, def = false): boolean {
  const v = single(q, name);
  if (v === undefined || v === '') return def;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw paramError(name, 'must be true or false');
}

/** An integer in [min, max]; absent → `def`. */
export function int(q: Query, name: string, def: number, min: number, max: number): number {
  const v = single(q, name);
  if (v === undefined || v === '') return def;
  if (!/^-?\d{1,16}$/.test(v)) throw paramError(name, `must be an integer from ${min} to ${max}`);
  const n = Number(v);
  if (n < min || n > max) throw paramError(name, `must be an integer from ${min} to ${max}`);
  return n;
}

/**
 * A comma-separated list (CoinGecko style): trimmed, lowercased when `lower`, empty items dropped, duplicates
 * removed in order. At most `max` items, each matching `item` (described by `itemRule` in the error).
 */
export function list(
  q: Query,
  name: string,
  opts: { max: number; item: RegExp; itemRule: string; lower?: boolean },
): string[] | undefined {
  const v = single(q, name);
  if (v === undefined) return undefined;
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of v.split(',')) {
    const s = opts.lower === false ? raw.trim() : raw.trim().toLowerCase();
    if (s === '') continue;
    if (!opts.item.test(s))
      throw paramError(name, `must be a comma-separated list of ${opts.itemRule}; got "${s.slice(0, 40)}"`);
    if (seen.has(s)) continue;
    seen.add(s);
    out.push(s);
    if (out.length > opts.max) throw paramError(name, `accepts at most ${opts.max} items`);
  }
  return out;
}

/** One of a fixed set of values; absent → `def`. */
export function oneOf<T extends string>(q: Query, name: string, allowed: readonly T[], def: T): T;
export function oneOf<T extends string>(q: Query, name: string, allowed: readonly T[]): T | undefined;
export function oneOf<T extends string>(
  q: Query,
  name: string,
  allowed: readonly T[],
  def?: T,
): T | undefined {
  const v = single(q, name);
  if (v === undefined || v === '') return def;
  if ((allowed as readonly string[]).includes(v)) return v as T;
  throw paramError(name, `must be one of ${allowed.join(', ')}`);
}

/** Coin ids as listed by /coins/list: lowercase letters, digits, `-`, `.`, `_`; 1–100 characters. */
export const COIN_ID = /^[a-z0-9][a-z0-9._-]{0,99}$/;
/** Quote currency codes: lowercase letters, 2–10 characters. */
export const CURRENCY_CODE = /^[a-z]{2,10}$/;
