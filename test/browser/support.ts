/**
 * Real-browser test support: a platform in process (on a temporary DATA_DIR), the fixture dapp server, the emulator
 * and Chromium through playwright-core.
 *
 * Origins: the fixture server answers every host name on its port, and Chromium resolves `*.localhost` to loopback,
 * so one server gives distinct origins — `dapp.localhost` (listed in the dapp store), `unlisted.localhost`,
 * `id.localhost` (the identity origin) and `evil.localhost` (foreign; not a trusted wallet host, since only
 * 127.0.0.1, localhost and [::1] are).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { loadConfig } from '../../src/config.ts';
import type { Product } from '../../src/start/product.ts';
import { startProduct } from '../../src/start/product.ts';
import { get, post, testWallet } from '../support/wallet.ts';

export const ADMIN_TOKEN = 'cwa_browser-test-operator-token';
const FIXTURES = join(import.meta.dirname, 'fixtures');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Serves `test/browser/fixtures/*.html` on every host name, with `{{PLATFORM}}` replaced. */
export async function startFixtureServer(
  platformUrl: () => string,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const name = /^\/([a-z-]+\.html)(\?|$)/.exec(req.url ?? '')?.[1];
    if (!name) {
      res.writeHead(404).end();
      return;
    }
    readFile(join(FIXTURES, name), 'utf8').then(
      (text) => {
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
          .end(text.replaceAll('{{PLATFORM}}', platformUrl()));
      },
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export interface Platform {
  url: string;
  product: Product;
  close(): Promise<void>;
}

/**
 * The whole product in process on a known port (so the sign-in challenge's domain is `127.0.0.1:<port>`, as the
 * emulator expects), demo market data off (nothing here needs prices). `env` goes to the provider route too.
 */
export async function startPlatform(env: Record<string, string>): Promise<Platform> {
  const dir = await mkdtemp(join(tmpdir(), 'cw-browser-'));
  const port = await freePort();
  const full = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DEMO: 'off',
    LOG_LEVEL: 'silent',
    ADMIN_TOKEN,
    // The fixture dapps are served on loopback (`listDapp`): a development setting.
    DAPP_ALLOW_PRIVATE_URLS: '1',
    ...env,
  };
  // The /provider.js route reads WALLET_HOST_ORIGINS / IDENTITY_ORIGIN from the environment at registration.
  const saved = { ...process.env };
  Object.assign(process.env, env);
  let product: Product;
  try {
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    product = await startProduct(loadConfig(full), { log: quiet });
  } finally {
    for (const k of Object.keys(env)) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  }
  await product.ready;
  return {
    url: product.url,
    product,
    async close() {
      await product.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Lists `origin` in the dapp store the real way — a developer signs in and submits, the operator approves — except
 * that listings must be https sites while the fixtures are served over http: the approved row's origin is then
 * pointed at the http origin (the one shortcut).
 */
export async function listDapp(p: Platform, origin: string): Promise<string> {
  const dev = testWallet();
  const token = await dev.signIn(p.url);
  const host = new URL(origin).host;
  const submitted = await post(
    p.url,
    '/api/account/dapps',
    {
      name: `fixture ${host}`,
      site: `https://${host}/dapp.html`,
      icon: `https://${host}/icon.png`,
      description: 'Browser test fixture.',
      contactEmail: 'dev@example.com',
      chains: ['LTC', 'SOL'],
    },
    token,
  );
  if (submitted.status !== 201)
    throw new Error(`submit: ${submitted.status} ${JSON.stringify(submitted.body)}`);
  const id = (submitted.body as { id: string }).id;
  const approved = await post(p.url, `/api/admin/dapps/${id}/approve`, {}, ADMIN_TOKEN);
  if (approved.status !== 200)
    throw new Error(`approve: ${approved.status} ${JSON.stringify(approved.body)}`);
  await p.product.db.query('UPDATE dapps SET site_origin = $1 WHERE id = $2', [origin, id]);
  const access = await get(p.url, `/api/dapps/access?origin=${encodeURIComponent(origin)}`);
  if ((access.body as { allowed?: boolean }).allowed !== true) throw new Error(`${origin} is not listed`);
  return id;
}
