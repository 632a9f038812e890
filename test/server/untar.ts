/** Reads a ustar archive back (regular files only) for the tests, checking what a tar reader checks. */
import { expect } from 'vitest';

export interface TarFile {
  path: string;
  mode: number;
  uid: number;
  mtime: number;
  type: string;
  magic: string;
  body: string;
}

/** Reads a ustar archive back (files only), checking each header's checksum and the two zero blocks at the end. */
export function untar(buf: Buffer): TarFile[] {
  const out: TarFile[] = [];
  const str = (b: Buffer) => b.toString('utf8').replace(/\0.*$/s, '');
  const oct = (b: Buffer) => parseInt(str(b).trim(), 8);
  let off = 0;
  for (;;) {
    const h = buf.subarray(off, off + 512);
    if (h.every((b) => b === 0)) break;
    const sum = [...h].reduce((s, b, i) => s + (i >= 148 && i < 156 ? 32 : b), 0);
    expect(oct(h.subarray(148, 156))).toBe(sum);
    const size = oct(h.subarray(124, 136));
    const prefix = str(h.subarray(345, 500));
    const name = str(h.subarray(0, 100));
    out.push({
      path: prefix ? `${prefix}/${name}` : name,
      mode: oct(h.subarray(100, 108)),
      uid: oct(h.subarray(108, 116)),
      mtime: oct(h.subarray(136, 148)),
      type: h.toString('ascii', 156, 157),
      magic: h.toString('ascii', 257, 263),
      body: buf.subarray(off + 512, off + 512 + size).toString('utf8'),
    });
    off += 512 + Math.ceil(size / 512) * 512;
  }
  expect(buf.length).toBe(off + 1024);
  expect(buf.subarray(off).every((b) => b === 0)).toBe(true);
  return out;
}
