/// <reference lib="dom" />
/**
 * The wallet provider (`/provider.js`) and the dapp-browser emulator in real Chromium: a platform in process, the
 * fixture dapp (test/browser/fixtures/dapp.html, loading /provider.js from the platform), and one emulator per test.
 * This file: the script itself, the provider outside the wallet and with a native bridge, and inside the emulator its
 * definition and wallet_connect; the other methods are in provider-methods.e2e.ts (setup in provider-harness.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Account } from './provider-harness.ts';
import {
  call,
  connect,
  dappUrl,
  emulator,
  newPage,
  origins,
  platform,
  useProviderHarness,
  withPrompt,
} from './provider-harness.ts';

useProviderHarness();

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
});
