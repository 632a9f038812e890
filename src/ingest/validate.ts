/**
 * Checks raw source records before anything is stored or aggregated. Each validator returns the record rebuilt
 * with only its known fields, or a short stable reason (`ticker.last: must be a finite number > 0`) that
 * {@link RejectCounter} counts for logs and the health endpoint.
 */
import { PROTOCOL_MAX_SUPPLY } from '../catalog/assets.ts';
import { CURRENCIES, QUOTE_ASSETS } from '../catalog/currencies.ts';
import type {
  FxRate,
  MiningRecord,
  SupplyKind,
  SupplyRecord,
  SupplySourceKind,
  Ticker,
  VenueKind,
} from './types.ts';

export type Validation<T> = { ok: true; value: T } | { ok: false; reason: string };

const ID = { re: /^[a-z0-9._-]{1,64}$/, text: 'a lowercase id of [a-z0-9._-]{1,64}' };
/** Supply and FX source ids may carry a namespace (`ecb:eurofxref`). */
const SOURCE_ID = { re: /^[a-z0-9._:-]{1,64}$/, text: 'a lowercase id of [a-z0-9._:-]{1,64}' };
/** 2009-01-01T00:00:00Z: nothing we price traded before Bitcoin's first block. */
export const MIN_TS = Date.UTC(2009, 0, 1);
export const MAX_FUTURE_MS = 24 * 60 * 60 * 1000;

const VENUE_KINDS: readonly VenueKind[] = ['cex', 'dex'];
const SUPPLY_KINDS: readonly SupplyKind[] = ['circulating', 'total', 'max'];
const SOURCE_KINDS: readonly SupplySourceKind[] = ['explorer', 'emission', 'issuer', 'node', 'aggregator'];

class Reject extends Error {}
const fail = (reason: string): never => {
  throw new Reject(reason);
};
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Field readers of one record; `what` prefixes every reason (`ticker.last: ...`). */
class Fields {
  readonly o: Record<string, unknown>;
  constructor(
    x: unknown,
    readonly what: string,
  ) {
    const isRecord = typeof x === 'object' && x !== null && !Array.isArray(x);
    this.o = isRecord ? (x as Record<string, unknown>) : fail(`${what}: must be an object`);
  }
  fail(key: string, rule: string): never {
    return fail(`${this.what}.${key}: ${rule}`);
  }
  id(key: string, pattern = ID): string {
    const v = this.o[key];
    return typeof v === 'string' && pattern.re.test(v) ? v : this.fail(key, `must be ${pattern.text}`);
  }
  oneOf<T extends string>(key: string, allowed: readonly T[]): T {
    const v = this.o[key] as T;
    return allowed.includes(v) ? v : this.fail(key, `must be one of ${allowed.join('|')}`);
  }
  positive(key: string): number {
    const v = this.o[key];
    return finite(v) && v > 0 ? v : this.fail(key, 'must be a finite number > 0');
  }
  nonNegative(key: string): number {
    const v = this.o[key];
    return finite(v) && v >= 0 ? v : this.fail(key, 'must be a finite number >= 0');
  }
  positiveOrNull(key: string): number | null {
    const v = this.o[key];
    return v === null || (finite(v) && v > 0) ? v : this.fail(key, 'must be null or a finite number > 0');
  }
  ts(now: number, key = 'ts'): number {
    const v = this.o[key];
    if (typeof v !== 'number' || !Number.isSafeInteger(v))
      return this.fail(key, 'must be an integer (UNIX ms)');
    if (v < MIN_TS) this.fail(key, 'must not be before 2009-01-01');
    if (v > now + MAX_FUTURE_MS) this.fail(key, 'must not be more than 1 day in the future');
    return v;
  }
  /** Null, or a number accepted by `ok` (`rule` says which). */
  nullable(key: string, ok: (n: number) => boolean, rule: string): number | null {
    const v = this.o[key];
    return v === null || (finite(v) && ok(v)) ? v : this.fail(key, `must be null or ${rule}`);
  }
}

function run<T>(check: () => T): Validation<T> {
  try {
    return { ok: true, value: check() };
  } catch (err) {
    if (err instanceof Reject) return { ok: false, reason: err.message };
    throw err;
  }
}

/**
 * Validates one ticker. `knownAssets` holds the catalog's asset ids; `now` (UNIX ms, default `Date.now()`) bounds
 * `ts`. The quote must differ from the base, also when it is a quote code for the base asset (`ltc` on `litecoin`).
 */
