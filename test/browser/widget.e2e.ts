/**
 * The mining calculator widget (`/widgets/mining-calculator.js`) embedded in a third-party page, in real Chromium.
 *
 * - The platform runs in process (`startProduct`, demo data of 3 days, ticks an hour apart so prices hold still),
 *   on `127.0.0.1:<port>`; the third-party site is a tiny static server on `site.localhost:<other port>` (another
 *   origin), whose page has one script tag, the element, and hostile CSS the widget must not be touched by.
 * - The inputs are filled with the keyboard only; the figures shown equal a reference calculation made here from the
 *   figures the graph serves (fetched independently with the widget's persisted document).
 * - Responsive screenshots at 360 px and 1280 px, and the states page (not mined, unknown coin, API down), are kept
 *   under test-artifacts/widget/ (gitignored), with the axe-core reports; axe finds no serious or critical violation.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { Product } from '../../src/product.ts';
import { startProduct } from '../../src/product.ts';
import { MiningCalculatorDocument } from '../../src/web/generated/graphql.ts';
import type { MiningCalculatorQuery } from '../../src/web/generated/graphql.ts';
import { formatCoins, formatMoney } from '../../src/web/widgets/mining/format.ts';
import { freePort, launchChromium } from './support.ts';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'widget');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const LOCALE = 'en';

let dir: string;
let product: Product;
let site: Server;
let siteOrigin: string;
let deadApi: string;
let browser: Browser;
const contexts: BrowserContext[] = [];

/** The third-party pages: `{{PLATFORM}}` is the platform's origin. */
const PAGES: Record<string, string> = {
  '/': `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Example Pool · mining calculator</title>
<style>
  /* A site's own styles, some of them hostile: none may reach into the widget. */
  body { margin: 0; font-family: Georgia, serif; background: #f4f1ea; color: #3b2a1a; }
  main { max-width: 1100px; margin: 0 auto; padding: 16px; }
  * { color: #3b2a1a !important; letter-spacing: 0.05em; }
  input, select, button { display: none !important; }
  table, td, th { border: 4px dashed magenta !important; }
  h2 { font-size: 48px !important; }
</style>
</head>
<body>
<main>
<h1>Example Pool</h1>
<p>Mine Luckycoin with us. Estimate your earnings below.</p>
<coinwallet-mining-calculator coin="LKY" currency="usd"></coinwallet-mining-calculator>
<p>Our pool fee is 1.5 %.</p>
</main>
<script src="{{PLATFORM}}/widgets/mining-calculator.js" defer></script>
</body>
</html>
`,
  '/states': `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Widget states</title>
</head>
<body>
<main>
<h1>Widget states</h1>
<coinwallet-mining-calculator id="not-mined" coin="solana"></coinwallet-mining-calculator>
<coinwallet-mining-calculator id="unknown" coin="no-such-coin"></coinwallet-mining-calculator>
<coinwallet-mining-calculator id="down" coin="LTC" api="{{DEAD}}"></coinwallet-mining-calculator>
<coinwallet-mining-calculator id="invalid" coin="Not a coin!"></coinwallet-mining-calculator>
</main>
<script src="{{PLATFORM}}/widgets/mining-calculator.js"></script>
</body>
</html>
`,
};

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), 'cw-widget-'));
  const port = await freePort();
  deadApi = `http://127.0.0.1:${await freePort()}`;
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  product = await startProduct(
    loadConfig({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DEMO: 'auto',
      DEMO_DAYS: '3',
      TICK_INTERVAL_MS: '3600000',
      LOG_LEVEL: 'silent',
    }),
    { log: quiet },
  );
  await product.ready;
  site = createServer((req, res) => {
    const page = PAGES[(req.url ?? '/').split('?')[0] as string];
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(page.replaceAll('{{PLATFORM}}', product.url).replaceAll('{{DEAD}}', deadApi));
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteOrigin = `http://site.localhost:${(site.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 180_000);

afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close();
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (site ? site.close(() => r()) : r()));
  await product?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Opened {
  page: Page;
  errors: string[];
  /** Every request the page made. */
  requests: Request[];
}

async function open(path: string, width = 1280): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US' });
  contexts.push(context);
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: Opened['requests'] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
      errors.push(`console: ${m.text()}`);
  });
  page.on('request', (r) => requests.push(r));
  await page.goto(`${siteOrigin}${path}`);
  return { page, errors, requests };
}

/** The graph's figures for the widget's own query, fetched from Node with the same persisted document. */
async function graphFigures(id: string, currency: string): Promise<MiningCalculatorQuery> {
  const documentId = (MiningCalculatorDocument as unknown as { __meta__: { hash: string } }).__meta__.hash;
  const res = await fetch(`${product.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ documentId, variables: { id, currency } }),
  });
  const body = (await res.json()) as { data: MiningCalculatorQuery; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data;
}

