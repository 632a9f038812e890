/// <reference lib="dom" />
/**
 * Shared setup of the provider tests (provider.e2e.ts, provider-methods.e2e.ts): a platform in process, the fixture
 * dapp (test/browser/fixtures/dapp.html, loading /provider.js from the platform), Chromium, and one emulator per test.
 *
 * A test file calls `useProviderHarness()` once at its top level: it registers the hooks that start all this before
 * the file's tests (setting `platform` and `origins`) and close every page and emulator after each test.
 */
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { DappBrowser, DappBrowserOptions } from '../../src/dapp-browser/server.ts';
import { startDappBrowser } from '../../src/dapp-browser/server.ts';
import type { Platform } from './support.ts';
import { launchChromium, listDapp, startFixtureServer, startPlatform } from './support.ts';

type Outcome =
  | { ok: true; result: unknown }
  | { ok: false; code: number | string; reason?: string; data?: Record<string, unknown>; message: string };

interface Seen {
  announces: { info: { uuid: string; name: string; icon: string; rdns: string }; same: boolean }[];
  ready: number;
  events: { name: string; payload: unknown }[];
  forgedRuns: number;
}

declare global {
  interface Window {
    coinwallet?: unknown;
    seen: Seen;
    dapp: {
      detect(): Promise<boolean>;
      call(method: string, params?: unknown): Promise<Outcome>;
      forge(requestId: string): Promise<void>;
    };
  }
}

export interface Account {
  ticker: string;
  address: string;
  publicKey: string;
}

let browser: Browser;
export let platform: Platform;
let fixtures: { port: number; close(): Promise<void> };
export let origins: { dapp: string; unlisted: string; id: string; evil: string; loopback: string };
const open: { emu?: DappBrowser; context?: BrowserContext }[] = [];

export function useProviderHarness(): void {
  beforeAll(async () => {
    let platformUrl = '';
    fixtures = await startFixtureServer(() => platformUrl);
    const at = (host: string) => `http://${host}:${fixtures.port}`;
    origins = {
      dapp: at('dapp.localhost'),
      unlisted: at('unlisted.localhost'),
      id: at('id.localhost'),
      evil: at('evil.localhost'),
      loopback: at('127.0.0.1'),
    };
    [platform, browser] = await Promise.all([
      startPlatform({ IDENTITY_ORIGIN: origins.id }),
      launchChromium(),
    ]);
    platformUrl = platform.url;
    await listDapp(platform, origins.dapp);
  });

  afterEach(async () => {
    // Browsers first (they hold connections to the emulators), then the emulators.
    const closing = open.splice(0);
    for (const o of closing) await o.context?.close();
    for (const o of closing) await o.emu?.close();
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
    await fixtures?.close();
  });
}

export async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  open.push({ context });
  return context.newPage();
}

/** The emulator on `dappUrl`, its page, and the dapp frame once its helpers exist. */
export async function emulator(
  dappUrl: string,
  o: Partial<DappBrowserOptions> = {},
): Promise<{ emu: DappBrowser; page: Page; frame: Frame }> {
  const emu = await startDappBrowser({
    dappUrl,
    port: 0,
    api: platform.url,
    identityOrigin: origins.id,
    coins: ['LTC', 'DOGE', 'LKY', 'SOL'],
    ...o,
  });
  open.push({ emu });
  const page = await newPage();
  await page.goto(emu.url);
  const frame = await (await page.getByTestId('dapp-frame').elementHandle())?.contentFrame();
  if (!frame) throw new Error('no dapp frame');
  await frame.waitForFunction(() => window.dapp !== undefined);
  return { emu, page, frame };
}

/** Starts a request in the dapp, waits for the prompt, clicks `decision`, returns the outcome and the prompt. */
export async function withPrompt(
  page: Page,
  frame: Frame,
  method: string,
  params: unknown,
  decision: 'approve' | 'reject',
): Promise<{ outcome: Outcome; title: string; promptMethod: string | null }> {
  const pending = frame.evaluate(([m, p]) => window.dapp.call(m as string, p), [method, params] as const);
  const prompt = page.getByTestId('prompt');
  await prompt.waitFor({ state: 'visible' });
  const title = (await page.getByTestId('prompt-title').textContent()) ?? '';
  const promptMethod = await prompt.getAttribute('data-method');
  await page.getByTestId(decision).click();
  return { outcome: await pending, title, promptMethod };
}

export const call = (frame: Frame, method: string, params?: unknown) =>
  frame.evaluate(([m, p]) => window.dapp.call(m as string, p), [method, params] as const);

export async function connect(page: Page, frame: Frame, tickers: string[]): Promise<Account[]> {
  const { outcome } = await withPrompt(page, frame, 'wallet_connect', { tickers }, 'approve');
  if (!outcome.ok) throw new Error(`connect failed: ${JSON.stringify(outcome)}`);
  return (outcome.result as { accounts: Account[] }).accounts;
}

export const dappUrl = (origin: string) => `${origin}/dapp.html`;
