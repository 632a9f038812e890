/**
 * The kit's wallet side against fake providers: provider discovery (global, announce event, ready event, none), the
 * provider's errors and events; the per-coin binding; the ticker table against the catalog. The API side: kit.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tickersSource } from '../../scripts/build-kits.ts';
import { KIT_TICKERS as CHAIN_TICKERS } from '../../src/crypto/chains.ts';
import { KitError, createSDK, isProviderError, KIT_COINS, KIT_TICKERS } from '../../src/kit/index.ts';
import type { CoinWalletProvider, KitWindow } from '../../src/kit/index.ts';
import { bindTicker } from '../../src/kit/sdk.ts';
import { BASE, coinsAnswer, fakeFetch, rejection } from './fakes.ts';

/** A fake provider: answers `wallet_connect` like the host (accounts for held coins), fails as told, emits events. */
function fakeProvider(o: { fail?: { code: number; message: string; data: { reason: string } } } = {}) {
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const calls: { method: string; params?: Record<string, unknown> }[] = [];
  const held = ['LTC', 'DOGE'];
  const provider: CoinWalletProvider = {
    isCoinWallet: true,
    async request(args) {
      calls.push(args);
      if (o.fail) throw Object.assign(new Error(o.fail.message), o.fail);
      if (args.method === 'wallet_connect') {
        const tickers = (args.params?.['tickers'] as string[]).filter((t) => held.includes(t));
        return {
          accounts: tickers.map((t) => ({
            ticker: t,
            address: `${t.toLowerCase()}-addr`,
            publicKey: `${t}-pk`,
          })),
          capabilities: Object.fromEntries(
            tickers.map((t) => [t, { methods: t === 'LTC' ? ['id_signMessage'] : [] }]),
          ),
        };
      }
      if (args.method === 'wallet_getBalance')
        return { ticker: 'LKY', confirmed: '1', unconfirmed: '0', total: '1' };
      throw Object.assign(new Error('unsupported'), { code: 4200, data: { reason: 'UNSUPPORTED_METHOD' } });
    },
    on(event, l) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)?.add(l);
      return provider;
    },
    removeListener(event, l) {
      listeners.get(event)?.delete(l);
      return provider;
    },
  };
  const emit = (event: string, payload: unknown) => listeners.get(event)?.forEach((l) => l(payload));
  return { provider, calls, emit };
}

/** A window without a provider: an EventTarget that answers `coinwallet:requestProvider` as `answer` says. */
function fakeWindow(answer: (win: EventTarget & { coinwallet?: unknown }) => void = () => undefined) {
  const win = new EventTarget() as EventTarget & { coinwallet?: unknown };
  win.addEventListener('coinwallet:requestProvider', () => answer(win));
  return win as unknown as KitWindow & EventTarget;
}

const INFO = { uuid: 'u-1', name: 'Coin Wallet', icon: 'data:image/svg+xml,', rdns: 'app.coinwallet' };

