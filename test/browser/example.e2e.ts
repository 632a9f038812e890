/**
 * The example dapp end to end in real Chromium, as a consumer gets it: the complete kit built by
 * scripts/build-kits.ts, `npm pack`ed and unpacked (its `example/` is examples/dapp/'s index.html and app.js), that
 * package folder served statically by `examples/dapp/serve.ts` (what `npm run example` runs over dist/kits/kit/),
 * names and prices from a router on its own origin that runs the kit's persisted documents only, keyless, and the
 * wallet from the dapp-browser emulator (`coinwallet dapp-browser`, src/dapp-browser/).
 *
 * - The tarball: the example's files and the README's "Run the example".
 * - In an ordinary tab: prices and names work (keyless), the Platform field switches platforms, `connect` explains
 *   that the page must run in the dapp browser.
 * - Inside the emulator: connect (approved in the host's prompt), the accounts and capabilities the wallet shares,
 *   a name resolved to its LTC address, the other resolution outcomes; a rejected prompt shows 4001 USER_REJECTED.
 *
 * Screenshots are kept under test-artifacts/example/ (gitignored).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startExampleServer } from '../../examples/dapp/serve.ts';
import type { ExampleServer } from '../../examples/dapp/serve.ts';
import { buildKits, EXAMPLE_FILES, EXAMPLE_SOURCE_DIR } from '../../scripts/build-kits.ts';
import type { DappBrowser } from '../../src/dapp-browser/server.ts';
import { startDappBrowser } from '../../src/dapp-browser/server.ts';
import type { Platform as EmulatorPlatform } from '../../src/dapp-browser/platform.ts';
import { KIT_COINS } from '../../src/kit/tickers.ts';
import { wallet } from '../accounts/harness.ts';
import { graphHarness } from '../graph/router-harness.ts';
import type { GraphHarness } from '../graph/router-harness.ts';
import { kitRouterServer, linkName } from '../kit/support.ts';
import type { KitRouterServer } from '../kit/support.ts';
import { freePort } from './support.ts';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'example');
const run = promisify(execFile);
const tmp = mkdtempSync(join(tmpdir(), 'cw-example-'));
/** The packed complete kit, unpacked as a consumer gets it. */
const pkg = join(tmp, 'node_modules', '@coinwallet', 'kit');
/** The tarball's file list. */
let packed: string[];
const name = `example-${Date.now().toString(36)}.coin`;
const owner = wallet();

let g: GraphHarness;
let api: KitRouterServer;
let example: ExampleServer;
let browser: Browser;
const open: { context?: BrowserContext; emu?: DappBrowser }[] = [];

/** The emulator's view of the platform: with `--allow-unlisted` it never asks the dapp store; no bridge needed. */
const emulatorPlatform = (origin: string): EmulatorPlatform => ({
  domain: new URL(origin).host,
  origin,
  access: () => Promise.resolve({ allowed: false, dappId: null }),
  bridgeConfig: () => Promise.reject(new Error('no bridge in this test')),
});

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  g = await graphHarness();
  await linkName(g, name, owner);
  api = await kitRouterServer(g);
  await buildKits({ outDir: join(tmp, 'dist'), only: ['kit'] });
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', tmp], {
    cwd: join(tmp, 'dist', 'kit'),
  });
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as {
    filename: string;
    files: { path: string }[];
  }[];
  if (!info) throw new Error('npm pack gave no result');
  packed = info.files.map((f) => f.path).sort();
  mkdirSync(pkg, { recursive: true });
  await run('tar', ['-xzf', join(tmp, info.filename), '-C', pkg, '--strip-components=1']);
  example = await startExampleServer({ port: 0, api: api.baseUrl, kitDir: pkg });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}, 180_000);

afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.context?.close();
    await o.emu?.close();
  }
});

afterAll(async () => {
  await browser?.close();
  await example?.close();
  await api?.close();
  await g?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/**
 * A fresh browser context and page. Collected: page errors, console errors, and failed HTTP answers with their URL
 * (except the emulator host page's favicon, which is not the dapp's).
 */
async function newPage(): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  open.push({ context });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // "Failed to load resource" names no URL; the response listener reports those with theirs.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
      errors.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && new URL(r.url()).pathname !== '/favicon.ico')
      errors.push(`http ${r.status()} ${r.url()}`);
  });
  return { page, errors };
}

