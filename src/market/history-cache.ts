/**
 * The history cache: a copy of the engine's closed history (every bar of its in-memory windows whose bucket ended by
 * the cache's horizon, and the FX rates of the days that ended by then) in one file, so that a restart reads it in
 * milliseconds instead of having the embedded store format 262,000 bars as text (about a second). It is a cache: the
 * store stays the truth. The file names the store's claim (`HorizonClaim`, in `meta`) it was written with; every write
 * that reaches behind the horizon retracts that claim, and a cache whose claim does not stand is not used.
 *
 * Format (little-endian): `CWHC`, version, the claim's token and horizon, a string table, then the bar sections (res,
 * asset, count, null flags, nine float64 per bar) and the FX sections (currency, count, days, rates, times, source
 * indexes), and a CRC-32 of all that. Float64 fields are 8-byte aligned so they are read without copying.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { breathe } from '../core/turns.ts';
import type { Bar, Resolution } from '../engine/types.ts';
import type { FxColumns } from './stored-fx.ts';

/** The cache's file name in the data directory. */
export const HISTORY_CACHE_FILE = 'history.cache';

const MAGIC = 0x43484357; // 'CWHC'
const VERSION = 1;
const RESOLUTIONS: readonly Resolution[] = ['5m', '1h', '1d'];

/** What the cache holds. */
export interface HistoryCache {
  token: string;
  /** UNIX ms: every bar whose bucket ended by then, and every FX rate of a day that ended by then. */
  horizon: number;
  /** Bars by resolution, then by asset (oldest first). */
  bars: Map<Resolution, Map<string, Bar[]>>;
  /** FX rates by currency, oldest day first. */
  fx: Map<string, FxColumns>;
}

/** A new token for a cache about to be written. */
export const newCacheToken = (): string => randomUUID();

class Writer {
  private buf: Buffer;
  length = 0;
  /** @param size the bytes expected (one allocation when right; it grows when not) */
  constructor(size: number) {
    this.buf = Buffer.alloc(size);
  }
  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.length + n));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }
  u32(v: number): void {
    this.reserve(4);
    this.buf.writeUInt32LE(v, this.length);
    this.length += 4;
  }
  f64(v: number): void {
    this.reserve(8);
    this.buf.writeDoubleLE(v, this.length);
    this.length += 8;
  }
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  /** Pads to a multiple of 8 bytes. */
  align(): void {
    const pad = (8 - (this.length % 8)) % 8;
    this.reserve(pad);
    this.buf.fill(0, this.length, this.length + pad);
    this.length += pad;
  }
  /** `n` float64 slots at an aligned offset, to fill in place. */
  floats(n: number): Float64Array {
    this.align();
    this.reserve(n * 8);
    const out = new Float64Array(this.buf.buffer, this.buf.byteOffset + this.length, n);
    this.length += n * 8;
    return out;
  }
  done(): Buffer {
    this.u32(crc32(this.buf.subarray(0, this.length)));
    return this.buf.subarray(0, this.length);
  }
}

/** How long encoding runs before it lets the event loop turn: the whole cache is ~20 MB, ~0.3 s of work. */
const ENCODE_SLICE_MS = 10;

/**
 * The cache as bytes, written in slices of {@link ENCODE_SLICE_MS} with a turn of the event loop between them: the
 * hourly checkpoint of a running server encodes its whole history, which in one piece held every request for 0.35–0.45
 * s (a fairness run's slowest light requests, once an hour).
 */