/** The reference calculation (the formulas of docs/mining-widget.md, written out again here). */
function reference(
  input: { hashrateHs: number; watts: number; perKwh: number; feePct: number },
  net: { H: number; T: number; R: number; P: number },
) {
  const coinsPerDay = (input.hashrateHs * 86_400 * net.R * (100 - input.feePct)) / (100 * net.H * net.T);
  const revenuePerDay = coinsPerDay * net.P;
  const electricityPerDay = (input.watts * 24 * input.perKwh) / 1000;
  const profitPerDay = revenuePerDay - electricityPerDay;
  return {
    'coins-day': coinsPerDay,
    'coins-month': coinsPerDay * 30,
    'revenue-day': revenuePerDay,
    'revenue-month': revenuePerDay * 30,
    'electricity-day': electricityPerDay,
    'electricity-month': electricityPerDay * 30,
    'profit-day': profitPerDay,
    'profit-month': profitPerDay * 30,
  };
}

const widget = (page: Page, css = 'coinwallet-mining-calculator'): Locator => page.locator(css);

/** Waits until the widget shows network figures (its graph answer arrived). */
async function loaded(w: Locator): Promise<void> {
  await expect
    .poll(async () => w.getByTestId('net-hashrate').getAttribute('data-value'), { timeout: 20_000 })
    .toMatch(/^\d/);
}

/** Replaces a focused field's text by typing (select all, then the new text). */
async function retype(page: Page, text: string): Promise<void> {
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}