describe('connect and the provider', () => {
  it('uses window.coinwallet when it is there', async () => {
    const fp = fakeProvider();
    const win = fakeWindow();
    (win as { coinwallet?: unknown }).coinwallet = fp.provider;
    const r = await createSDK({ baseUrl: BASE, window: win }).connect(['LTC', 'LKY']);
    expect(fp.calls).toEqual([{ method: 'wallet_connect', params: { tickers: ['LTC', 'LKY'] } }]);
    expect(r).toEqual({
      accounts: [{ ticker: 'LTC', address: 'ltc-addr', publicKey: 'LTC-pk' }],
      capabilities: { LTC: { methods: ['id_signMessage'] } },
      wallet: null,
    });
  });

  it('an installed provider answers the request at once: its announcement (with info) wins over the global', async () => {
    const fp = fakeProvider();
    const win = fakeWindow((w) =>
      w.dispatchEvent(
        new CustomEvent('coinwallet:announceProvider', {
          detail: Object.freeze({ info: INFO, provider: fp.provider }),
        }),
      ),
    );
    (win as { coinwallet?: unknown }).coinwallet = fp.provider;
    const r = await createSDK({ baseUrl: BASE, window: win, discoveryTimeoutMs: 60_000 }).connect(['LTC']);
    expect(r.wallet).toEqual(INFO);
  });

  it('finds the provider through the announce event (coinwallet:requestProvider → announceProvider)', async () => {
    const fp = fakeProvider();
    const win = fakeWindow((w) =>
      w.dispatchEvent(
        new CustomEvent('coinwallet:announceProvider', {
          detail: Object.freeze({ info: INFO, provider: fp.provider }),
        }),
      ),
    );
    const sdk = createSDK({ baseUrl: BASE, window: win });
    expect(await sdk.getProvider()).toBe(fp.provider);
    const r = await sdk.connect(['DOGE']);
    expect(r.wallet).toEqual(INFO);
    expect(r.accounts).toEqual([{ ticker: 'DOGE', address: 'doge-addr', publicKey: 'DOGE-pk' }]);
  });

  it('waits for coinwallet#initialized (the provider finishing its handshake later)', async () => {
    const fp = fakeProvider();
    const win = fakeWindow();
    const sdk = createSDK({ baseUrl: BASE, window: win });
    const p = sdk.connect(['LTC']);
    setTimeout(() => {
      (win as { coinwallet?: unknown }).coinwallet = fp.provider;
      win.dispatchEvent(new Event('coinwallet#initialized'));
    }, 30);
    expect((await p).accounts).toHaveLength(1);
  });

  it('no provider: PROVIDER_NOT_AVAILABLE after the discovery wait, telling to use the dapp browser', async () => {
    vi.useFakeTimers();
    try {
      const sdk = createSDK({ baseUrl: BASE, window: fakeWindow() });
      const p = rejection(sdk.connect(['LTC']));
      await vi.advanceTimersByTimeAsync(1_500);
      const e = await p;
      expect(e).toMatchObject({ source: 'kit', code: 'PROVIDER_NOT_AVAILABLE' });
      expect(e.message).toMatch(/dapp browser/);
      expect(e.message).toMatch(/coinwallet dapp-browser/);
      // Not remembered: a provider that appears later is found by the next call.
      const fp = fakeProvider();
      const win2 = fakeWindow();
      const sdk2 = createSDK({ baseUrl: BASE, window: win2, discoveryTimeoutMs: 100 });
      const first = sdk2.getProvider();
      await vi.advanceTimersByTimeAsync(100);
      expect(await first).toBeNull();
      (win2 as { coinwallet?: unknown }).coinwallet = fp.provider;
      expect(await sdk2.getProvider()).toBe(fp.provider);
    } finally {
      vi.useRealTimers();
    }
    // In Node there is no window at all: an immediate answer.
    expect((await rejection(createSDK({ baseUrl: BASE }).connect(['LTC']))).code).toBe(
      'PROVIDER_NOT_AVAILABLE',
    );
  });

  it('a provider error is a KitError with the EIP-1193 code and data.reason', async () => {
    const fp = fakeProvider({
      fail: { code: 4001, message: 'the user rejected', data: { reason: 'USER_REJECTED' } },
    });
    const e = await rejection(createSDK({ baseUrl: BASE, provider: fp.provider }).connect(['LTC']));
    expect(e).toMatchObject({
      source: 'provider',
      code: 4001,
      reason: 'USER_REJECTED',
      message: 'the user rejected',
    });
    expect(isProviderError(e)).toBe(true);
    const unlisted = fakeProvider({
      fail: { code: 4100, message: 'not listed', data: { reason: 'DAPP_NOT_LISTED' } },
    });
    expect(
      await rejection(createSDK({ baseUrl: BASE, provider: unlisted.provider }).connect(['LTC'])),
    ).toMatchObject({ code: 4100, reason: 'DAPP_NOT_LISTED' });
  });

  it('refuses unknown tickers before asking the wallet; a malformed wallet answer is typed too', async () => {
    const fp = fakeProvider();
    const sdk = createSDK({ baseUrl: BASE, provider: fp.provider });
    expect((await rejection(sdk.connect([]))).code).toBe('INVALID_ARGUMENT');
    expect((await rejection(sdk.connect(['BTC' as 'LTC']))).code).toBe('INVALID_ARGUMENT');
    expect(fp.calls).toHaveLength(0);
    const bad: CoinWalletProvider = { ...fp.provider, request: async () => ({ accounts: 'nope' }) };
    expect(await rejection(createSDK({ baseUrl: BASE, provider: bad }).connect(['LTC']))).toMatchObject({
      source: 'provider',
      reason: 'BAD_RESULT',
    });
  });

  it('request passes methods through with typed results and mapped errors', async () => {
    const fp = fakeProvider();
    const sdk = createSDK({ baseUrl: BASE, provider: fp.provider });
    expect(await sdk.request('wallet_getBalance', { ticker: 'LKY' })).toEqual({
      ticker: 'LKY',
      confirmed: '1',
      unconfirmed: '0',
      total: '1',
    });
    expect(await rejection(sdk.request('id_connect', { nonce: 'n' }))).toMatchObject({
      source: 'provider',
      code: 4200,
      reason: 'UNSUPPORTED_METHOD',
    });
  });

  it('on: accountsChanged, connect and disconnect (as a KitError); unsubscribe stops delivery', async () => {
    const fp = fakeProvider();
    const sdk = createSDK({ baseUrl: BASE, provider: fp.provider });
    const seen: unknown[] = [];
    const off = sdk.on('accountsChanged', (a) => seen.push(a));
    sdk.on('disconnect', (e) => seen.push([e.code, e.reason, e instanceof KitError]));
    sdk.on('connect', (c) => seen.push(c.tickers));
    await sdk.getProvider();
    fp.emit('connect', { tickers: ['LTC'] });
    fp.emit('accountsChanged', [{ ticker: 'LTC', address: 'a', publicKey: 'p' }]);
    fp.emit('disconnect', { code: 4900, message: 'gone', data: { reason: 'HOST_DISCONNECTED' } });
    off();
    fp.emit('accountsChanged', []);
    expect(seen).toEqual([
      ['LTC'],
      [{ ticker: 'LTC', address: 'a', publicKey: 'p' }],
      [4900, 'HOST_DISCONNECTED', true],
    ]);
  });
});

