/**
 * `npm install http://127.0.0.1:<port>/kits/kit.tgz` against the started product (`coinwallet serve`), as the landing
 * page and the kits' READMEs tell a developer to run it: npm installs the complete kit and a per-coin kit from the
 * product's tarballs into an empty project, with no registry. npm runs with a clean environment (no npmrc, no proxy,
 * its own empty cache) and a "registry" on loopback that records every request, so that the test fails if npm asks a
 * registry anything; nothing but loopback is reachable.
 *
 * The tarballs are made from `dist/kits/<dir>/` (`npm run build:kits`, which `npm ci` runs); a checkout without them
 * builds the two kits used here first.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKits } from '../../scripts/build-kits.ts';
import { PROJECT_ROOT } from '../../src/core/project-root.ts';
import { DEFAULT_KITS_DIR } from '../../src/server/browser/kit-route.ts';
import type { Home } from '../../src/server/home/model.ts';
import type { ServeProcess } from '../support/process.ts';
import { startServe } from '../support/process.ts';
import { untar } from '../server/untar.ts';

const run = promisify(execFile);
const KITS = ['kit', 'kit-ltc'];
const VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;

const tmp = mkdtempSync(join(tmpdir(), 'cw-kit-install-'));
const consumer = join(tmp, 'consumer');
let serve: ServeProcess;
let registry: Server;
let registryUrl: string;
/** Every request the stand-in registry received. */
const registryRequests: string[] = [];

/** npm with nothing of this machine's or this process's npm configuration, and nothing to reach but loopback. */
function npm(args: string[], cwd: string) {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: tmp, // no ~/.npmrc
    TMPDIR: tmpdir(),
    npm_config_userconfig: join(tmp, 'npmrc'),
    npm_config_cache: join(tmp, 'npm-cache'),
    npm_config_registry: registryUrl,
    npm_config_update_notifier: 'false',
    NO_PROXY: '*',
  };
  return run('npm', args, { cwd, env, timeout: 120_000 });
}

beforeAll(async () => {
  const missing = KITS.filter((d) => !existsSync(join(DEFAULT_KITS_DIR, d, 'package.json')));
  if (missing.length) await buildKits({ only: missing });
  writeFileSync(join(tmp, 'npmrc'), '');
  registry = createServer((req, res) => {
    registryRequests.push(`${req.method} ${req.url}`);
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  });
  await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
  registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
  // No demo data: the tarballs need none, and the product listens before it loads anything.
  serve = await startServe({ DATA_DIR: join(tmp, 'data'), DEMO: 'off' }, 120_000);
}, 300_000);

afterAll(async () => {
  await serve?.stop();
  await new Promise((resolve) => registry?.close(resolve));
  rmSync(tmp, { recursive: true, force: true });
});

describe('the kits from the product', () => {
  it('the landing page links each kit and gives the install command', async () => {
    const r = await fetch(`${serve.url}/`, { headers: { accept: 'application/json' } });
    const h = (await r.json()) as Home;
    expect(h.kits.install).toBe(`npm install ${serve.url}/kits/kit.tgz`);
    expect(
      h.kits.packages.filter((p) => KITS.includes(p.href.slice('/kits/'.length, -'.tgz'.length))),
    ).toEqual([
      expect.objectContaining({ name: '@coinwallet/kit', built: true }),
      expect.objectContaining({ name: '@coinwallet/kit-ltc', built: true }),
    ]);
  });

  it('a tarball holds what `npm pack` of the built package holds, under package/', async () => {
    const r = await fetch(`${serve.url}/kits/kit.tgz`);
    expect(r.status).toBe(200);
    const served = untar(gunzipSync(Buffer.from(await r.arrayBuffer()))).map((f) => f.path);
    const { stdout } = await npm(
      ['pack', '--dry-run', '--json', '--ignore-scripts'],
      join(DEFAULT_KITS_DIR, 'kit'),
    );
    const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { files: { path: string }[] }[];
    expect(served).toEqual((info?.files ?? []).map((f) => `package/${f.path}`).sort());
  });

  it('npm installs the complete kit and a per-coin kit from their URLs, without a registry', async () => {
    rmSync(consumer, { recursive: true, force: true });
    mkdirSync(consumer);
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    const urls = KITS.map((d) => `${serve.url}/kits/${d}.tgz`);
    // `--prefer-offline`: `--offline` would refuse the tarball URLs themselves (ENOTCACHED with an empty cache).
    await npm(
      ['install', ...urls, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'],
      consumer,
    );

    for (const [dir, name] of [
      ['kit', '@coinwallet/kit'],
      ['kit-ltc', '@coinwallet/kit-ltc'],
    ] as const) {
      const at = join(consumer, 'node_modules', ...name.split('/'));
      const pkg = JSON.parse(readFileSync(join(at, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
      };
      expect(pkg).toMatchObject({ name, version: VERSION });
      expect(readFileSync(join(at, 'index.js'))).toEqual(
        readFileSync(join(DEFAULT_KITS_DIR, dir, 'index.js')),
      );
      const kit = (await import(pathToFileURL(join(at, 'index.js')).href)) as { createSDK?: unknown };
      expect(typeof kit.createSDK).toBe('function');
    }
    const deps = (
      JSON.parse(readFileSync(join(consumer, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies;
    expect(deps).toEqual({ '@coinwallet/kit': urls[0], '@coinwallet/kit-ltc': urls[1] });
    expect(registryRequests).toEqual([]);
  });
});
