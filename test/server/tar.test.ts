/**
 * The tar writer of the kits' tarballs (src/server/browser/tar.ts): a ustar archive any reader takes (headers read
 * back here field by field, checksums included), sorted, with fixed times and owners, so the same files give the same
 * bytes; a path over 100 bytes goes into ustar's prefix field.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { TAR_MTIME_S, tar, tgz } from '../../src/server/browser/tar.ts';
import { untar } from './untar.ts';

const entries = [
  { path: 'package/index.js', body: Buffer.from('export const x = 1;\n') },
  { path: 'package/package.json', body: Buffer.from('{"name":"p"}\n') },
  { path: 'package/a/b.d.ts', body: Buffer.alloc(0) },
  { path: 'package/big.txt', body: Buffer.alloc(1500, 'x') },
];

describe('tar', () => {
  it('writes ustar file entries, sorted by path, with fixed mode, owner and time', () => {
    const read = untar(tar(entries));
    expect(read.map((r) => r.path)).toEqual([
      'package/a/b.d.ts',
      'package/big.txt',
      'package/index.js',
      'package/package.json',
    ]);
    for (const r of read) {
      expect(r).toMatchObject({ mode: 0o644, uid: 0, mtime: TAR_MTIME_S, type: '0', magic: 'ustar\0' });
    }
    expect(read[1]?.body).toBe('x'.repeat(1500));
    expect(read[2]?.body).toBe('export const x = 1;\n');
    expect(new Date(TAR_MTIME_S * 1000).toISOString()).toBe('1985-10-26T08:15:00.000Z');
  });

  it('the same files in any order give the same bytes, gzip included', () => {
    const a = tgz(entries);
    const b = tgz([...entries].reverse());
    expect(a.equals(b)).toBe(true);
    expect(gunzipSync(a).equals(tar(entries))).toBe(true);
    const changed = tgz([...entries.slice(1), { path: 'package/index.js', body: Buffer.from('2') }]);
    expect(changed.equals(a)).toBe(false);
  });

  it('a path longer than 100 bytes is split into prefix and name', () => {
    const path = `package/${'d'.repeat(60)}/${'e'.repeat(60)}/file.d.ts`;
    const [r] = untar(tar([{ path, body: Buffer.from('t') }]));
    expect(r?.path).toBe(path);
  });

  it('refuses what is not a relative file path, and a path given twice', () => {
    for (const path of ['', '/etc/passwd', 'package/../x', 'package//x', 'package/x/']) {
      expect(() => tar([{ path, body: Buffer.alloc(0) }])).toThrow(/not a relative file path/);
    }
    expect(() => tar([...entries, entries[0]!])).toThrow(/given twice/);
  });
});
