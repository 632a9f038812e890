import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogoFolder, MAX_LOGO_BYTES } from '../../src/rest/assets/logo-folder.ts';
import { ifNoneMatchHits, strongEtag } from '../../src/core/conditional.ts';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('not really the rest of a png'),
]);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>';

let dir: string;
let warnings: string[];
let folder: LogoFolder;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'logos-'));
  warnings = [];
  folder = new LogoFolder(dir, (m) => warnings.push(m));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('LogoFolder', () => {
  it('refuses a folder that does not exist, naming the variable', () => {
    expect(() => new LogoFolder(join(dir, 'missing'))).toThrow(
      /COIN_IMAGES_DIR: .*missing is not a directory/,
    );
  });

  it('finds nothing in an empty folder', async () => {
    expect(await folder.get('litecoin')).toBeNull();
    expect(warnings).toEqual([]);
  });

  it('serves a PNG, and an SVG over it when both exist', async () => {
    writeFileSync(join(dir, 'litecoin.png'), PNG);
    expect(await folder.get('litecoin')).toEqual({ body: PNG, type: 'image/png', etag: strongEtag(PNG) });
    writeFileSync(join(dir, 'litecoin.svg'), SVG);
    expect(await folder.get('litecoin')).toMatchObject({ type: 'image/svg+xml', etag: strongEtag(SVG) });
    rmSync(join(dir, 'litecoin.svg'));
    expect(await folder.get('litecoin')).toMatchObject({ type: 'image/png' });
  });

  it('re-reads a file when it changes, and not before', async () => {
    const file = join(dir, 'dogecoin.svg');
    writeFileSync(file, SVG);
    const first = await folder.get('dogecoin');
    expect(await folder.get('dogecoin')).toBe(first); // the cached object: no re-read
    const v2 = SVG.replace('r="1"', 'r="2"');
    writeFileSync(file, v2);
    utimesSync(file, new Date(Date.now() + 5_000), new Date(Date.now() + 5_000));
    const second = await folder.get('dogecoin');
    expect(second?.etag).toBe(strongEtag(v2));
    expect(second?.etag).not.toBe(first?.etag);
  });

  it('ignores, with one warning per file version, a file whose content is not its type or is too large', async () => {
    writeFileSync(join(dir, 'litecoin.png'), 'GIF89a…');
    writeFileSync(join(dir, 'dogecoin.svg'), '<html><script>alert(1)</script></html>');
    writeFileSync(join(dir, 'digibyte.svg'), Buffer.alloc(MAX_LOGO_BYTES + 1, 0x20));
    for (let i = 0; i < 2; i++) {
      expect(await folder.get('litecoin')).toBeNull();
      expect(await folder.get('dogecoin')).toBeNull();
      expect(await folder.get('digibyte')).toBeNull();
    }
    expect(warnings).toHaveLength(3);
    expect(warnings.join('\n')).toMatch(/litecoin\.png: not a PNG image/);
    expect(warnings.join('\n')).toMatch(/dogecoin\.svg: not an SVG document/);
    expect(warnings.join('\n')).toMatch(/digibyte\.svg: larger than/);
  });
});

describe('If-None-Match', () => {
  const etag = '"abc"';
  it('matches the tag, its weak form, * and lists; nothing else', () => {
    expect(ifNoneMatchHits('"abc"', etag)).toBe(true);
    expect(ifNoneMatchHits('W/"abc"', etag)).toBe(true);
    expect(ifNoneMatchHits('"x", "abc"', etag)).toBe(true);
    expect(ifNoneMatchHits('*', etag)).toBe(true);
    expect(ifNoneMatchHits('"abcd"', etag)).toBe(false);
    expect(ifNoneMatchHits(undefined, etag)).toBe(false);
    expect(ifNoneMatchHits('', etag)).toBe(false);
  });
});