async function startEmulator(): Promise<DappBrowser> {
  const emu = await startDappBrowser({
    dappUrl: example.url,
    port: 0,
    allowUnlisted: true,
    platform: emulatorPlatform(api.baseUrl),
  });
  open.push({ emu });
  return emu;
}

type Scope = Page | FrameLocator;

/** The price table has every kit coin with a figure (the test market prices every catalog coin). */
async function expectPrices(scope: Scope): Promise<void> {
  await expect
    .poll(async () => scope.getByTestId('price-status').textContent(), { timeout: 20_000 })
    .toMatch(/^19 coins, in USD$/);
  for (const c of KIT_COINS) {
    const text = await scope.getByTestId(`price-${c.coinId}`).textContent();
    expect(text, c.coinId).toMatch(new RegExp(`^${c.name}${c.ticker}\\$[\\d,.]+$`));
  }
}

async function resolveIn(
  scope: Scope,
  n: string,
  ticker: string,
): Promise<{ status: string | null; text: string }> {
  await scope.getByTestId('resolve-name').fill(n);
  await scope.getByTestId('resolve-ticker').selectOption(ticker);
  const out = scope.getByTestId('resolution');
  await scope.getByTestId('resolve').click();
  // Wait for a new outcome (the attribute is set when the kit answers).
  await expect.poll(async () => (await out.textContent())?.startsWith('resolving') === false).toBe(true);
  const status = await out.getAttribute('data-status');
  return { status, text: (await out.textContent()) ?? '' };
}

describe('the packed @coinwallet/kit', () => {
  it('ships the example (examples/dapp/ as is) and the README section that runs it', () => {
    expect(packed).toEqual(expect.arrayContaining(['example/index.html', 'example/app.js']));
    for (const f of EXAMPLE_FILES) {
      expect(readFileSync(join(pkg, 'example', f), 'utf8'), f).toBe(
        readFileSync(join(EXAMPLE_SOURCE_DIR, f), 'utf8'),
      );
    }
    // The example loads the package's own files, nothing from elsewhere.
    const html = readFileSync(join(pkg, 'example', 'index.html'), 'utf8');
    expect([...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1])).toEqual([
      '../provider.js',
      '../coinwallet-kit.browser.js',
      './app.js',
    ]);
    const readme = readFileSync(join(pkg, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Run the example'));
    expect(section).toMatch(/^## Run the example\n/);
    expect(section).toMatch(/npm install http:\/\/127\.0\.0\.1:4000\/kits\/kit\.tgz/);
    expect(section).toMatch(/http:\/\/127\.0\.0\.1:4700\/example\/\?api=/);
    expect(section).toMatch(/npx coinwallet dapp-browser '[^']+' --allow-unlisted/);
  });
});

describe('the example dapp in an ordinary tab', () => {
  it('shows prices (keyless) and resolves names; connect says to open it in the dapp browser', async () => {
    const { page, errors } = await newPage();
    const keys: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (r.url() === `${api.baseUrl}/graphql` && r.method() === 'POST')
        keys.push(r.headers()['x-sp-api-key']);
    });
    // First a platform that is not there: the page says so; the Platform field then points it at the real one.
    const nowhere = new URL(example.url);
    nowhere.searchParams.set('api', `http://127.0.0.1:${await freePort()}`);
    await page.goto(nowhere.href);
    await expect
      .poll(() => page.getByTestId('price-status').textContent(), { timeout: 10_000 })
      .toMatch(/^NETWORK_ERROR: /);
    await page.getByTestId('api-input').fill(api.baseUrl);
    await page.getByTestId('api-use').click();
    await expect.poll(() => page.getByTestId('api').textContent()).toBe(api.baseUrl);
    expect(new URL(page.url()).searchParams.get('api')).toBe(api.baseUrl);
    expect(await page.getByTestId('api-auth').textContent()).toBe('keyless');
    await expectPrices(page);
    // The live price (subscribePrices over SSE) shows Litecoin's first event.
    await expect
      .poll(() => page.getByTestId('live-price').textContent(), { timeout: 20_000 })
      .toMatch(/^\$[\d,.]+$/);
    expect(await page.getByTestId('live-status').textContent()).toMatch(/^live · updated /);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k === undefined)).toBe(true);

    const found = await resolveIn(page, name, 'LTC');
    expect(found).toEqual({ status: 'found', text: `${name} → LTC ${owner.address}` });

    await page.getByTestId('connect').click();
    const err = page.getByTestId('wallet-error');
    await err.waitFor({ state: 'visible', timeout: 10_000 });
    const text = (await err.textContent()) ?? '';
    expect(text).toMatch(/^PROVIDER_NOT_AVAILABLE: /);
    expect(text).toMatch(/dapp browser/);
    expect(await page.getByTestId('wallet-status').textContent()).toBe('not connected');
    await page.screenshot({ path: join(ARTIFACTS, '1-ordinary-tab.png'), fullPage: true });
    expect(errors).toEqual([]);
  });
});

