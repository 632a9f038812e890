/// <reference lib="dom" />
/**
 * The administrator dashboard (`/admin`, src/web/pages/admin/) end to end in real Chromium, against the whole product
 * in process with demo market data (30 days of history, the live demo source ticking).
 *
 * - A developer (a throwaway wallet, over REST) requests an API key and submits a dapp: both wait in the queues.
 * - The administrator opens /admin, is refused a wrong operator token, signs in with the right one; approving
 *   without a reason and rejecting without notes are stopped inline; approving the key (with a reason) and rejecting
 *   the dapp (with notes) take them out of their queues at once and the status line says so; REST confirms the key
 *   approved (and working) and the dapp rejected with the notes.
 * - Service health: the freshness, unverified-supply and confidence charts are SVGs with labels; the request
 *   statistics show charts or say "no data yet".
 * - Market view: the span buttons (mouse and keyboard) switch the chart between 5-minute, hourly and daily points
 *   as the rule says, measured from the points; the candles are drawn.
 * - Inside the dapp-browser emulator: an administrator's wallet signs in; a non-administrator's sees
 *   "administrators only".
 * - axe-core on the sign-in form, the dashboard and the "administrators only" notice: no serious or critical
 *   violations. No console error (a CSP violation would be one) on any page.
 *
 * Screenshots and the axe reports are kept under test-artifacts/admin/ (gitignored).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DappBrowser } from '../../src/dapp-browser/server.ts';
import { startDappBrowser } from '../../src/dapp-browser/server.ts';
import { get, post, testWallet } from '../support/wallet.ts';
import type { Platform } from './support.ts';
import { ADMIN_TOKEN, launchChromium, startPlatform } from './support.ts';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'admin');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser: Browser;
let platform: Platform;
/** The developer's pending key and submitted dapp. */
let keyId: string;
let keySecret: string;
let dappId: string;
let devToken: string;
const open: { context?: BrowserContext; emu?: DappBrowser }[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [platform, browser] = await Promise.all([
    startPlatform({ DEMO: 'auto', DEMO_DAYS: '30' }),
    launchChromium(),
  ]);
  const dev = testWallet();
  devToken = await dev.signIn(platform.url);
  const key = await post(
    platform.url,
    '/api/account/api-keys',
    { plan: 'pro', description: 'Price widgets for the Harbor wallet dashboard' },
    devToken,
  );
  if (key.status !== 201) throw new Error(`key: ${key.status} ${JSON.stringify(key.body)}`);
  ({ id: keyId, key: keySecret } = key.body as { id: string; key: string });
  const dapp = await post(
    platform.url,
    '/api/account/dapps',
    {
      name: 'Harbor Swap',
      site: 'https://harbor.example/app',
      icon: 'https://harbor.example/icon.png',
      description: 'Swaps between kit coins.',
      contactEmail: 'team@harbor.example',
      chains: ['LTC', 'DOGE'],
    },
    devToken,
  );
  if (dapp.status !== 201) throw new Error(`dapp: ${dapp.status} ${JSON.stringify(dapp.body)}`);
  dappId = (dapp.body as { id: string }).id;
  // Some traffic for the request statistics: keyless reads, and the pending key refused (401).
  for (let i = 0; i < 5; i++) await get(platform.url, '/v1/agg/simple/price?ids=litecoin&vs_currencies=usd');
  await fetch(`${platform.url}/v1/agg/ping`, { headers: { 'x-sp-api-key': keySecret } });
}, 180_000);

afterEach(async () => {
  const closing = open.splice(0);
  for (const o of closing) await o.context?.close();
  for (const o of closing) await o.emu?.close();
});

afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

/**
 * A fresh context and page. Collected: uncaught errors, console errors (CSP violations among them) and failed HTTP
 * answers with their URL (the browser's own favicon request aside: the product serves none).
 */
