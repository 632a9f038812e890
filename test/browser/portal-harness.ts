/// <reference lib="dom" />
/**
 * Shared setup of portal.e2e.ts: the whole product in process and Chromium (started by `usePortalHarness()`, which a
 * test file calls once at its top level), the portal opened in a plain tab or inside the dapp-browser emulator, the
 * emulator's prompts, axe-core, and screenshots under test-artifacts/portal/ (gitignored).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { DappBrowser } from '../../src/dapp-browser/server.ts';
import { startDappBrowser } from '../../src/dapp-browser/server.ts';
import type { Platform } from './support.ts';
import { launchChromium, startPlatform } from './support.ts';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'portal');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser: Browser;
export let platform: Platform;
const open: { context?: BrowserContext; emu?: DappBrowser }[] = [];

export function usePortalHarness(): void {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [platform, browser] = await Promise.all([startPlatform({}), launchChromium()]);
  });

  afterEach(async () => {
    const closing = open.splice(0);
    for (const o of closing) await o.context?.close();
    for (const o of closing) await o.emu?.close();
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });
}

/** A fresh context and page; uncaught errors of the page and its frames are collected. */
export async function newPage(): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  open.push({ context });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // Refused requests (401/429 answers) are logged by Chromium as "Failed to load resource"; they are expected.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
      errors.push(`console: ${m.text()}`);
  });
  return { page, errors };
}

/**
 * The emulator hosting the portal (the portal is not a listed dapp: `allowUnlisted`), and its page. Each test's
 * wallet has its own seed, so its own account.
 */
export async function inEmulator(seed: string): Promise<{ emu: DappBrowser; page: Page; errors: string[] }> {
  const emu = await startDappBrowser({
    seed,
    dappUrl: `${platform.url}/portal`,
    port: 0,
    api: platform.url,
    allowUnlisted: true,
    coins: ['LTC', 'DOGE'],
  });
  open.push({ emu });
  const { page, errors } = await newPage();
  await page.goto(emu.url);
  return { emu, page, errors };
}

/** The portal's frame in the emulator, once the portal has rendered. */
export async function portalFrame(page: Page): Promise<Frame> {
  const frame = await (await page.getByTestId('dapp-frame').elementHandle())?.contentFrame();
  if (!frame) throw new Error('no dapp frame');
  await frame.locator('h1').waitFor({ state: 'visible', timeout: 20_000 });
  return frame;
}

interface AxeResult {
  passes: unknown[];
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

/**
 * Runs axe-core in `frame` (injected through the debugging protocol, which the page's CSP does not govern) and
 * expects no serious or critical violation. The full report goes to the artifacts.
 */
export async function expectAccessible(frame: Frame, name: string): Promise<AxeResult['violations']> {
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(AXE_SOURCE);
  const result = await frame.evaluate(() =>
    (window as unknown as { axe: { run(c: Document, o: object): Promise<AxeResult> } }).axe.run(document, {
      resultTypes: ['violations'],
    }),
  );
  writeFileSync(join(ARTIFACTS, `axe-${name}.json`), JSON.stringify(result.violations, null, 2));
  expect(result.passes.length, `${name}: axe checked the page`).toBeGreaterThan(10);
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
    );
  expect(bad, name).toEqual([]);
  return result.violations;
}

export const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

/** Waits for the emulator's prompt, checks its method, clicks `decision`. */
export async function answerPrompt(
  page: Page,
  method: string,
  decision: 'approve' | 'reject' = 'approve',
): Promise<void> {
  const prompt = page.getByTestId('prompt');
  await prompt.waitFor({ state: 'visible', timeout: 15_000 });
  expect(await prompt.getAttribute('data-method')).toBe(method);
  const id = await prompt.getAttribute('data-request-id');
  await page.getByTestId(decision).click();
  // Answered: the prompt is gone, or already shows the next request (the sign-in's second prompt follows at once).
  await expect
    .poll(async () => (await prompt.isHidden()) || (await prompt.getAttribute('data-request-id')) !== id)
    .toBe(true);
}

export async function signIn(page: Page, frame: Frame): Promise<void> {
  await frame.getByTestId('sign-in').click();
  await answerPrompt(page, 'wallet_connect');
  await answerPrompt(page, 'id_signMessage');
  await frame.getByTestId('signed-in-address').waitFor({ state: 'visible', timeout: 15_000 });
}

/** Clicks Refresh and waits for the reload to finish. */
export async function refresh(frame: Frame): Promise<void> {
  const button = frame.getByTestId('refresh');
  await button.click();
  await expect.poll(() => button.textContent()).toBe('Refresh');
}

export const ping = async (key: string): Promise<number> =>
  (await fetch(`${platform.url}/v1/agg/ping`, { headers: { 'x-sp-api-key': key } })).status;