describe('a per-coin kit (bindTicker)', () => {
  it('connects its coin only and resolves for it', async () => {
    const fp = fakeProvider();
    const { fetch, sent } = fakeFetch(() => ({
      body: { data: { nameResolution: { __typename: 'AddressNotLinked', name: 'alice.coin' } } },
    }));
    const sdk = bindTicker('DOGE')({ baseUrl: BASE, provider: fp.provider, fetch });
    expect(sdk.ticker).toBe('DOGE');
    expect(sdk.coin).toEqual({ ticker: 'DOGE', coinId: 'dogecoin', name: 'Dogecoin' });
    const c = await sdk.connect();
    expect(fp.calls[0]).toEqual({ method: 'wallet_connect', params: { tickers: ['DOGE'] } });
    expect(c.account).toEqual({ ticker: 'DOGE', address: 'doge-addr', publicKey: 'DOGE-pk' });
    expect(c.capability).toEqual({ methods: [] });
    expect(await sdk.resolve('alice.coin')).toEqual({
      status: 'address-not-linked',
      name: 'alice.coin',
      ticker: 'DOGE',
    });
    expect(sent[0]?.body.variables).toEqual({ name: 'alice.coin', asset: 'DOGE' });
  });

  it('account is null when the user holds no wallet for the coin; quote gives its prices', async () => {
    const fp = fakeProvider();
    const { fetch, sent } = fakeFetch((req) =>
      coinsAnswer({ luckycoin: req.body.variables?.['currency'] === 'usd' ? 0.5 : null }),
    );
    const sdk = bindTicker('LKY')({ baseUrl: BASE, provider: fp.provider, fetch });
    expect(await sdk.connect()).toMatchObject({ account: null, capability: null, accounts: [] });
    expect(await sdk.quote(['usd', 'eur'])).toEqual({ usd: 0.5, eur: null });
    expect(sent.map((s) => s.body.variables?.['ids'])).toEqual([['luckycoin'], ['luckycoin']]);
    const untracked = fakeFetch(() => coinsAnswer({}));
    const e = await rejection(bindTicker('LKY')({ baseUrl: BASE, fetch: untracked.fetch }).quote(['usd']));
    expect(e.code).toBe('COIN_NOT_TRACKED');
  });

  it('refuses a ticker outside the kit', () => {
    expect(() => bindTicker('SOL' as 'LTC')).toThrow(KitError);
  });
});

describe('the ticker table', () => {
  it('is the catalog’s 19 kit coins (src/kit/tickers.ts is current) and the chains’ tickers, in order', async () => {
    expect(readFileSync(join(import.meta.dirname, '..', '..', 'src', 'kit', 'tickers.ts'), 'utf8')).toBe(
      await tickersSource(),
    );
    expect(KIT_TICKERS).toEqual(CHAIN_TICKERS);
    expect(KIT_COINS.map((c) => c.ticker)).toEqual([...CHAIN_TICKERS]);
  });
});