export async function encodeHistoryCache(c: HistoryCache): Promise<Buffer> {
  const strings = new Map<string, number>();
  const id = (s: string): number => {
    let i = strings.get(s);
    if (i === undefined) strings.set(s, (i = strings.size));
    return i;
  };
  for (const byAsset of c.bars.values()) for (const a of byAsset.keys()) id(a);
  for (const [cur, rates] of c.fx) {
    id(cur);
    for (const source of rates.sources) id(source);
  }
  // An upper bound of the size, so the bytes are written into one buffer: header, strings, sections with padding.
  let size = 64;
  for (const str of strings.keys()) size += 4 + Buffer.byteLength(str, 'utf8');
  for (const byAsset of c.bars.values()) for (const bars of byAsset.values()) size += 24 + bars.length * 73;
  for (const rates of c.fx.values()) size += 24 + rates.ts.length * 20;
  const w = new Writer(size);
  w.u32(MAGIC);
  w.u32(VERSION);
  w.bytes(Buffer.from(c.token.padEnd(36).slice(0, 36), 'latin1'));
  w.align();
  w.f64(c.horizon);
  w.u32(strings.size);
  for (const s of strings.keys()) {
    const b = Buffer.from(s, 'utf8');
    w.u32(b.length);
    w.bytes(b);
  }
  let sections = 0;
  for (const byAsset of c.bars.values()) sections += byAsset.size;
  w.u32(sections);
  for (const [res, byAsset] of c.bars) {
    for (const [asset, bars] of byAsset) {
      await breathe(ENCODE_SLICE_MS);
      w.u32(RESOLUTIONS.indexOf(res));
      w.u32(id(asset));
      w.u32(bars.length);
      const flags = new Uint8Array(bars.length);
      const f = w.floats(bars.length * 9);
      for (let i = 0; i < bars.length; i++) {
        const b = bars[i] as Bar;
        const j = i * 9;
        f[j] = b.ts;
        f[j + 1] = b.open;
        f[j + 2] = b.high;
        f[j + 3] = b.low;
        f[j + 4] = b.close;
        f[j + 5] = b.openTs;
        f[j + 6] = b.closeTs;
        f[j + 7] = b.volumeUsd ?? 0;
        f[j + 8] = b.marketCapUsd ?? 0;
        flags[i] = (b.volumeUsd === null ? 1 : 0) | (b.marketCapUsd === null ? 2 : 0);
      }
      w.bytes(flags);
    }
  }
  w.u32(c.fx.size);
  for (const [currency, rates] of c.fx) {
    const n = rates.ts.length;
    w.u32(id(currency));
    w.u32(n);
    const f = w.floats(n * 2);
    for (let i = 0; i < n; i++) {
      f[2 * i] = rates.usdPerUnit[i] as number;
      f[2 * i + 1] = rates.ts[i] as number;
    }
    for (const source of rates.sources) w.u32(id(source));
  }
  return w.done();
}

class Reader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}
  u32(): number {
    const v = this.buf.readUInt32LE(this.at);
    this.at += 4;
    return v;
  }
  f64(): number {
    const v = this.buf.readDoubleLE(this.at);
    this.at += 8;
    return v;
  }
  bytes(n: number): Buffer {
    const b = this.buf.subarray(this.at, this.at + n);
    if (b.length !== n) throw new RangeError('cache truncated');
    this.at += n;
    return b;
  }
  align(): void {
    this.at += (8 - (this.at % 8)) % 8;
  }
  floats(n: number): Float64Array {
    this.align();
    const out = new Float64Array(this.buf.buffer, this.buf.byteOffset + this.at, n);
    this.at += n * 8;
    return out;
  }
}

/** The cache in `buf`, or null when it is not a whole cache of this version (wrong magic, truncated, corrupt). */
export function decodeHistoryCache(buf: Buffer): HistoryCache | null {
  if (buf.length < 8 || buf.readUInt32LE(0) !== MAGIC || buf.readUInt32LE(4) !== VERSION) return null;
  const body = buf.subarray(0, buf.length - 4);
  if (crc32(body) !== buf.readUInt32LE(buf.length - 4)) return null;
  // Float64Array views need an 8-byte aligned start.
  const data = body.byteOffset % 8 === 0 ? body : Buffer.from(body);
  try {
    const r = new Reader(data);
    r.u32();
    r.u32();
    const token = r.bytes(36).toString('latin1').trimEnd();
    r.align();
    const horizon = r.f64();
    const strings: string[] = [];
    for (let n = r.u32(); n > 0; n--) strings.push(r.bytes(r.u32()).toString('utf8'));
    const bars = new Map<Resolution, Map<string, Bar[]>>();
    for (let n = r.u32(); n > 0; n--) {
      const res = RESOLUTIONS[r.u32()] as Resolution;
      const asset = strings[r.u32()] as string;
      const count = r.u32();
      const out = barsOf(r.floats(count * 9), r.bytes(count));
      let byAsset = bars.get(res);
      if (!byAsset) bars.set(res, (byAsset = new Map()));
      byAsset.set(asset, out);
    }
    const fx = new Map<string, FxColumns>();
    for (let n = r.u32(); n > 0; n--) {
      const currency = strings[r.u32()] as string;
      const count = r.u32();
      const f = r.floats(count * 2);
      const rates: FxColumns = {
        usdPerUnit: new Array(count),
        ts: new Array(count),
        sources: new Array(count),
      };
      for (let i = 0; i < count; i++) {
        rates.usdPerUnit[i] = f[2 * i] as number;
        rates.ts[i] = f[2 * i + 1] as number;
        rates.sources[i] = strings[r.u32()] as string;
      }
      fx.set(currency, rates);
    }
    return { token, horizon, bars, fx };
  } catch {
    return null;
  }
}

