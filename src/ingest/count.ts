import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';

/** Counts the lines of a recording (`.jsonl` or `.jsonl.gz`), for progress totals. */
export async function countLines(path: string): Promise<number> {
  const raw = createReadStream(path);
  const stream = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  let n = 0;
  let last = 10;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) n++;
    if (chunk.length > 0) last = chunk[chunk.length - 1] as number;
  }
  return last === 10 ? n : n + 1;
}
