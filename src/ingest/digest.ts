/**
 * The digest that identifies a validated snapshot's content in the ingest log (`ingest_log.digest`): a snapshot that
 * is polled or replayed again is known by its source, time and digest, and is not applied twice.
 *
 * It is a 64-bit hash (two 32-bit MurmurHash3-style lanes) of the records, written `2:` and 16 hex digits: tickers
 * field by field (their shape is fixed by validation, `TICKER_FIELDS`), the other records walked as JSON would write
 * them (keys in their order, `undefined` left out). A collision between two different snapshots of one source at one
 * time is a 2⁻⁶⁴ chance. Stores written before it hold a truncated SHA-256 of the records' JSON text
 * ({@link legacySnapshotDigest}, 22 base64url characters, never a `:`): for the demo's million tickers that was
 * ~1 s of a first start, building and hashing 187 MB of text; this is ~0.2 s.
 */
import { createHash } from 'node:crypto';
import type { FxRate, MiningRecord, SupplyRecord, Ticker } from './types.ts';

/** What a snapshot's digest covers. */
export interface DigestedSnapshot {
  source: string;
  ts: number;
  tickers: readonly Ticker[];
  supply: readonly SupplyRecord[];
  fx: readonly FxRate[];
  mining: readonly MiningRecord[];
}

/** The prefix of a digest of this kind: a legacy digest (base64url) cannot contain `:`. */
const PREFIX = '2:';

export const isLegacyDigest = (digest: string): boolean => !digest.startsWith(PREFIX);

/** The digest of `s` (see the module's comment). */
export function snapshotDigest(s: DigestedSnapshot): string {
  const h = new Hasher();
  h.string(s.source);
  h.number(s.ts);
  h.word(Tag.Array);
  for (const t of s.tickers) h.ticker(t);
  h.word(Tag.End);
  h.value(s.supply);
  h.value(s.fx);
  h.value(s.mining);
  return h.digest();
}

/** The digest stores kept before `2:` digests: the first 22 characters of the SHA-256 of the records as JSON. */
export function legacySnapshotDigest(s: DigestedSnapshot): string {
  const json = JSON.stringify([s.source, s.ts, s.tickers, s.supply, s.fx, s.mining]);
  return createHash('sha256').update(json).digest('base64url').slice(0, 22);
}

// Tags that keep one shape of values from hashing like another (a string "1" and the number 1, an array's end).
const enum Tag {
  Null = 1,
  False,
  True,
  Number,
  String,
  Array,
  Object,
  End,
}

const float = new Float64Array(1);
const floatWords = new Uint32Array(float.buffer);

/**
 * Two 32-bit hashes of each string (FNV-1a variants, mixed), kept per string: a snapshot repeats the same keys,
 * venues and assets a million times. `stringIndex` maps a string to its pair's place in `stringWords`.
 */
const stringIndex = new Map<string, number>();
const STRINGS_MAX = 65_536;
const stringWords = new Uint32Array(2 * STRINGS_MAX);

function stringAt(s: string): number {
  let i = stringIndex.get(s);
  if (i !== undefined) return i;
  if (stringIndex.size >= STRINGS_MAX) stringIndex.clear();
  i = 2 * stringIndex.size;
  let a = 0x811c9dc5 ^ s.length;
  let b = 0x050c5d1f ^ s.length;
  for (let j = 0; j < s.length; j++) {
    const c = s.charCodeAt(j);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) + j;
  }
  stringWords[i] = fmix(a);
  stringWords[i + 1] = fmix(b ^ 0x5bd1e995);
  stringIndex.set(s, i);
  return i;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Two lanes with different seeds and constants, fed the same 32-bit words. */
class Hasher {
  private a = 0x9747b28c;
  private b = 0x3c6ef372;
  private n = 0;
  /** The last string of each of a ticker's string fields (`field`), and its place in `stringWords`. */
  private readonly lastString: (string | undefined)[] = [];
  private readonly lastAt: number[] = [];

  word(k: number): void {
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    this.a ^= k;
    this.a = (this.a << 13) | (this.a >>> 19);
    this.a = (Math.imul(this.a, 5) + 0xe6546b64) | 0;
    this.b ^= Math.imul(k, 0x2c1b3c6d) ^ this.n;
    this.b = (this.b << 17) | (this.b >>> 15);
    this.b = (Math.imul(this.b, 9) + 0x7f4a7c15) | 0;
    this.n++;
  }

  number(v: number): void {
    this.word(Tag.Number);
    this.float(v);
  }

  private float(v: number): void {
    float[0] = v;
    this.word(floatWords[0] as number);
    this.word(floatWords[1] as number);
  }

  string(s: string): void {
    this.word(Tag.String);
    this.pair(stringAt(s));
  }

  private pair(i: number): void {
    this.word(stringWords[i] as number);
    this.word(stringWords[i + 1] as number);
  }

  /** A ticker's fields in their fixed order, without tags but for the two that may be null. */
  ticker(t: Ticker): void {
    this.word(Tag.Object);
    this.field(0, t.venue);
    this.field(1, t.venueKind);
    this.field(2, t.base);
    this.field(3, t.quote);
    this.float(t.last);
    if (t.bid === null) this.word(Tag.Null);
    else this.number(t.bid);
    if (t.ask === null) this.word(Tag.Null);
    else this.number(t.ask);
    this.float(t.baseVolume);
    this.float(t.ts);
  }

  /** A ticker's string field; `slot` remembers the field's last string (consecutive tickers repeat them). */
  private field(slot: number, s: string): void {
    if (this.lastString[slot] !== s) {
      this.lastString[slot] = s;
      this.lastAt[slot] = stringAt(s);
    }
    this.pair(this.lastAt[slot] as number);
  }

  value(v: unknown): void {
    if (v === null) this.word(Tag.Null);
    else if (typeof v === 'number') this.number(v);
    else if (typeof v === 'string') this.string(v);
    else if (typeof v === 'boolean') this.word(v ? Tag.True : Tag.False);
    else if (Array.isArray(v)) {
      this.word(Tag.Array);
      for (const x of v) this.value(x);
      this.word(Tag.End);
    } else if (typeof v === 'object') {
      this.word(Tag.Object);
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (x === undefined || typeof x === 'function') continue;
        this.string(k);
        this.value(x);
      }
      this.word(Tag.End);
    }
  }

  digest(): string {
    const a = fmix(this.a ^ this.n);
    const b = fmix(this.b ^ Math.imul(this.n, 0x9e3779b1));
    return `${PREFIX}${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`;
  }
}