async function axeCheck(page: Page, name: string): Promise<void> {
  await page.addScriptTag({ path: AXE });
  const results = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<unknown> } }).axe;
    return axe.run(
      { include: [['coinwallet-mining-calculator']] },
      {
        resultTypes: ['violations', 'incomplete'],
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      },
    );
  })) as {
    violations: {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: unknown; failureSummary?: string }[];
    }[];
    passes?: unknown[];
  };
  writeFileSync(join(ARTIFACTS, `axe-${name}.json`), JSON.stringify(results, null, 2));
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.impact} ${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`),
  ).toEqual([]);
}

describe('the mining calculator widget on a third-party site', () => {
  it('loads from the platform, calls the platform, and its figures match the reference calculation', async () => {
    const { page, errors, requests } = await open('/');
    const w = widget(page);
    await loaded(w);

    // Cross-origin: the page is on site.localhost, the widget's calls go to the platform it was loaded from.
    const platformOrigin = new URL(product.url).origin;
    const graphCalls = requests.filter((r) => r.url().endsWith('/graphql') && r.method() === 'POST');
    expect(graphCalls.length).toBeGreaterThan(0);
    for (const r of graphCalls) {
      expect(new URL(r.url()).origin).toBe(platformOrigin);
      expect((await r.allHeaders())['origin']).toBe(siteOrigin);
      const sent = r.postDataJSON() as { documentId?: string; query?: string };
      expect(sent.documentId).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(sent.query).toBeUndefined();
    }
    expect(requests.some((r) => r.url() === `${product.url}/widgets/mining-calculator.js`)).toBe(true);

    // The site's hostile CSS does not reach the widget: its inputs are shown, its heading keeps its size.
    await expect.poll(async () => w.locator('#hashrate').isVisible()).toBe(true);
    const h2Size = await w.locator('h2').evaluate((el) => getComputedStyle(el).fontSize);
    expect(parseFloat(h2Size)).toBeLessThan(24);
    expect(
      await w
        .locator('td')
        .first()
        .evaluate((el) => getComputedStyle(el).letterSpacing),
    ).toBe('normal');
    expect(await w.locator('#hashrate').evaluate((el) => getComputedStyle(el).fontFamily)).not.toContain(
      'Georgia',
    );

    // Keyboard only: focus the first field, then Tab through the form.
    await w.locator('#hashrate').focus();
    await retype(page, '250');
    await page.keyboard.press('Tab'); // unit: GH/s → MH/s
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Tab');
    await retype(page, '120');
    await page.keyboard.press('Tab');
    await retype(page, '0.12');
    await page.keyboard.press('Tab');
    await retype(page, '1.5');
    await page.keyboard.press('Tab'); // currency: USD → EUR, by typing its code
    await page.keyboard.type('eur');
    await page.keyboard.press('Tab');

    expect(await w.locator('#unit').inputValue()).toBe('MH/s');
    expect(await w.locator('#currency').inputValue()).toBe('eur');
    await expect
      .poll(async () => w.locator('label[for=electricity]').textContent())
      .toBe('Electricity cost (EUR per kWh)');

    // The graph's figures (EUR), fetched independently; the widget shows the same ones.
    const g = await graphFigures('luckycoin', 'eur');
    const m = g.coin?.mining;
    expect(m).toBeTruthy();
    const net = {
      H: m!.networkHashrate as number,
      T: m!.blockTimeSeconds as number,
      R: m!.blockReward as number,
      P: g.coin!.price as number,
    };
    expect(Object.values(net).every((v) => typeof v === 'number' && v > 0)).toBe(true);
    await expect
      .poll(async () => Number(await w.getByTestId('net-price').getAttribute('data-value')))
      .toBe(net.P);
    expect(Number(await w.getByTestId('net-hashrate').getAttribute('data-value'))).toBe(net.H);
    expect(Number(await w.getByTestId('net-block-time').getAttribute('data-value'))).toBe(net.T);
    expect(Number(await w.getByTestId('net-reward').getAttribute('data-value'))).toBe(net.R);
    expect(Number(await w.getByTestId('net-difficulty').getAttribute('data-value'))).toBe(m!.difficulty);
    expect(await w.getByTestId('net-algorithm').textContent()).toBe('scrypt');
    expect(await w.getByTestId('sources').textContent()).toContain('demo data (generated, not real)');
    await expect(w.getByTestId('demo-notice').isVisible()).resolves.toBe(true);

    const ref = reference({ hashrateHs: 250e6, watts: 120, perKwh: 0.12, feePct: 1.5 }, net);
    for (const [id, expected] of Object.entries(ref)) {
      const cell = w.getByTestId(id);
      const shown = Number(await cell.getAttribute('data-value'));
      expect(Math.abs(shown - expected), `${id}: ${shown} vs ${expected}`).toBeLessThanOrEqual(
        Math.abs(expected) * 1e-12 + 1e-15,
      );
      const text = (await cell.textContent()) ?? '';
      expect(text, id).toBe(
        id.startsWith('coins') ? formatCoins(expected, LOCALE) : formatMoney(expected, 'eur', LOCALE),
      );
    }
    expect(await w.getByTestId('electricity-day').textContent()).toBe('€0.3456'); // 0.12 kW × 24 h × 0.12, 4 significant digits below 1

    // Screen readers get the result once typing pauses.
    await expect
      .poll(async () => w.getByTestId('announcement').textContent(), { timeout: 5_000 })
      .toContain(`${formatCoins(ref['coins-day'], LOCALE)} LKY`);
    expect(await w.getByTestId('announcement').getAttribute('aria-live')).toBe('polite');
    expect(errors).toEqual([]);
  });

  it('explains bad input next to the field, keyboard and screen reader alike', async () => {
    const { page } = await open('/');
    const w = widget(page);
    await loaded(w);
    await w.locator('#fee').focus();
    await retype(page, '150');
    await expect.poll(async () => w.locator('#fee').getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await w.locator('#fee').getAttribute('aria-describedby')) ?? '';
    expect(await w.locator(`#${describedBy}`).textContent()).toBe(
      'Pool fee must be a percentage from 0 to 100',
    );
    expect(await w.getByTestId('coins-day').textContent()).toBe('—');
    await retype(page, '2');
    await expect.poll(async () => w.locator('#fee').getAttribute('aria-invalid')).toBe('false');
    expect(await w.getByTestId('coins-day').getAttribute('data-value')).not.toBe('');
  });

  it('is responsive: one column at 360 px, two at 1280 px, no horizontal scrolling (screenshots kept)', async () => {
    for (const width of [360, 1280]) {
      const { page } = await open('/', width);
      const w = widget(page);
      await loaded(w);
      const form = (await w.locator('form').boundingBox())!;
      const results = (await w.getByTestId('results').boundingBox())!;
      if (width === 360) expect(results.y).toBeGreaterThanOrEqual(form.y + form.height - 1);
      else {
        expect(results.x).toBeGreaterThanOrEqual(form.x + form.width - 1);
        expect(Math.abs(results.y - form.y)).toBeLessThan(60);
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `horizontal overflow at ${width}px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(ARTIFACTS, `widget-${width}.png`), fullPage: true });
      await w.screenshot({ path: join(ARTIFACTS, `widget-${width}-element.png`) });
      await axeCheck(page, `widget-${width}`);
    }
  });

  it('shows clear states: not mined, unknown coin, API unreachable (with retry), invalid attribute', async () => {
    const { page } = await open('/states', 1280);
    const notMined = widget(page, '#not-mined');
    await expect
      .poll(async () => notMined.getByTestId('no-mining').textContent(), { timeout: 20_000 })
      .toContain('No network figures are known for Solana');
    expect(await notMined.getByTestId('coins-day').textContent()).toBe('—');
    // Electricity needs only the inputs: 1,000 W × 24 h × 0.10.
    expect(await notMined.getByTestId('electricity-day').textContent()).toBe('$2.40');

    const unknown = widget(page, '#unknown');
    await expect
      .poll(async () => unknown.getByTestId('unknown-coin').textContent())
      .toContain('“no-such-coin”');

    const down = widget(page, '#down');
    await expect
      .poll(async () => down.getByTestId('error').textContent(), { timeout: 20_000 })
      .toContain('NETWORK_ERROR');
    expect(await down.getByTestId('error').getAttribute('role')).toBe('alert');
    await down.getByRole('button', { name: 'Try again' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => down.getByTestId('error').textContent(), { timeout: 20_000 })
      .toContain('could not be reached');

    const invalid = widget(page, '#invalid');
    expect(await invalid.getByRole('alert').textContent()).toContain('must be a kit ticker such as LKY');

    await page.screenshot({ path: join(ARTIFACTS, 'widget-states.png'), fullPage: true });
    await axeCheck(page, 'states');
  });
});
