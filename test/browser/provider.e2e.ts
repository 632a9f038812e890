/// <reference lib="dom" />
/**
 * The wallet provider (`/provider.js`) and the dapp-browser emulator in real Chromium: a platform in process, the
 * fixture dapp (test/browser/fixtures/dapp.html, loading /provider.js from the platform), and one emulator per test.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58, base64 } from '@scure/base';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LTC } from '../../src/crypto/coins.ts';
import { verifySignedMessage } from '../../src/crypto/signed-message.ts';
import type { DappBrowser, DappBrowserOptions } from '../../src/dapp-browser/server.ts';
import { DEFAULT_LKY_BALANCE, startDappBrowser } from '../../src/dapp-browser/server.ts';
import { identityPairingText } from '../../src/provider/protocol.ts';
import { get, post } from '../support/wallet.ts';
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

interface Account {
  ticker: string;
  address: string;
  publicKey: string;
}

let browser: Browser;
let platform: Platform;
let fixtures: { port: number; close(): Promise<void> };
let origins: { dapp: string; unlisted: string; id: string; evil: string; loopback: string };
const open: { emu?: DappBrowser; context?: BrowserContext }[] = [];

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
  [platform, browser] = await Promise.all([startPlatform({ IDENTITY_ORIGIN: origins.id }), launchChromium()]);
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

async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  open.push({ context });
  return context.newPage();
}

/** The emulator on `dappUrl`, its page, and the dapp frame once its helpers exist. */
async function emulator(
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
async function withPrompt(
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

const call = (frame: Frame, method: string, params?: unknown) =>
  frame.evaluate(([m, p]) => window.dapp.call(m as string, p), [method, params] as const);

async function connect(page: Page, frame: Frame, tickers: string[]): Promise<Account[]> {
  const { outcome } = await withPrompt(page, frame, 'wallet_connect', { tickers }, 'approve');
  if (!outcome.ok) throw new Error(`connect failed: ${JSON.stringify(outcome)}`);
  return (outcome.result as { accounts: Account[] }).accounts;
}

const dappUrl = (origin: string) => `${origin}/dapp.html`;

describe('/provider.js', () => {
  it('is served as a cacheable script any origin may load', async () => {
    const r = await fetch(`${platform.url}/provider.js`, { headers: { origin: 'https://some.dapp' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('cache-control')).toBe('public, max-age=300');
    const body = await r.text();
    expect(body).toContain('coinwallet:announceProvider');
    expect(body).toContain('https://wallet.coinwallet.app'); // the default trusted host origin, baked in
    expect(body).toContain(origins.id); // IDENTITY_ORIGIN, baked in
    const etag = r.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${platform.url}/provider.js`, { headers: { 'if-none-match': etag ?? '' } });
    expect(again.status).toBe(304);
  });
});

describe('outside the wallet', () => {
  it('an ordinary tab gets no provider, no events, and the clear PROVIDER_NOT_AVAILABLE error', async () => {
    const page = await newPage();
    await page.goto(dappUrl(origins.dapp));
    await page.waitForFunction(() => window.dapp !== undefined);
    const state = await page.evaluate(async () => ({
      defined: 'coinwallet' in window,
      detect: await window.dapp.detect().then(
        () => null,
        (e: { code: string; message: string }) => e,
      ),
      seen: window.seen,
    }));
    expect(state.defined).toBe(false);
    expect(state.detect).toEqual({
      code: 'PROVIDER_NOT_AVAILABLE',
      message: "open this dapp inside Coin Wallet's dapp browser",
    });
    expect(state.seen.announces).toEqual([]);
    expect(state.seen.ready).toBe(0);
  });

  it('a frame whose parent never answers the hello gets no provider (handshake timeout)', async () => {
    const page = await newPage();
    await page.goto(
      `${origins.loopback}/host.html?mode=silent&dapp=${encodeURIComponent(dappUrl(origins.dapp))}`,
    );
    const frame = page.frames().find((f) => f !== page.mainFrame());
    if (!frame) throw new Error('no frame');
    await frame.waitForFunction(() => window.dapp !== undefined);
    const t0 = Date.now();
    const detect = await frame.evaluate(() =>
      window.dapp.detect().then(
        () => 'found',
        (e: { code: string }) => e.code,
      ),
    );
    expect(detect).toBe('PROVIDER_NOT_AVAILABLE');
    expect(Date.now() - t0).toBeGreaterThan(500); // it did wait for the handshake
    // The hello was repeated during the handshake (every 250 ms), and stopped when it timed out.
    const hellos = () => page.evaluate(() => (window as unknown as { hellos: number }).hellos);
    const seenHellos = await hellos();
    expect(seenHellos).toBeGreaterThanOrEqual(2);
    await page.waitForTimeout(600);
    expect(await hellos()).toBe(seenHellos);
    expect(
      await frame.evaluate(() => ({ defined: 'coinwallet' in window, ready: window.seen.ready })),
    ).toEqual({
      defined: false,
      ready: 0,
    });
  });

  it('a frame whose parent is not a trusted wallet origin gets no provider, even with a correct welcome', async () => {
    const page = await newPage();
    await page.goto(
      `${origins.evil}/host.html?mode=impostor&dapp=${encodeURIComponent(dappUrl(origins.dapp))}`,
    );
    const frame = page.frames().find((f) => f !== page.mainFrame());
    if (!frame) throw new Error('no frame');
    await frame.waitForFunction(() => window.dapp !== undefined);
    const detect = await frame.evaluate(() =>
      window.dapp.detect().then(
        () => 'found',
        (e: { code: string }) => e.code,
      ),
    );
    expect(detect).toBe('PROVIDER_NOT_AVAILABLE');
    expect(
      await page.evaluate(() => (window as unknown as { hellos: number }).hellos),
    ).toBeGreaterThanOrEqual(1);
    expect(await frame.evaluate(() => 'coinwallet' in window)).toBe(false);
  });
});

describe('with a native bridge (the mobile web view)', () => {
  it('defines the provider at once and speaks the same JSON through coinwalletNative', async () => {
    const page = await newPage();
    await page.addInitScript(() => {
      const w = window as unknown as Record<string, unknown>;
      const log: unknown[] = [];
      let push: ((m: string) => void) | undefined;
      w.nativeLog = log;
      w.nativePush = (m: unknown) => push?.(JSON.stringify(m));
      w.coinwalletNative = {
        request(text: string) {
          const m = JSON.parse(text) as { id: string; method: string };
          log.push(m);
          const body =
            m.method === 'wallet_connect'
              ? {
                  result: {
                    accounts: [{ ticker: 'LTC', address: 'Lnative', publicKey: '02ab' }],
                    capabilities: {},
                  },
                }
              : { error: { code: 4200, message: 'nope', data: { reason: 'UNSUPPORTED_METHOD' } } };
          return Promise.resolve(JSON.stringify({ cw: 1, type: 'response', id: m.id, ...body }));
        },
        onEvent(listener: (m: string) => void) {
          push = listener;
        },
      };
    });
    await page.goto(dappUrl(origins.dapp));
    await page.waitForFunction(() => window.dapp !== undefined);
    const r = await page.evaluate(async () => {
      const w = window as unknown as { nativeLog: unknown[]; nativePush(m: unknown): void };
      const readyAtLoad = window.seen.ready;
      const connected = await window.dapp.call('wallet_connect', { tickers: ['LTC'] });
      const other = await window.dapp.call('foo_bar');
      w.nativePush({ cw: 1, type: 'event', event: 'accountsChanged', data: [] });
      w.nativePush({ cw: 1, type: 'event', event: 'bogus', data: 1 });
      return { readyAtLoad, connected, other, log: w.nativeLog, events: window.seen.events };
    });
    expect(r.readyAtLoad).toBe(1);
    expect(r.connected).toMatchObject({
      ok: true,
      result: { accounts: [{ ticker: 'LTC', address: 'Lnative' }] },
    });
    expect(r.other).toMatchObject({ ok: false, code: 4200, reason: 'UNSUPPORTED_METHOD' });
    expect(r.log).toEqual([
      {
        cw: 1,
        type: 'request',
        id: expect.any(String),
        method: 'wallet_connect',
        params: { tickers: ['LTC'] },
      },
      { cw: 1, type: 'request', id: expect.any(String), method: 'foo_bar' },
    ]);
    expect(r.events).toEqual([
      { name: 'connect', payload: { tickers: ['LTC'] } },
      { name: 'accountsChanged', payload: [] },
    ]);
  });
});

describe('inside the emulator', () => {
  it('defines a frozen, non-writable provider, announces it, re-announces on request and fires the ready event', async () => {
    const { frame } = await emulator(dappUrl(origins.dapp));
    await frame.waitForFunction(() => window.seen.ready > 0);
    const r = await frame.evaluate(() => {
      const before = window.coinwallet;
      const w = window as unknown as Record<string, unknown>;
      let assignThrew = false;
      try {
        (function strict() {
          'use strict';
          w.coinwallet = { fake: true };
        })();
      } catch {
        assignThrew = true;
      }
      let redefineThrew = false;
      try {
        Object.defineProperty(window, 'coinwallet', { value: { fake: true } });
      } catch {
        redefineThrew = true;
      }
      const p = window.coinwallet as unknown as Record<string, unknown>;
      let mutateThrew = false;
      try {
        (function strict() {
          'use strict';
          p.request = () => 'hijacked';
        })();
      } catch {
        mutateThrew = true;
      }
      const announcesBefore = window.seen.announces.length;
      window.dispatchEvent(new Event('coinwallet:requestProvider'));
      return {
        same: window.coinwallet === before,
        isCoinWallet: p.isCoinWallet,
        assignThrew,
        redefineThrew,
        mutateThrew,
        frozen: Object.isFrozen(p),
        ready: window.seen.ready,
        announcesBefore,
        announces: window.seen.announces,
      };
    });
    expect(r).toMatchObject({
      same: true,
      isCoinWallet: true,
      assignThrew: true,
      redefineThrew: true,
      mutateThrew: true,
      frozen: true,
      ready: 1,
      announcesBefore: 1,
    });
    expect(r.announces).toHaveLength(2);
    for (const a of r.announces) {
      expect(a.same).toBe(true);
      expect(a.info).toMatchObject({ name: 'Coin Wallet', rdns: 'app.coinwallet' });
      expect(a.info.icon).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(a.info.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(r.announces[0]?.info.uuid).toBe(r.announces[1]?.info.uuid);
  });

  it('wallet_connect prompts, and on approval returns accounts only for coins the wallet holds', async () => {
    const { page, frame, emu } = await emulator(dappUrl(origins.dapp));
    const { outcome, title, promptMethod } = await withPrompt(
      page,
      frame,
      'wallet_connect',
      { tickers: ['LTC', 'PEP', 'SOL', 'DOGE', 'BONK'] },
      'approve',
    );
    expect(title).toBe(`Connect ${origins.dapp}?`);
    expect(promptMethod).toBe('wallet_connect');
    expect(outcome.ok).toBe(true);
    const result = (outcome as { result: { accounts: Account[]; capabilities: Record<string, unknown> } })
      .result;
    expect(result.accounts.map((a) => a.ticker)).toEqual(['LTC', 'SOL', 'DOGE']); // no PEP, no BONK wallet
    for (const a of result.accounts) expect(a).toEqual(emu.wallet.account(a.ticker));
    expect(result.capabilities).toEqual({
      LTC: { methods: ['id_signMessage'] },
      SOL: { methods: ['wallet_signMessage', 'wallet_signTransaction'] },
      DOGE: { methods: [] },
    });
    expect(JSON.stringify(result)).not.toMatch(/private|secret/i);
    await page.getByTestId('site').filter({ hasText: 'connected (LTC, PEP, SOL, DOGE, BONK)' }).waitFor();
    expect(
      await page
        .getByTestId('wallet')
        .getByText(emu.wallet.account('SOL')?.address ?? '?')
        .count(),
    ).toBe(1);
    expect(await page.getByTestId('account-PEP').count()).toBe(0);
    const events = await frame.evaluate(() => window.seen.events);
    expect(events).toEqual([{ name: 'connect', payload: { tickers: ['LTC', 'SOL', 'DOGE'] } }]);
    // Approval is remembered for the origin: a second connect does not prompt.
    const again = await call(frame, 'wallet_connect', { tickers: ['LKY'] });
    expect(again).toMatchObject({ ok: true, result: { accounts: [emu.wallet.account('LKY')] } });
    expect(await page.getByTestId('prompt').isHidden()).toBe(true);
  });

  it('a rejected prompt is 4001 USER_REJECTED', async () => {
    const { page, frame } = await emulator(dappUrl(origins.dapp));
    const { outcome } = await withPrompt(page, frame, 'wallet_connect', { tickers: ['LTC'] }, 'reject');
    expect(outcome).toMatchObject({
      ok: false,
      code: 4001,
      reason: 'USER_REJECTED',
      isProviderRpcError: true,
    });
    // Not connected: other methods are 4100 NOT_CONNECTED.
    expect(await call(frame, 'wallet_getBalance', { ticker: 'LKY' })).toMatchObject({
      ok: false,
      code: 4100,
      reason: 'NOT_CONNECTED',
    });
  });

  it('an origin that is not listed in the dapp store is 4100 DAPP_NOT_LISTED (no prompt); --allow-unlisted prompts', async () => {
    const { page, frame } = await emulator(dappUrl(origins.unlisted));
    expect(await call(frame, 'wallet_connect', { tickers: ['LTC'] })).toMatchObject({
      ok: false,
      code: 4100,
      reason: 'DAPP_NOT_LISTED',
    });
    expect(await page.getByTestId('prompt').isHidden()).toBe(true);

    const local = await emulator(dappUrl(origins.unlisted), { allowUnlisted: true });
    const accounts = await connect(local.page, local.frame, ['LTC']);
    expect(accounts.map((a) => a.ticker)).toEqual(['LTC']);
  });

  it('signs Solana messages and transactions with ed25519 after approval; the signatures verify', async () => {
    const { page, frame } = await emulator(dappUrl(origins.dapp));
    const [sol] = await connect(page, frame, ['SOL']);
    if (!sol) throw new Error('no SOL account');
    const message = 'Sign in to fixture dapp — nonce 42 ✓';
    const signed = await withPrompt(page, frame, 'wallet_signMessage', { ticker: 'SOL', message }, 'approve');
    expect(signed.promptMethod).toBe('wallet_signMessage');
    const r = (signed.outcome as { result: { publicKey: string; signature: string } }).result;
    expect(r.publicKey).toBe(sol.publicKey);
    const pk = base58.decode(sol.publicKey);
    expect(ed25519.verify(base58.decode(r.signature), new TextEncoder().encode(message), pk)).toBe(true);
    expect(ed25519.verify(base58.decode(r.signature), new TextEncoder().encode(`${message}!`), pk)).toBe(
      false,
    );

    // A legacy message: header [1 signer, 0, 1 read-only], keys [the account, a program], blockhash, 1 instruction.
    const tx = new Uint8Array([
      1,
      0,
      1,
      2,
      ...pk,
      ...new Uint8Array(32).fill(7),
      ...new Uint8Array(32).fill(9),
      1,
      1,
      1,
      0,
      2,
      0xaa,
      0xbb,
    ]);
    const txSigned = await withPrompt(
      page,
      frame,
      'wallet_signTransaction',
      { ticker: 'SOL', transaction: base64.encode(tx) },
      'approve',
    );
    const t = (txSigned.outcome as { result: { publicKey: string; signature: string } }).result;
    expect(ed25519.verify(base58.decode(t.signature), tx, pk)).toBe(true);

    const rejected = await withPrompt(
      page,
      frame,
      'wallet_signMessage',
      { ticker: 'SOL', message },
      'reject',
    );
    expect(rejected.outcome).toMatchObject({ ok: false, code: 4001, reason: 'USER_REJECTED' });
  });

  it('unknown methods are 4200 UNSUPPORTED_METHOD; wallet_getBalance is LKY only (DOGE → 4200)', async () => {
    const { page, frame } = await emulator(dappUrl(origins.dapp));
    await connect(page, frame, ['LTC', 'DOGE', 'LKY']);
    expect(await call(frame, 'eth_sendTransaction', {})).toMatchObject({
      ok: false,
      code: 4200,
      reason: 'UNSUPPORTED_METHOD',
    });
    expect(await call(frame, 'wallet_exportPrivateKey', { ticker: 'LTC' })).toMatchObject({
      ok: false,
      code: 4200,
      reason: 'UNSUPPORTED_METHOD',
    });
    expect(await call(frame, 'wallet_getBalance', { ticker: 'DOGE' })).toMatchObject({
      ok: false,
      code: 4200,
      reason: 'UNSUPPORTED_FOR_CHAIN',
    });
    expect(await call(frame, 'wallet_signMessage', { ticker: 'LTC', message: 'x' })).toMatchObject({
      ok: false,
      code: 4200,
      reason: 'UNSUPPORTED_FOR_CHAIN',
    });
    expect(await call(frame, 'wallet_getBalance', { ticker: 'LKY' })).toEqual({
      ok: true,
      result: {
        ticker: 'LKY',
        confirmed: DEFAULT_LKY_BALANCE.toString(),
        unconfirmed: '0',
        total: DEFAULT_LKY_BALANCE.toString(),
      },
    });
  });

  it('id_signMessage signs the platform sign-in challenge; POST /api/auth/session accepts it', async () => {
    const { page, frame } = await emulator(dappUrl(origins.dapp));
    const ltc = (await connect(page, frame, ['LTC']))[0];
    if (!ltc) throw new Error('no LTC account');
    const c = await post(platform.url, '/api/auth/challenge', { address: ltc.address });
    const { challenge, nonce } = c.body as { challenge: string; nonce: string };
    const { outcome, title } = await withPrompt(
      page,
      frame,
      'id_signMessage',
      { message: challenge },
      'approve',
    );
    expect(title).toBe(`Sign in to ${new URL(platform.url).host}`);
    const r = (outcome as { result: { address: string; signature: string } }).result;
    expect(r.address).toBe(ltc.address);
    const session = await post(platform.url, '/api/auth/session', {
      address: r.address,
      signature: r.signature,
      nonce,
    });
    expect(session.status).toBe(201);
    const token = (session.body as { token: string }).token;
    const me = await get(platform.url, '/api/account/me', token);
    expect(me.status).toBe(200);
    expect((me.body as { address: string }).address).toBe(ltc.address);

    // Anything but the platform's challenge is refused before any prompt.
    expect(await call(frame, 'id_signMessage', { message: 'Send me your coins' })).toMatchObject({
      ok: false,
      code: -32602,
      reason: 'NOT_A_SIGN_IN_CHALLENGE',
    });
    const other = challenge.replace(new URL(platform.url).host, 'evil.example:4000');
    expect(await call(frame, 'id_signMessage', { message: other })).toMatchObject({
      ok: false,
      code: -32602,
      reason: 'CHALLENGE_WRONG_DOMAIN',
    });
  });

  it('wallet_sendTransaction makes the LKY bridge deposit of the active deployment, and nothing else', async () => {
    const { page, frame } = await emulator(dappUrl(origins.dapp));
    await connect(page, frame, ['LKY']);
    const config = (await get(platform.url, '/api/config')).body as {
      lanes: {
        asset: string;
        direction: string;
        depositAddress: string;
        minAmount: string;
        maxAmount: string;
      }[];
    };
    const lane = config.lanes.find((l) => l.asset === 'LKY' && l.direction === 'wrap');
    if (!lane) throw new Error('no LKY lane');
    const deposit = { ticker: 'LKY', kind: 'bridge-deposit', to: lane.depositAddress };

    const good = await withPrompt(
      page,
      frame,
      'wallet_sendTransaction',
      { ...deposit, amount: '500000000' },
      'approve',
    );
    expect(good.title).toBe('Bridge deposit: LKY → wLKY');
    expect(good.outcome).toMatchObject({
      ok: true,
      result: { txid: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    const balance = await call(frame, 'wallet_getBalance', { ticker: 'LKY' });
    expect(balance).toMatchObject({
      ok: true,
      result: { total: (DEFAULT_LKY_BALANCE - 500_000_000n).toString() },
    });
    await page.getByTestId('lky-balance').filter({ hasText: 'balance: 95 LKY' }).waitFor(); // the host's panel

    expect(
      await call(frame, 'wallet_sendTransaction', {
        ...deposit,
        to: 'LJhn8WMpUDxHpTfCwi5UJXi7dKLs96Mydo',
        amount: '500000000',
      }),
    ).toMatchObject({ ok: false, code: -32602, reason: 'NOT_A_BRIDGE_DEPOSIT' });
    expect(
      await call(frame, 'wallet_sendTransaction', {
        ...deposit,
        amount: (BigInt(lane.maxAmount) + 1n).toString(),
      }),
    ).toMatchObject({
      ok: false,
      code: -32602,
      reason: 'AMOUNT_OUT_OF_LIMITS',
      data: { maxAmount: lane.maxAmount },
    });
    expect(
      await call(frame, 'wallet_sendTransaction', {
        ...deposit,
        amount: (BigInt(lane.minAmount) - 1n).toString(),
      }),
    ).toMatchObject({ ok: false, code: -32602, reason: 'AMOUNT_OUT_OF_LIMITS' });
    expect(
      await call(frame, 'wallet_sendTransaction', { ...deposit, kind: 'transfer', amount: '500000000' }),
    ).toMatchObject({
      ok: false,
      code: -32602,
      reason: 'NOT_A_BRIDGE_DEPOSIT',
    });
    expect(
      await call(frame, 'wallet_sendTransaction', {
        ticker: 'DOGE',
        kind: 'bridge-deposit',
        to: lane.depositAddress,
        amount: '1',
      }),
    ).toMatchObject({ ok: false, code: 4200, reason: 'UNSUPPORTED_FOR_CHAIN' });
    // A rejected deposit moves nothing.
    const rejected = await withPrompt(
      page,
      frame,
      'wallet_sendTransaction',
      { ...deposit, amount: '500000000' },
      'reject',
    );
    expect(rejected.outcome).toMatchObject({ ok: false, code: 4001 });
    expect(await call(frame, 'wallet_getBalance', { ticker: 'LKY' })).toMatchObject({
      result: { total: (DEFAULT_LKY_BALANCE - 500_000_000n).toString() },
    });
  });

  it('ignores host messages from a foreign origin or another window', async () => {
    const { page, frame } = await emulator(dappUrl(origins.dapp));
    await connect(page, frame, ['SOL']);
    const pending = call(frame, 'wallet_signMessage', { ticker: 'SOL', message: 'hello' });
    const prompt = page.getByTestId('prompt');
    await prompt.waitFor({ state: 'visible' });
    const requestId = await prompt.getAttribute('data-request-id');
    if (!requestId) throw new Error('no request id on the prompt');
    // Forged answers to the very request that is waiting, from a foreign frame and from the dapp window itself.
    await frame.evaluate((id) => window.dapp.forge(id), requestId);
    expect(await frame.evaluate(() => window.seen.forgedRuns)).toBe(1);
    await page.getByTestId('reject').click();
    expect(await pending).toMatchObject({ ok: false, code: 4001, reason: 'USER_REJECTED' });
    const events = await frame.evaluate(() => window.seen.events);
    expect(events.map((e) => e.name)).toEqual(['connect']); // no forged accountsChanged
  });

  it('id_connect works only from the identity origin (elsewhere 4100 UNTRUSTED_ORIGIN)', async () => {
    const { frame } = await emulator(dappUrl(origins.dapp));
    expect(await call(frame, 'id_connect', { nonce: 'abcdef0123456789' })).toMatchObject({
      ok: false,
      code: 4100,
      reason: 'UNTRUSTED_ORIGIN',
    });

    const id = await emulator(dappUrl(origins.id));
    const { outcome } = await withPrompt(
      id.page,
      id.frame,
      'id_connect',
      { nonce: 'abcdef0123456789' },
      'approve',
    );
    const r = (outcome as { result: { address: string; publicKey: string; signature: string } }).result;
    expect(r.address).toBe(id.emu.wallet.account('LTC')?.address);
    const text = identityPairingText({ origin: origins.id, address: r.address, nonce: 'abcdef0123456789' });
    expect(verifySignedMessage(LTC, r.address, text, r.signature)).toMatchObject({ ok: true });
  });

  it('disconnecting the site in the host sends accountsChanged [] and disconnect (4900)', async () => {
    const { page, frame } = await emulator(dappUrl(origins.dapp));
    await connect(page, frame, ['LTC']);
    await page.getByTestId('revoke').click();
    await frame.waitForFunction(() => window.seen.events.length >= 3);
    expect(await frame.evaluate(() => window.seen.events.slice(1))).toEqual([
      { name: 'accountsChanged', payload: [] },
      { name: 'disconnect', payload: { code: 4900, reason: 'HOST_DISCONNECTED' } },
    ]);
    expect(await call(frame, 'wallet_getBalance', { ticker: 'LKY' })).toMatchObject({
      code: 4100,
      reason: 'NOT_CONNECTED',
    });
  });
});
