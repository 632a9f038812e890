/**
 * Shared setup of widget.e2e.ts (started by `useWidgetHarness()`, which a test file calls once at its top level): the
 * platform in process with demo data, the third-party site serving the pages below, Chromium; and the helpers that
 * open a page, fetch the graph's figures, compute the reference, and run axe-core.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { Product } from '../../src/start/product.ts';
import { startProduct } from '../../src/start/product.ts';
import { MiningCalculatorDocument } from '../../src/web/generated/graphql.ts';
import type { MiningCalculatorQuery } from '../../src/web/generated/graphql.ts';
import { freePort, launchChromium } from './support.ts';

export const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'widget');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
export const LOCALE = 'en';

let dir: string;
export let product: Product;
let site: Server;
export let siteOrigin: string;
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

export function useWidgetHarness(): void {
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
}

interface Opened {
  page: Page;
  errors: string[];
  /** Every request the page made. */
  requests: Request[];
}

export async function open(path: string, width = 1280): Promise<Opened> {
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
export async function graphFigures(id: string, currency: string): Promise<MiningCalculatorQuery> {
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
export function reference(
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

export const widget = (page: Page, css = 'coinwallet-mining-calculator'): Locator => page.locator(css);

/** Waits until the widget shows network figures (its graph answer arrived). */
export async function loaded(w: Locator): Promise<void> {
  await expect
    .poll(async () => w.getByTestId('net-hashrate').getAttribute('data-value'), { timeout: 20_000 })
    .toMatch(/^\d/);
}

/** Replaces a focused field's text by typing (select all, then the new text). */
export async function retype(page: Page, text: string): Promise<void> {
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}

export async function axeCheck(page: Page, name: string): Promise<void> {
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