export function validateTicker(
  x: unknown,
  knownAssets: ReadonlySet<string>,
  now = Date.now(),
): Validation<Ticker> {
  return run(() => {
    const f = new Fields(x, 'ticker');
    const venue = f.id('venue');
    const venueKind = f.oneOf('venueKind', VENUE_KINDS);
    const base = f.id('base');
    if (!knownAssets.has(base)) f.fail('base', 'must be a known asset id');
    const quote = f.id('quote');
    if (quote === base || QUOTE_ASSETS.get(quote)?.id === base) f.fail('quote', 'must differ from base');
    const last = f.positive('last');
    const bid = f.positiveOrNull('bid');
    const ask = f.positiveOrNull('ask');
    if (bid !== null && ask !== null && bid > ask) f.fail('bid', 'must be <= ask');
    const baseVolume = f.nonNegative('baseVolume');
    const ts = f.ts(now);
    return { venue, venueKind, base, quote, last, bid, ask, baseVolume, ts };
  });
}

/** Ids already seen to match `ID` (venues, bases and quotes repeat in every snapshot). */
const goodIds = new Set<string>();

function goodId(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  if (goodIds.has(v)) return true;
  if (!ID.re.test(v)) return false;
  // A bound on a cache of pure answers: dropping it only costs the regular expression again.
  if (goodIds.size >= 10_000) goodIds.clear();
  goodIds.add(v);
  return true;
}

/**
 * `validateTicker`'s answer for a valid ticker, found without building a reason: the same checks, in one pass; null
 * when any fails (then `validateTicker` says which). The hot path of a backfill (a million tickers for the demo).
 */
export function validTicker(x: unknown, knownAssets: ReadonlySet<string>, now: number): Ticker | null {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return null;
  const o = x as Record<string, unknown>;
  const { venue, venueKind, base, quote, last, bid, ask, baseVolume, ts } = o;
  if (!goodId(venue) || (venueKind !== 'cex' && venueKind !== 'dex')) return null;
  if (!goodId(base) || !knownAssets.has(base)) return null;
  if (!goodId(quote) || quote === base || QUOTE_ASSETS.get(quote)?.id === base) return null;
  if (!(finite(last) && last > 0) || !(finite(baseVolume) && baseVolume >= 0)) return null;
  if (bid !== null && !(finite(bid) && bid > 0)) return null;
  if (ask !== null && !(finite(ask) && ask > 0)) return null;
  if (bid !== null && ask !== null && (bid as number) > (ask as number)) return null;
  if (typeof ts !== 'number' || !Number.isSafeInteger(ts) || ts < MIN_TS || ts > now + MAX_FUTURE_MS)
    return null;
  return {
    venue,
    venueKind,
    base,
    quote,
    last,
    bid: bid as number | null,
    ask: ask as number | null,
    baseVolume,
    ts,
  };
}

/**
 * Validates one supply observation; the asset must be in `knownAssets`, and a circulating or total figure must not
 * exceed the asset's protocol cap when it has one (`PROTOCOL_MAX_SUPPLY`).
 */
export function validateSupply(
  x: unknown,
  knownAssets: ReadonlySet<string>,
  now = Date.now(),
): Validation<SupplyRecord> {
  return run(() => {
    const f = new Fields(x, 'supply');
    const asset = f.id('asset');
    if (!knownAssets.has(asset)) f.fail('asset', 'must be a known asset id');
    const kind = f.oneOf('kind', SUPPLY_KINDS);
    const value = f.nonNegative('value');
    const cap = PROTOCOL_MAX_SUPPLY.get(asset);
    if (kind !== 'max' && cap !== undefined && value > cap)
      f.fail('value', `must not exceed the protocol's max supply of ${cap}`);
    const source = f.id('source', SOURCE_ID);
    const sourceKind = f.oneOf('sourceKind', SOURCE_KINDS);
    const ts = f.ts(now);
    return { asset, kind, value, source, sourceKind, ts };
  });
}

/** Currencies an FX source may quote: the catalog's fiat and metal codes (crypto rates come from aggregates). */
export const FX_CURRENCIES: ReadonlySet<string> = new Set(
  CURRENCIES.filter((c) => c.kind === 'fiat' || c.kind === 'metal').map((c) => c.code),
);

