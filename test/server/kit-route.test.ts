/**
 * `/kits/<dir>.tgz` (src/server/browser/kit-route.ts) over a build directory of stand-in packages: the tarball npm
 * installs (the files package.json's `files` names, under `package/`), the same bytes and ETag from any server until
 * the package is built again, 304 on `If-None-Match`, and the error shape for a kit that is not built (saying to run
 * `npm run build:kits`) or that does not exist. The real kits and npm itself: test/kit/install.e2e.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kitPackages } from '../../src/server/browser/kit-packages.ts';
import { DEFAULT_KITS_DIR } from '../../src/server/browser/kit-route.ts';
import { PROJECT_ROOT } from '../../src/core/project-root.ts';
import { bareServer } from './bare-server.ts';
import type { BareServer } from './bare-server.ts';
import { untar } from './untar.ts';

const kitsDir = mkdtempSync(join(tmpdir(), 'cw-kit-route-'));

/** Writes a stand-in package `dir` as the build would (package.json last), with a file its `files` leaves out. */
function buildPackage(dir: string, version: string): void {
  const d = join(kitsDir, dir);
  rmSync(d, { recursive: true, force: true });
  mkdirSync(join(d, 'types'), { recursive: true });
  writeFileSync(join(d, 'index.js'), `export const dir = '${dir}';\n`);
  writeFileSync(join(d, 'types', 'index.d.ts'), 'export declare const dir: string;\n');
  writeFileSync(join(d, 'README.md'), `# ${dir}\n`);
  writeFileSync(join(d, 'stray.log'), 'not shipped\n');
  const name = `@coinwallet/${dir}`;
  writeFileSync(join(d, 'package.json'), JSON.stringify({ name, version, files: ['index.js', 'types/'] }));
}

let a: BareServer;
let b: BareServer;
beforeAll(async () => {
  buildPackage('kit', '1.0.0');
  buildPackage('kit-ltc', '1.0.0');
  [a, b] = await Promise.all([bareServer({ kitsDir }), bareServer({ kitsDir })]);
}, 60_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
  rmSync(kitsDir, { recursive: true, force: true });
});

describe('/kits/<dir>.tgz', () => {
  it('serves an npm tarball of the package: its shipped files under package/', async () => {
    const r = await a.app.inject({ url: '/kits/kit.tgz' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/gzip');
    expect(r.headers['content-disposition']).toBe('attachment; filename="coinwallet-kit.tgz"');
    const files = untar(gunzipSync(r.rawPayload));
    expect(files.map((f) => f.path)).toEqual([
      'package/README.md',
      'package/index.js',
      'package/package.json',
      'package/types/index.d.ts',
    ]);
    expect(files.find((f) => f.path === 'package/index.js')?.body).toBe("export const dir = 'kit';\n");
    const ltc = untar(gunzipSync((await a.app.inject({ url: '/kits/kit-ltc.tgz' })).rawPayload));
    expect(JSON.parse(ltc.find((f) => f.path === 'package/package.json')?.body ?? '')).toMatchObject({
      name: '@coinwallet/kit-ltc',
    });
  });

  it('the same bytes and strong ETag from every server; 304 on If-None-Match', async () => {
    const [ra, rb] = await Promise.all([
      a.app.inject({ url: '/kits/kit.tgz' }),
      b.app.inject({ url: '/kits/kit.tgz' }),
    ]);
    expect(ra.rawPayload.equals(rb.rawPayload)).toBe(true);
    const etag = String(ra.headers.etag);
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    expect(rb.headers.etag).toBe(etag);
    expect(ra.headers['cache-control']).toBe('no-cache');
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const r = await a.app.inject({ url: '/kits/kit.tgz', headers: { 'if-none-match': inm } });
      expect([inm, r.statusCode, r.body]).toEqual([inm, 304, '']);
    }
    const other = await a.app.inject({ url: '/kits/kit.tgz', headers: { 'if-none-match': '"other"' } });
    expect(other.statusCode).toBe(200);
  });

  it('a new build of the package is served at once, with a new ETag', async () => {
    const before = await a.app.inject({ url: '/kits/kit-ltc.tgz' });
    buildPackage('kit-ltc', '1.0.1');
    const after = await a.app.inject({ url: '/kits/kit-ltc.tgz' });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const pkg = untar(gunzipSync(after.rawPayload)).find((f) => f.path === 'package/package.json');
    expect(JSON.parse(pkg?.body ?? '')).toMatchObject({ version: '1.0.1' });
  });

  it('a kit that is not built: 404 KITS_NOT_BUILT, saying to run npm run build:kits', async () => {
    const r = await a.app.inject({ url: '/kits/kit-doge.tgz' });
    expect(r.statusCode).toBe(404);
    const body = r.json() as { error: { code: string; message: string } };
    expect(body.error.code).toBe('KITS_NOT_BUILT');
    expect(body.error.message).toContain('npm run build:kits');
    // Removed since (a build in progress removes the directory first): not built either.
    rmSync(join(kitsDir, 'kit-ltc', 'package.json'));
    const gone = await a.app.inject({ url: '/kits/kit-ltc.tgz' });
    expect([gone.statusCode, (gone.json() as typeof body).error.code]).toEqual([404, 'KITS_NOT_BUILT']);
    buildPackage('kit-ltc', '1.0.1');
  });

  it('a name that is no kit: 404 NOT_FOUND naming the kits; nothing outside the build directory is read', async () => {
    for (const url of [
      '/kits/kit-xyz.tgz',
      '/kits/kit',
      '/kits/kit.tar.gz',
      '/kits/KIT.tgz',
      '/kits/..%2Fkit.tgz',
      '/kits/..%2F..%2Fpackage.json',
      '/kits/%2e%2e%2fkit.tgz',
    ]) {
      const r = await a.app.inject({ url });
      const body = r.json() as { error: { code: string; message: string } };
      expect([url, r.statusCode, body.error.code]).toEqual([url, 404, 'NOT_FOUND']);
      expect(body.error.message).toContain('/kits/kit.tgz');
    }
  });

  it('knows the 20 packages, and looks for them in dist/kits of the project by default', () => {
    expect(kitPackages().map((k) => k.dir)).toHaveLength(20);
    expect(kitPackages()[0]).toMatchObject({ dir: 'kit', name: '@coinwallet/kit', coin: null });
    expect(DEFAULT_KITS_DIR).toBe(join(PROJECT_ROOT, 'dist', 'kits'));
  });
});
