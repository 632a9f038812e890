/**
 * Recordings: JSON lines, one {@link SourceSnapshot} per line, plain (`.jsonl`) or gzip (`.jsonl.gz`, detected by
 * the `.gz` extension). The replay source streams a recording line by line, so a recording of any length replays
 * in constant memory; `writeRecording` produces the same format (the demo generator and tests use it).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { SourceSnapshot, TickerSource } from './types.ts';

/** Called for a line that is skipped; `lineNo` is 1-based. */
export type LineErrorHandler = (lineNo: number, reason: string) => void;

/** A lazily opened line reader over a plain or gzip file. Blank lines are skipped. */
export interface LineReader {
  /** The next non-blank line, or null at end of file. Rejects when the file cannot be read. */
  next(): Promise<{ lineNo: number; text: string } | null>;
  close(): Promise<void>;
}

export function openLineReader(path: string): LineReader {
  let lines: AsyncIterator<string> | undefined;
  let streams: { file: Readable; gunzip?: Transform } | undefined;
  let lineNo = 0;
  let done = false;
  const open = (): AsyncIterator<string> => {
    const file = createReadStream(path);
    let input: Readable = file;
    if (path.endsWith('.gz')) {
      const gunzip = createGunzip();
      // pipeline forwards a read error to gunzip, whose error then ends the line iterator with a rejection.
      pipeline(file, gunzip).catch(() => {});
      input = gunzip;
      streams = { file, gunzip };
    } else {
      streams = { file };
    }
    return createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
  };
  return {
    async next() {
      while (!done) {
        lines ??= open();
        const r = await lines.next();
        if (r.done) break;
        lineNo += 1;
        if (r.value.trim() !== '') return { lineNo, text: r.value };
      }
      done = true;
      return null;
    },
    async close() {
      done = true;
      await lines?.return?.();
      streams?.gunzip?.destroy();
      streams?.file.destroy();
    },
  };
}

/** Parses one recording line; returns the snapshot or the reason it is malformed. */
export function parseSnapshotLine(
  text: string,
): { ok: true; value: SourceSnapshot } | { ok: false; reason: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return { ok: false, reason: 'not a JSON object' };
  const o = v as Record<string, unknown>;
  if (typeof o['source'] !== 'string' || o['source'] === '')
    return { ok: false, reason: 'source: must be a string' };
  if (typeof o['ts'] !== 'number' || !Number.isFinite(o['ts']))
    return { ok: false, reason: 'ts: must be a number' };
  if (!Array.isArray(o['tickers'])) return { ok: false, reason: 'tickers: must be an array' };
  for (const key of ['supply', 'fx'] as const) {
    if (o[key] !== undefined && !Array.isArray(o[key]))
      return { ok: false, reason: `${key}: must be an array` };
  }
  const snapshot: SourceSnapshot = { source: o['source'], ts: o['ts'], tickers: o['tickers'] };
  if (Array.isArray(o['supply'])) snapshot.supply = o['supply'];
  if (Array.isArray(o['fx'])) snapshot.fx = o['fx'];
  return { ok: true, value: snapshot };
}

export interface ReplaySourceOptions {
  /** Recording file: `.jsonl` or `.jsonl.gz`. */
  path: string;
  /** Source id. Default: `replay:<file name without .jsonl/.jsonl.gz>`. */
  id?: string;
  /** Told about every malformed line, which is then skipped. Default: none (skipped silently). */
  onError?: LineErrorHandler;
}

/**
 * Replays a recording: each `poll` returns the next line's snapshot as recorded (its `source` and `ts` unchanged),
 * and `null` once the file is exhausted. The file is opened on the first poll.
 */
export function createReplaySource(opts: ReplaySourceOptions): TickerSource {
  const reader = openLineReader(opts.path);
  const id = opts.id ?? `replay:${basename(opts.path).replace(/\.jsonl(\.gz)?$|\.gz$/, '')}`;
  return {
    id,
    kind: 'replay',
    async poll(signal) {
      signal.throwIfAborted();
      for (let line = await reader.next(); line; line = await reader.next()) {
        const parsed = parseSnapshotLine(line.text);
        if (parsed.ok) return parsed.value;
        opts.onError?.(line.lineNo, parsed.reason);
      }
      return null;
    },
    close: () => reader.close(),
  };
}

/**
 * Writes snapshots as a recording, gzip-compressed when `path` ends with `.gz`. Creates the parent directory and
 * replaces an existing file. Resolves to the number of snapshots written.
 */
export async function writeRecording(
  path: string,
  snapshots: AsyncIterable<SourceSnapshot> | Iterable<SourceSnapshot>,
): Promise<number> {
  await mkdir(dirname(path), { recursive: true });
  let count = 0;
  async function* lines(): AsyncGenerator<string> {
    for await (const snapshot of snapshots) {
      count += 1;
      yield `${JSON.stringify(snapshot)}\n`;
    }
  }
  const out = createWriteStream(path);
  if (path.endsWith('.gz')) await pipeline(Readable.from(lines()), createGzip(), out);
  else await pipeline(Readable.from(lines()), out);
  return count;
}

/**
 * A replay source over snapshots already in memory (or generated as they are read): each `poll` returns the next
 * one, and `null` once they are exhausted.
 */
export function iterableSource(id: string, snapshots: Iterable<SourceSnapshot>): TickerSource {
  const it = snapshots[Symbol.iterator]();
  let done = false;
  return {
    id,
    kind: 'replay',
    async poll(signal) {
      signal.throwIfAborted();
      if (done) return null;
      const n = it.next();
      if (n.done) done = true;
      return n.done ? null : n.value;
    },
    async close() {
      done = true;
      it.return?.();
    },
  };
}