/** Validates one FX rate; the currency must be in `knownCurrencies` (default {@link FX_CURRENCIES}). */
export function validateFx(
  x: unknown,
  now = Date.now(),
  knownCurrencies: ReadonlySet<string> = FX_CURRENCIES,
): Validation<FxRate> {
  return run(() => {
    const f = new Fields(x, 'fx');
    const currency = f.id('currency');
    if (!knownCurrencies.has(currency)) f.fail('currency', 'must be a known currency code');
    const usdPerUnit = f.positive('usdPerUnit');
    const source = f.id('source', SOURCE_ID);
    const ts = f.ts(now);
    return { currency, usdPerUnit, ts, source };
  });
}

/**
 * Validates one chain observation (`MiningRecord`): a known asset, every figure null or in range (difficulty and
 * block time > 0, reward and hashrate >= 0, height a non-negative integer, tip time a plausible UNIX ms).
 */
export function validateMining(
  x: unknown,
  knownAssets: ReadonlySet<string>,
  now = Date.now(),
): Validation<MiningRecord> {
  return run(() => {
    const f = new Fields(x, 'mining');
    const asset = f.id('asset');
    if (!knownAssets.has(asset)) f.fail('asset', 'must be a known asset id');
    const algorithm = f.id('algorithm');
    const difficulty = f.nullable('difficulty', (n) => n > 0, 'a finite number > 0');
    const blockReward = f.nullable('blockReward', (n) => n >= 0, 'a finite number >= 0');
    const blockTimeSeconds = f.nullable('blockTimeSeconds', (n) => n > 0, 'a finite number > 0');
    const height = f.nullable('height', (n) => Number.isSafeInteger(n) && n >= 0, 'an integer >= 0');
    const networkHashps = f.nullable('networkHashps', (n) => n >= 0, 'a finite number >= 0');
    const tipTime = f.o['tipTime'] === null ? null : f.ts(now, 'tipTime');
    const source = f.id('source', SOURCE_ID);
    const observedAt = f.ts(now, 'observedAt');
    return {
      asset,
      algorithm,
      difficulty,
      blockReward,
      blockTimeSeconds,
      height,
      networkHashps,
      tipTime,
      source,
      observedAt,
    };
  });
}

/** One remembered reject, for logs and the health endpoint. */
export interface RejectExample {
  reason: string;
  /** Source id of the snapshot the record came from, when given. */
  source: string | null;
  /** When it was rejected, UNIX ms. */
  at: number;
  /** The record as JSON, cut to 300 characters. */
  sample: string;
}

/** Counts rejects by reason and keeps the last `maxExamples` of them (default 20). */
export class RejectCounter {
  readonly #counts = new Map<string, number>();
  readonly #bySource = new Map<string, number>();
  readonly #examples: RejectExample[] = [];
  #total = 0;

  constructor(readonly maxExamples = 20) {}

  add(reason: string, record: unknown, source: string | null = null, at = Date.now()): void {
    this.#total += 1;
    this.#counts.set(reason, (this.#counts.get(reason) ?? 0) + 1);
    const src = source ?? 'unknown';
    this.#bySource.set(src, (this.#bySource.get(src) ?? 0) + 1);
    if (this.maxExamples <= 0) return;
    let sample: string;
    try {
      sample = JSON.stringify(record) ?? String(record);
    } catch {
      sample = String(record);
    }
    this.#examples.push({ reason, source, at, sample: sample.slice(0, 300) });
    if (this.#examples.length > this.maxExamples) this.#examples.shift();
  }

  get total(): number {
    return this.#total;
  }

  /** Count per source name (`unknown` for rejects without one). */
  bySource(): ReadonlyMap<string, number> {
    return this.#bySource;
  }

  /** Count per reason, most frequent first. */
  byReason(): Record<string, number> {
    return Object.fromEntries([...this.#counts].sort((a, b) => b[1] - a[1]));
  }

  /** Remembered rejects, oldest first. */
  examples(): readonly RejectExample[] {
    return [...this.#examples];
  }

  toJSON(): { total: number; byReason: Record<string, number>; examples: readonly RejectExample[] } {
    return { total: this.#total, byReason: this.byReason(), examples: this.examples() };
  }

  reset(): void {
    this.#counts.clear();
    this.#examples.length = 0;
    this.#total = 0;
  }
}