describe('the example dapp inside the dapp-browser emulator', () => {
  it('connects, shows accounts and capabilities, resolves a name, shows prices', async () => {
    const emu = await startEmulator();
    const { page, errors } = await newPage();
    await page.goto(emu.url);
    const dapp = page.frameLocator('[data-testid="dapp-frame"]');
    await expectPrices(dapp);
    await page.screenshot({ path: join(ARTIFACTS, '2-emulator-loaded.png') });

    await dapp.getByTestId('connect').click();
    const prompt = page.getByTestId('prompt');
    await prompt.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await page.getByTestId('prompt-title').textContent()).toMatch(/connect/i);
    await page.screenshot({ path: join(ARTIFACTS, '3-connect-prompt.png') });
    await page.getByTestId('approve').click();

    // The development wallet holds LTC, DOGE, LKY (and SOL, not a kit coin): one account each, in the wallet's order.
    await dapp.getByTestId('account-LTC').waitFor({ state: 'visible', timeout: 10_000 });
    expect(await dapp.getByTestId('wallet-status').textContent()).toMatch(
      /^connected to Coin Wallet: 3 account\(s\)$/,
    );
    for (const t of ['LTC', 'DOGE', 'LKY']) {
      const address = emu.wallet.account(t)?.address as string;
      expect(await dapp.getByTestId(`account-${t}`).textContent()).toBe(`${t}${address}`);
    }
    expect(await dapp.getByTestId('account-SOL').count()).toBe(0);
    expect(await dapp.getByTestId('capability-LTC').textContent()).toBe('LTCid_signMessage');
    expect(await dapp.getByTestId('capability-LKY').textContent()).toBe(
      'LKYwallet_getBalance, wallet_sendTransaction',
    );
    expect(await dapp.getByTestId('capability-DOGE').textContent()).toBe('DOGEnone (addresses only)');

    expect(await resolveIn(dapp, name, 'LTC')).toEqual({
      status: 'found',
      text: `${name} → LTC ${owner.address}`,
    });
    await page.screenshot({ path: join(ARTIFACTS, '4-connected-resolved.png') });
    expect(await resolveIn(dapp, name, 'DOGE')).toEqual({
      status: 'address-not-linked',
      text: `${name} has no DOGE address linked`,
    });
    expect(await resolveIn(dapp, 'nobody-at-all.coin', 'LTC')).toEqual({
      status: 'name-not-found',
      text: 'nobody-at-all.coin: no such name (or it is private)',
    });
    const bad = await resolveIn(dapp, 'not a name', 'LTC');
    expect(bad.status).toBe('error');
    expect(bad.text).toMatch(/^INVALID_NAME: /);

    // Another currency: one more persisted call.
    await dapp.getByTestId('price-currency').selectOption('eur');
    await expect.poll(() => dapp.getByTestId('price-status').textContent()).toBe('19 coins, in EUR');
    expect(await dapp.getByTestId('price-litecoin').textContent()).toMatch(/^LitecoinLTC€[\d,.]+$/);
    await page.screenshot({ path: join(ARTIFACTS, '5-connected-eur.png') });
    expect(errors).toEqual([]);
  });

  it('a rejected prompt shows the wallet error (4001 USER_REJECTED)', async () => {
    const emu = await startEmulator();
    const { page } = await newPage();
    await page.goto(emu.url);
    const dapp = page.frameLocator('[data-testid="dapp-frame"]');
    await dapp.getByTestId('connect').waitFor({ state: 'visible' });
    await dapp.getByTestId('connect').click();
    await page.getByTestId('prompt').waitFor({ state: 'visible', timeout: 10_000 });
    await page.getByTestId('reject').click();
    const err = dapp.getByTestId('wallet-error');
    await err.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await err.textContent()).toMatch(/^4001 USER_REJECTED: /);
    await page.screenshot({ path: join(ARTIFACTS, '6-rejected.png') });
  });
});