/**
 * The bars of one section, as views of the cache's bytes. Most of a restart's reading was here: 262,000 objects of
 * nine numbers, each number a heap object of its own, all of them surviving the young generation. A view is one small
 * object whose figures stay in the buffer (read-only: the engine replaces a bar it merges into, never changes one).
 */
function barsOf(f: Float64Array, flags: Uint8Array): Bar[] {
  const section = { f, flags };
  const out = new Array<Bar>(flags.length);
  for (let i = 0; i < flags.length; i++) out[i] = new CachedBar(section, i);
  return out;
}

/** One bar of a cache section: nine float64 at `9 i` of `f`, and its null flags at `i` of `flags`. */
class CachedBar implements Bar {
  constructor(
    private readonly s: { readonly f: Float64Array; readonly flags: Uint8Array },
    private readonly i: number,
  ) {}
  get ts(): number {
    return this.s.f[this.i * 9] as number;
  }
  get open(): number {
    return this.s.f[this.i * 9 + 1] as number;
  }
  get high(): number {
    return this.s.f[this.i * 9 + 2] as number;
  }
  get low(): number {
    return this.s.f[this.i * 9 + 3] as number;
  }
  get close(): number {
    return this.s.f[this.i * 9 + 4] as number;
  }
  get openTs(): number {
    return this.s.f[this.i * 9 + 5] as number;
  }
  get closeTs(): number {
    return this.s.f[this.i * 9 + 6] as number;
  }
  get volumeUsd(): number | null {
    return (this.s.flags[this.i] as number) & 1 ? null : (this.s.f[this.i * 9 + 7] as number);
  }
  get marketCapUsd(): number | null {
    return (this.s.flags[this.i] as number) & 2 ? null : (this.s.f[this.i * 9 + 8] as number);
  }
  /** As JSON, the bar's nine figures, as a plain bar gives them. */
  toJSON(): Bar {
    const { ts, open, high, low, close, openTs, closeTs, volumeUsd, marketCapUsd } = this;
    return { ts, open, high, low, close, openTs, closeTs, volumeUsd, marketCapUsd };
  }
}

/** Writes the cache to `path` durably: a temporary file, flushed to disk, renamed over the old one. */
export async function writeHistoryCache(path: string, c: HistoryCache): Promise<void> {
  const tmp = `${path}.partial`;
  const f = await open(tmp, 'w');
  try {
    await f.writeFile(await encodeHistoryCache(c));
    await f.sync();
  } finally {
    await f.close();
  }
  await rename(tmp, path);
  const dir = await open(dirname(path), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

/** Reads started by {@link readHistoryCacheAhead}, by path, each taken by the first {@link readHistoryCache} of it. */
const readsAhead = new Map<string, Promise<Buffer | null>>();

/**
 * Starts reading the cache in `path` on the thread pool, for {@link readHistoryCache} to take later: a restart reads
 * its 20 MB while the product's modules load and the store opens on the main thread, instead of after them. Resolves
 * when the read is done (never rejects: a missing file is read as none).
 */
export function readHistoryCacheAhead(path: string): Promise<unknown> {
  let read = readsAhead.get(path);
  if (!read) readsAhead.set(path, (read = readFile(path).catch(() => null)));
  return read;
}

/**
 * The cache in `path` if it is whole and written with `token`; null otherwise (none, another, corrupt). Without a read
 * ahead, read in one call: start-up waits for it either way, and `readFile`'s 512 KiB reads through the thread pool took
 * a restart 0.2–0.5 s of waiting for a 20 MB cache.
 */
export async function readHistoryCache(path: string, token: string): Promise<HistoryCache | null> {
  const ahead = readsAhead.get(path);
  readsAhead.delete(path);
  let buf: Buffer | null;
  try {
    buf = ahead ? await ahead : readFileSync(path);
  } catch {
    return null;
  }
  const c = buf && decodeHistoryCache(buf);
  return c && c.token === token ? c : null;
}

/** Removes the cache file (when it can no longer be trusted); no error when there is none. */
export async function removeHistoryCache(path: string): Promise<void> {
  await rm(path, { force: true });
}
