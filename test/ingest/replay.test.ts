import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReplaySource, writeRecording } from '../../src/ingest/replay.ts';
import type { SourceSnapshot, TickerSource } from '../../src/ingest/types.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replay-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const signal = new AbortController().signal;
const snap = (i: number): SourceSnapshot => ({
  source: 'replay:test',
  ts: 1_749_556_800_000 + i * 300_000,
  tickers: [
    {
      venue: 'kraken',
      venueKind: 'cex',
      base: 'litecoin',
      quote: 'usd',
      last: 89 + i,
      bid: null,
      ask: null,
      baseVolume: 10,
      ts: 1_749_556_800_000 + i,
    },
  ],
  ...(i % 2 === 0 ? { supply: [{ asset: 'litecoin', kind: 'circulating', value: 75e6 }], fx: [] } : {}),
});
async function drain(src: TickerSource): Promise<SourceSnapshot[]> {
  const out: SourceSnapshot[] = [];
  for (let s = await src.poll(signal); s; s = await src.poll(signal)) out.push(s);
  return out;
}

describe('writeRecording + createReplaySource', () => {
  it.each(['rec.jsonl', 'rec.jsonl.gz'])('round-trips %s, then returns null at EOF', async (name) => {
    const path = join(dir, name);
    const snapshots = [0, 1, 2].map(snap);
    expect(await writeRecording(path, snapshots)).toBe(3);
    const bytes = await readFile(path);
    expect(bytes[0] === 0x1f && bytes[1] === 0x8b).toBe(name.endsWith('.gz'));

    const src = createReplaySource({ path });
    expect(src.kind).toBe('replay');
    expect(src.id).toBe('replay:rec');
    expect(await drain(src)).toEqual(snapshots);
    expect(await src.poll(signal)).toBeNull();
    await src.close?.();
  });

  it('writes from an async iterable into a new directory and streams a long gzip recording', async () => {
    const path = join(dir, 'nested', 'long.jsonl.gz');
    async function* gen(): AsyncGenerator<SourceSnapshot> {
      for (let i = 0; i < 5000; i++) yield snap(i);
    }
    expect(await writeRecording(path, gen())).toBe(5000);
    const src = createReplaySource({ path, id: 'replay:long' });
    expect(src.id).toBe('replay:long');
    const all = await drain(src);
    expect(all).toHaveLength(5000);
    expect(all[4999]).toEqual(snap(4999));
  });

  it.each([false, true])('skips and reports malformed lines (gzip: %s)', async (gz) => {
    const lines = [
      JSON.stringify(snap(0)),
      '{"source": "x", "ts": 1, "tickers": [',
      '[1, 2, 3]',
      '',
      '{"source": "x", "ts": 1}',
      '{"source": "", "ts": 1, "tickers": []}',
      '{"source": "x", "ts": "1", "tickers": []}',
      '{"source": "x", "ts": 1, "tickers": [], "fx": {}}',
      JSON.stringify(snap(1)),
    ];
    const path = join(dir, gz ? 'bad.jsonl.gz' : 'bad.jsonl');
    const text = `${lines.join('\r\n')}\n`;
    await writeFile(path, gz ? gzipSync(text) : text);
    const errors: [number, string][] = [];
    const src = createReplaySource({ path, onError: (n, reason) => errors.push([n, reason]) });
    expect(await drain(src)).toEqual([snap(0), snap(1)]);
    expect(errors).toEqual([
      [2, 'not valid JSON'],
      [3, 'not a JSON object'],
      [5, 'tickers: must be an array'],
      [6, 'source: must be a string'],
      [7, 'ts: must be a number'],
      [8, 'fx: must be an array'],
    ]);
  });

  it('skips malformed lines silently without onError, and an empty file is at EOF at once', async () => {
    const path = join(dir, 'empty.jsonl');
    await writeFile(path, 'garbage\n');
    expect(await createReplaySource({ path }).poll(signal)).toBeNull();
    await writeFile(path, '');
    expect(await createReplaySource({ path }).poll(signal)).toBeNull();
  });

  it('rejects a poll when the file is missing or the signal is aborted', async () => {
    await expect(createReplaySource({ path: join(dir, 'missing.jsonl') }).poll(signal)).rejects.toThrow(
      /ENOENT/,
    );
    const path = join(dir, 'one.jsonl');
    await writeRecording(path, [snap(0)]);
    const ac = new AbortController();
    ac.abort(new Error('stop'));
    await expect(createReplaySource({ path }).poll(ac.signal)).rejects.toThrow('stop');
  });

  it('rejects a poll on a corrupt gzip file', async () => {
    const path = join(dir, 'corrupt.jsonl.gz');
    await writeFile(path, Buffer.from('definitely not gzip'));
    await expect(createReplaySource({ path }).poll(signal)).rejects.toThrow();
  });

  it('returns null after close', async () => {
    const path = join(dir, 'closed.jsonl');
    await writeRecording(path, [snap(0), snap(1)]);
    const src = createReplaySource({ path });
    expect(await src.poll(signal)).toEqual(snap(0));
    await src.close?.();
    expect(await src.poll(signal)).toBeNull();
  });
});