async function newPage(): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(20_000);
  open.push({ context });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
      errors.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && new URL(r.url()).pathname !== '/favicon.ico')
      errors.push(`HTTP ${r.status()} ${r.url()}`);
  });
  return { page, errors };
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

/**
 * Runs axe-core in `target` (injected through the debugging protocol, which the page's CSP does not govern),
 * keeps the report, and expects no serious or critical violation.
 */
async function expectAccessible(target: Page | Frame, name: string): Promise<void> {
  if (!(await target.evaluate(() => 'axe' in window))) await target.evaluate(AXE_SOURCE);
  const result = await target.evaluate(() =>
    (window as unknown as { axe: { run(c: Document, o: object): Promise<AxeResult> } }).axe.run(document, {
      resultTypes: ['violations'],
    }),
  );
  writeFileSync(join(ARTIFACTS, `axe-${name}.json`), JSON.stringify(result.violations, null, 2));
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
    );
  expect(bad, name).toEqual([]);
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

async function signInWithToken(page: Page, token: string): Promise<void> {
  await page.getByLabel('Operator token').fill(token);
  await page.getByRole('button', { name: 'Sign in with the operator token' }).click();
}

describe('/admin with the operator token', () => {
  it('reviews the queues, shows health charts and the market view, accessibly', async () => {
    const { page, errors } = await newPage();
    const res = await page.goto(`${platform.url}/admin`);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expectAccessible(page, 'signin');
    await shot(page, '01-signin');

    // A wrong token is refused with the server's verdict; nothing is kept.
    await signInWithToken(page, 'cwa_not-the-token');
    await expect.poll(() => page.locator('#operator-token-err').textContent()).toContain('did not accept');
    expect(await page.getByLabel('Operator token').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => sessionStorage.getItem('coinwallet.admin'))).toBeNull();

    await signInWithToken(page, ADMIN_TOKEN);
    await page.getByRole('heading', { name: 'Review queues' }).waitFor();
    expect(await page.getByTestId('status').textContent()).toBe('Signed in with the operator token.');
    expect(await page.getByTestId('who').textContent()).toContain('Operator');

    // The queues hold the developer's key and dapp, with their details.
    const keyItem = page.locator(`[data-testid="key-item"][data-id="${keyId}"]`);
    const dappItem = page.locator(`[data-testid="dapp-item"][data-id="${dappId}"]`);
    await keyItem.waitFor();
    await dappItem.waitFor();
    expect(await keyItem.textContent()).toContain('Price widgets for the Harbor wallet dashboard');
    expect(await keyItem.textContent()).toContain('3,000 requests per minute');
    const dappText = (await dappItem.textContent()) ?? '';
    expect(dappText).toContain('https://harbor.example/app');
    expect(dappText).toContain('LTC, DOGE');
    expect(dappText).toContain('team@harbor.example');
    expect(await page.getByTestId('key-queue-count').textContent()).toBe('(1)');

    // Deciding without a reason / notes is stopped inline, before anything is sent.
    await keyItem.getByRole('button', { name: 'Approve key' }).click();
    const reason = keyItem.getByLabel('Reason (required)');
    expect(await reason.getAttribute('aria-invalid')).toBe('true');
    expect(await keyItem.locator('.field-error').textContent()).toContain('Write a reason');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await dappItem.getByRole('button', { name: 'Reject dapp' }).click();
    expect(await dappItem.locator('.field-error').textContent()).toContain('Write notes');
    await shot(page, '02-validation');
    await expectAccessible(page, 'validation');
    expect((await get(platform.url, `/api/admin/api-keys/${keyId}`, ADMIN_TOKEN)).body).toMatchObject({
      status: 'pending',
    });

    // Approve the key with a reason: it leaves the queue at once and the status line says what happened.
    await reason.fill('Known developer; usage fits the Pro plan.');
    // Once shown, the message is re-checked as the administrator types: a reason clears it.
    expect(await reason.getAttribute('aria-invalid')).toBe('false');
    expect(await keyItem.locator('.field-error').count()).toBe(0);
    await keyItem.getByRole('button', { name: 'Approve key' }).click();
    await keyItem.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('status').textContent()).toContain('Approved key');
    expect(await page.getByTestId('status').textContent()).toContain('3,000 requests/min');
    expect(await page.getByTestId('key-queue-count').textContent()).toBe('(0)');
    expect(await page.getByTestId('decisions').textContent()).toContain('Approved key');
    // Focus went to the queue's heading (not lost with the removed item).
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('key-queue-h');

    // REST agrees: approved, with the reason in the audit trail, and the key now works.
    const k = await get(platform.url, `/api/admin/api-keys/${keyId}`, ADMIN_TOKEN);
    expect(k.status).toBe(200);
    expect(k.body).toMatchObject({ id: keyId, status: 'approved' });
    const own = await get(platform.url, `/api/account/api-keys/${keyId}`, devToken);
    expect(own.body).toMatchObject({ status: 'approved' });
    const used = await fetch(`${platform.url}/v1/agg/ping`, { headers: { 'x-sp-api-key': keySecret } });
    expect(used.status).toBe(200);

    // Reject the dapp with notes.
    await dappItem
      .getByLabel('Notes to the submitter (required)')
      .fill('The site does not load over https yet.');
    await dappItem.getByRole('button', { name: 'Reject dapp' }).click();
    await dappItem.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByTestId('status').textContent())
      .toContain('Rejected dapp “Harbor Swap”');
    expect(await page.getByTestId('dapp-queue-count').textContent()).toBe('(0)');
    const mine = await get(platform.url, '/api/account/dapps', devToken);
    expect(
      (mine.body as { id: string; status: string; reviewNotes: string | null }[]).find(
        (d) => d.id === dappId,
      ),
    ).toMatchObject({ status: 'rejected', reviewNotes: 'The site does not load over https yet.' });
    await page.locator('#queues').screenshot({ path: join(ARTIFACTS, '03-queues-decided.png') });

    // Service health: the market data's charts are SVGs with labels.
    const health = page.locator('#health');
    for (const id of ['chart-freshness', 'chart-unverified', 'chart-confidence']) {
      const svg = health.getByTestId(id).locator('svg[role="img"]').first();
      await svg.waitFor({ timeout: 20_000 });
      expect((await svg.getAttribute('aria-label'))?.length).toBeGreaterThan(10);
    }
    const fresh = health.getByTestId('chart-freshness');
    expect(await fresh.locator('svg').textContent()).toContain('demo:live');
    expect(await fresh.locator('svg').textContent()).toContain('stale after 15 min');
    expect(await fresh.textContent()).toContain('1 of 1 sources fresh');
    // The sources table says each source's kind and last error (the demo's live source: a replay, no error).
    const row = fresh.locator('table tr', { hasText: 'demo:live' });
    expect(await row.locator('th').textContent()).toBe('demo:live');
    const cells = await row.locator('td').allTextContents();
    expect([cells[0], cells.at(-1)]).toEqual(['replay', '—']);
    expect(Number(await health.getByTestId('unverified-count').textContent())).toBeGreaterThan(0);
    const bands = await health.getByTestId('chart-confidence').locator('svg rect').count();
    expect(bands).toBe(5);
    // The request statistics: a chart (SVG with a label), or "no data yet" when the window holds nothing (or the
    // statistics cannot be read); the requests made above are drawn once statistics are served.
    for (const id of ['chart-requests', 'chart-errors', 'chart-refusals', 'chart-cost']) {
      const box = health.getByTestId(id);
      const empty = page.getByTestId('stats-empty');
      await expect
        .poll(async () => (await box.count()) > 0 || (await empty.count()) > 0, { timeout: 20_000 })
        .toBe(true);
      if ((await empty.count()) > 0) {
        expect(await empty.textContent()).toContain('no data yet');
        break;
      }
      const drawn = await box.locator('svg[role="img"][aria-label]').count();
      if (id === 'chart-requests') expect(drawn, 'the requests made before are drawn').toBe(1);
      const note = box.locator('.chart-empty');
      expect(
        drawn > 0 || ((await note.count()) > 0 && (await note.textContent())?.includes('no data yet')),
        id,
      ).toBe(true);
    }
    await health.screenshot({ path: join(ARTIFACTS, '04-health.png') });

    // Market view: the default span (7 days) is hourly, measured from the chart's points.
    const resolution = page.getByTestId('resolution');
    const measured = async () =>
      `${await resolution.getAttribute('data-expected')}/${await resolution.getAttribute('data-measured')}`;
    await expect.poll(measured, { timeout: 20_000 }).toBe('hourly/hourly');
    expect(await page.locator('.rule-list li[aria-current="true"]').textContent()).toContain('hourly');
    const span = (label: string) =>
      page.locator('.spans').getByRole('button', { name: new RegExp(`^${label}`) });
    await span('1d').click();
    await expect.poll(measured, { timeout: 20_000 }).toBe('5-minute/5-minute');
    expect(await span('1d').getAttribute('aria-pressed')).toBe('true');
    expect(await resolution.textContent()).toContain('5 min apart');
    // One dot per point: a day of 5-minute points.
    const price = page.getByTestId('chart-price').locator('svg[role="img"]');
    expect(Number(await price.getAttribute('data-points'))).toBeGreaterThanOrEqual(280);
    expect(await price.locator('circle').count()).toBe(Number(await price.getAttribute('data-points')));
    await page.locator('#market').screenshot({ path: join(ARTIFACTS, '05-market-1d.png') });
    await span('30d').click();
    await expect.poll(measured, { timeout: 20_000 }).toBe('hourly/hourly');
    await span('90d').click();
    await expect.poll(measured, { timeout: 20_000 }).toBe('hourly/hourly');
    // The keyboard works too: focus the 1y button and press Enter.
    await span('1y').focus();
    await page.keyboard.press('Enter');
    await expect.poll(measured, { timeout: 20_000 }).toBe('daily/daily');
    expect(await page.locator('.rule-list li[aria-current="true"]').textContent()).toContain('daily');
    const candles = page.getByTestId('chart-candles').locator('svg[role="img"]');
    expect(Number(await candles.getAttribute('data-candles'))).toBeGreaterThanOrEqual(28);
    expect(await candles.getAttribute('aria-label')).toContain('daily OHLC candles');
    expect(await page.getByTestId('chart-price').locator('svg[role="img"] polyline').count()).toBe(1);
    // Another coin.
    await page.getByLabel('Coin', { exact: true }).selectOption('dogecoin');
    await expect
      .poll(() => page.getByTestId('chart-price').locator('h3').textContent())
      .toContain('Dogecoin');
    await expect.poll(measured, { timeout: 20_000 }).toBe('daily/daily');
    await page.locator('#market').screenshot({ path: join(ARTIFACTS, '06-market-1y.png') });

    await shot(page, '07-dashboard');
    await expectAccessible(page, 'dashboard');

    // Signed-in state survives a reload (sessionStorage of this tab); signing out forgets it.
    await page.reload();
    await page.getByRole('heading', { name: 'Review queues' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('coinwallet.admin'))).toBeNull();
    expect(errors).toEqual([]);
  });

  it('shows a stored hostile name and description as text, not markup', async () => {
    // What validation lets through (docs/dapps.md): markup is text, stored verbatim; the page must not render it.
    const name = '<b>Harbor</b><script>alert(1)</script>';
    const description = `<img src=x onerror=alert(1)> "double" 'single' & <a href="javascript:alert(2)">x</a>`;
    const r = await post(
      platform.url,
      '/api/account/dapps',
      {
        name,
        site: 'https://harbor.example/x?q=%3Cscript%3E',
        icon: 'https://harbor.example/icon.png',
        description,
        contactEmail: 'team@harbor.example',
        chains: ['LTC'],
      },
      devToken,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = (r.body as { id: string }).id;
    const { page, errors } = await newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${platform.url}/admin`);
    await signInWithToken(page, ADMIN_TOKEN);
    const item = page.locator(`[data-testid="dapp-item"][data-id="${id}"]`);
    await item.waitFor();
    expect(await item.locator('h4').textContent()).toBe(name);
    expect(await item.textContent()).toContain(description);
    expect(await item.locator('img, b, script, a[href^="javascript:"]').count()).toBe(0);
    expect(
      await page.evaluate(() => document.querySelectorAll('img[src="x"], script:not([src])').length),
    ).toBe(0);
    await item.screenshot({ path: join(ARTIFACTS, '08-hostile-dapp.png') });
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('/admin inside the dapp browser (wallet sign-in)', () => {
  /** The emulator hosting /admin (not a listed dapp: `allowUnlisted`), and /admin's frame once it rendered. */
  async function inEmulator(
    seed: string,
  ): Promise<{ emu: DappBrowser; page: Page; frame: Frame; errors: string[] }> {
    const emu = await startDappBrowser({
      seed,
      dappUrl: `${platform.url}/admin`,
      port: 0,
      api: platform.url,
      allowUnlisted: true,
      coins: ['LTC'],
    });
    open.push({ emu });
    const { page, errors } = await newPage();
    await page.goto(emu.url);
    const frame = await (await page.getByTestId('dapp-frame').elementHandle())?.contentFrame();
    if (!frame) throw new Error('no dapp frame');
    await frame.locator('h1').waitFor({ state: 'visible', timeout: 20_000 });
    return { emu, page, frame, errors };
  }

  async function answerPrompt(page: Page, method: string): Promise<void> {
    const prompt = page.getByTestId('prompt');
    await prompt.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await prompt.getAttribute('data-method')).toBe(method);
    const id = await prompt.getAttribute('data-request-id');
    await page.getByTestId('approve').click();
    await expect
      .poll(async () => (await prompt.isHidden()) || (await prompt.getAttribute('data-request-id')) !== id)
      .toBe(true);
  }

  async function walletSignIn(page: Page, frame: Frame): Promise<void> {
    await frame.getByTestId('wallet-sign-in').click();
    await answerPrompt(page, 'wallet_connect');
    await answerPrompt(page, 'id_signMessage');
  }

  it("an administrator's wallet signs in and sees the dashboard", async () => {
    const { emu, page, frame, errors } = await inEmulator('admin-e2e-administrator');
    const address = emu.wallet.account('LTC')?.address;
    if (!address) throw new Error('no LTC account');
    const granted = await post(platform.url, '/api/admin/admins', { address }, ADMIN_TOKEN);
    expect(granted.status).toBe(200);
    await walletSignIn(page, frame);
    await frame.getByRole('heading', { name: 'Review queues' }).waitFor({ timeout: 15_000 });
    expect(await frame.getByTestId('status').textContent()).toBe('Signed in with your wallet.');
    expect(await frame.getByTestId('who').textContent()).toContain(address.slice(0, 10));
    // The administrators list names this wallet.
    await expect.poll(() => frame.locator('#admins-h + ul').textContent()).toContain(address);
    await shot(page, '08-wallet-admin');
    expect(errors).toEqual([]);
  });

  it('a wallet that is not an administrator sees "administrators only"', async () => {
    const { page, frame, errors } = await inEmulator('admin-e2e-developer');
    await walletSignIn(page, frame);
    const notice = frame.getByTestId('forbidden');
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.locator('h2').textContent()).toBe('Administrators only');
    expect(await frame.locator('#queues').count()).toBe(0);
    await shot(page, '09-not-admin');
    await expectAccessible(frame, 'not-admin');
    expect(errors).toEqual([]);
  });
});
