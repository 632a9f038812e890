/**
 * A deterministic gzip'd tar archive (POSIX ustar), enough for an npm package tarball: regular files only, sorted by
 * path, every header with the same mode, owner and time, so that the same files always give the same bytes (and the
 * same ETag). Pure: no files are read here.
 */
import { gzipSync } from 'node:zlib';

/** One file of the archive: its path inside the archive (`/`-separated, no leading `/`) and its bytes. */
export interface TarEntry {
  path: string;
  body: Buffer;
}

/** The time of every entry: 1985-10-26T08:15:00Z, the fixed time `npm pack` itself writes. */
export const TAR_MTIME_S = 499_162_500;

const BLOCK = 512;

/** Writes `value` as a NUL-terminated octal number of `width` bytes (digits zero-padded to `width - 1`). */
function octal(header: Buffer, offset: number, width: number, value: number): void {
  header.write(`${value.toString(8).padStart(width - 1, '0')}\0`, offset, width, 'ascii');
}

/** Splits a path into ustar's `prefix` (≤ 155 bytes) and `name` (≤ 100 bytes) at a `/`. */
function splitPath(path: string): { prefix: string; name: string } {
  if (Buffer.byteLength(path) <= 100) return { prefix: '', name: path };
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { prefix, name };
  }
  throw new Error(`tar: path too long for ustar: ${path}`);
}

function header(entry: TarEntry): Buffer {
  if (
    !entry.path ||
    entry.path.startsWith('/') ||
    entry.path.split('/').some((s) => s === '..' || s === '')
  ) {
    throw new Error(`tar: not a relative file path: ${JSON.stringify(entry.path)}`);
  }
  const h = Buffer.alloc(BLOCK);
  const { prefix, name } = splitPath(entry.path);
  h.write(name, 0, 100, 'utf8');
  octal(h, 100, 8, 0o644); // mode
  octal(h, 108, 8, 0); // uid
  octal(h, 116, 8, 0); // gid
  octal(h, 124, 12, entry.body.length);
  octal(h, 136, 12, TAR_MTIME_S);
  h.fill(' ', 148, 156); // the checksum counts its own field as spaces
  h.write('0', 156, 1, 'ascii'); // a regular file
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return h;
}

/** The tar archive of `entries`, sorted by path (two entries with one path throw). */
export function tar(entries: readonly TarEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const parts: Buffer[] = [];
  sorted.forEach((e, i) => {
    if (i > 0 && sorted[i - 1]?.path === e.path) throw new Error(`tar: ${e.path} given twice`);
    parts.push(header(e), e.body);
    const pad = (BLOCK - (e.body.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  });
  parts.push(Buffer.alloc(2 * BLOCK)); // the end of the archive: two zero blocks
  return Buffer.concat(parts);
}

/** The gzip'd tar archive of `entries` (level 9; zlib's gzip header carries no time, so the bytes are stable). */
export function tgz(entries: readonly TarEntry[]): Buffer {
  return gzipSync(tar(entries), { level: 9 });
}
