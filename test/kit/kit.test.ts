/**
 * The kit (src/kit/) against a fake `fetch` and fake providers: persisted document ids only on the wire, typed
 * results with explicit nulls and `missing`, the three resolution outcomes, API errors as KitError, 429 honoured
 * with Retry-After (fake timers), timeouts and aborts; provider discovery (global, announce event, ready event, none)
 * and the provider's errors and events; the per-coin binding; the ticker table against the catalog.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse } from 'graphql';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tickersSource } from '../../scripts/build-kits.ts';
import { KIT_TICKERS as CHAIN_TICKERS } from '../../src/crypto/chains.ts';
import {
  KitError,
  createSDK,
  isApiError,
  isKitError,
  isProviderError,
  KIT_COINS,
  KIT_TICKERS,
} from '../../src/kit/index.ts';
import type { CoinWalletProvider, FetchLike, KitWindow, SDKOptions } from '../../src/kit/index.ts';
import { parseRetryAfter } from '../../src/kit/http.ts';
import { KIT_PERSISTED_DOCUMENTS_PATH } from '../../src/server/browser/kit-manifest.ts';
import { bindTicker } from '../../src/kit/sdk.ts';

const BASE = 'https://platform.test';
const manifest = JSON.parse(readFileSync(KIT_PERSISTED_DOCUMENTS_PATH, 'utf8')) as Record<string, string>;
/** Operation name → persisted id, from the generated manifest. */
const ids = new Map<string, string>();
for (const [id, body] of Object.entries(manifest))
  for (const d of parse(body).definitions)
    if (d.kind === Kind.OPERATION_DEFINITION && d.name) ids.set(d.name.value, id);

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: { documentId?: string; variables?: Record<string, unknown>; query?: unknown };
}

type Reply = { status?: number; headers?: Record<string, string>; body: unknown } | Error | 'hang';

/** A fake fetch: records requests; answers with `handler(request)` (a reply, an Error to throw, or 'hang'). */
function fakeFetch(handler: (req: Sent, n: number) => Reply): { fetch: FetchLike; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch: FetchLike = (url, init) => {
    const req: Sent = {
      url,
      method: init.method,
      headers: init.headers,
      body: JSON.parse(init.body) as Sent['body'],
    };
    sent.push(req);
    const r = handler(req, sent.length);
    if (r === 'hang') {
      return new Promise((_resolve, reject) => {
        init.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }
    if (r instanceof Error) return Promise.reject(r);
    const headers = new Map(Object.entries(r.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    return Promise.resolve({
      status: r.status ?? 200,
      headers: { get: (n: string) => headers.get(n.toLowerCase()) ?? null },
      text: () => Promise.resolve(typeof r.body === 'string' ? r.body : JSON.stringify(r.body)),
    });
  };
  return { fetch, sent };
}

/** A price answer: `quotes` id → price (in the request's currency; a function of the currency if needed). */
const coinsAnswer = (quotes: Record<string, number | null>) => ({
  body: {
    data: { coins: { edges: Object.entries(quotes).map(([id, price]) => ({ node: { id, price } })) } },
  },
});

const sdkWith = (fetch: FetchLike, o: Partial<SDKOptions> = {}) => createSDK({ baseUrl: BASE, fetch, ...o });

async function rejection(p: Promise<unknown>): Promise<KitError> {
  const e = await p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(KitError);
  return e as KitError;
}

describe('the persisted documents', () => {
  it('are the generated manifest: sha256 ids of the bodies, KitPrice and KitResolveName', () => {
    expect([...ids.keys()].sort()).toEqual(['KitPrice', 'KitResolveName']);
    for (const [id, body] of Object.entries(manifest)) {
      expect(id).toBe(`sha256:${createHash('sha256').update(body).digest('hex')}`);
    }
  });

  it('the kit imports no server code: only its own modules (and node:url in the Node-only manifest.ts)', () => {
    const dir = join(import.meta.dirname, '..', '..', 'src', 'kit');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'/g)) {
        const spec = m[1] as string;
        if (f === 'manifest.ts' && spec === 'node:url') continue;
        expect(spec, `${f} imports ${spec}`).toMatch(/^\.\/(?!\.)[\w/.-]+\.ts$/);
      }
    }
  });
});

describe('price', () => {
  it('sends only { documentId, variables } per currency and gives every id every currency, null when unquoted', async () => {
    const { fetch, sent } = fakeFetch((req) =>
      req.body.variables?.['currency'] === 'usd'
        ? coinsAnswer({ litecoin: 80.5, dogecoin: null })
        : coinsAnswer({ litecoin: 74.1, dogecoin: 0.11 }),
    );
    const sdk = sdkWith(fetch, { apiKey: 'k3y' });
    const r = await sdk.price(['litecoin', 'dogecoin', 'no-such-coin'], ['usd', 'eur']);
    expect(r).toEqual({
      prices: {
        litecoin: { usd: 80.5, eur: 74.1 },
        dogecoin: { usd: null, eur: 0.11 },
        'no-such-coin': { usd: null, eur: null },
      },
      missing: ['no-such-coin'],
    });
    expect(sent).toHaveLength(2);
    for (const s of sent) {
      expect(s.url).toBe(`${BASE}/graphql`);
      expect(s.method).toBe('POST');
      expect(s.headers).toMatchObject({ 'content-type': 'application/json', 'x-sp-api-key': 'k3y' });
      expect(Object.keys(s.body).sort()).toEqual(['documentId', 'variables']);
      expect(s.body.documentId).toBe(ids.get('KitPrice'));
    }
    expect(sent.map((s) => s.body.variables)).toEqual([
      { ids: ['litecoin', 'dogecoin', 'no-such-coin'], currency: 'usd', first: 3 },
      { ids: ['litecoin', 'dogecoin', 'no-such-coin'], currency: 'eur', first: 3 },
    ]);
  });

  it('sends no key header when keyless, trims the base URL, and splits long id lists in calls of 100', async () => {
    const { fetch, sent } = fakeFetch(() => coinsAnswer({}));
    const many = Array.from({ length: 230 }, (_, i) => `coin-${i}`);
    const r = await createSDK({ baseUrl: `${BASE}/`, fetch }).price(many, ['usd']);
    expect(sent.map((s) => (s.body.variables?.['ids'] as string[]).length)).toEqual([100, 100, 30]);
    expect(sent[0]?.url).toBe(`${BASE}/graphql`);
    expect(sent[0]?.headers['x-sp-api-key']).toBeUndefined();
    expect(r.missing).toHaveLength(230);
    expect(r.prices['coin-7']).toEqual({ usd: null });
  });

  it('refuses bad arguments before any call', async () => {
    const { fetch, sent } = fakeFetch(() => coinsAnswer({}));
    const sdk = sdkWith(fetch);
    expect((await rejection(sdk.price([], ['usd']))).code).toBe('INVALID_ARGUMENT');
    expect((await rejection(sdk.price(['litecoin'], []))).code).toBe('INVALID_ARGUMENT');
    expect((await rejection(sdk.price([''], ['usd']))).code).toBe('INVALID_ARGUMENT');
    expect(sent).toHaveLength(0);
  });
});

describe('resolve', () => {
  /** The API's answer: `nameResolution`, one member of its union (typed by `__typename`). */
  const answer = (nameResolution: unknown) => ({ body: { data: { nameResolution } } });

  it('asks one field, nameResolution, with the members it handles (the persisted KitResolveName body)', () => {
    const body = manifest[ids.get('KitResolveName') ?? ''] ?? '';
    const op = parse(body).definitions[0];
    const roots = op?.kind === Kind.OPERATION_DEFINITION ? op.selectionSet.selections : [];
    expect(roots.map((r) => (r.kind === Kind.FIELD ? r.name.value : r.kind))).toEqual(['nameResolution']);
    for (const member of ['NameResolution', 'NameNotFound', 'AddressNotLinked'])
      expect(body).toContain(`... on ${member} {`);
    expect(body).toContain('__typename');
  });

  it('found: the address, with the persisted KitResolveName id and { name, asset }', async () => {
    const { fetch, sent } = fakeFetch(() =>
      answer({
        __typename: 'NameResolution',
        name: 'alice.coin',
        address: 'ltc1qxyz',
        updatedAt: '2026-01-01T00:00:00.000Z',
      }),
    );
    const r = await sdkWith(fetch).resolve('Alice.coin', 'LTC');
    expect(r).toEqual({
      status: 'found',
      name: 'alice.coin',
      ticker: 'LTC',
      address: 'ltc1qxyz',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(sent[0]?.body).toEqual({
      documentId: ids.get('KitResolveName'),
      variables: { name: 'Alice.coin', asset: 'LTC' },
    });
  });

  it('name-not-found and address-not-linked from the typename, never undefined; names as the API gives them', async () => {
    const notFound = fakeFetch(() => answer({ __typename: 'NameNotFound', name: 'ghost.coin' }));
    expect(await sdkWith(notFound.fetch).resolve(' Ghost.coin', 'DOGE')).toEqual({
      status: 'name-not-found',
      name: 'ghost.coin',
      ticker: 'DOGE',
    });
    const notLinked = fakeFetch(() => answer({ __typename: 'AddressNotLinked', name: 'alice.coin' }));
    expect(await sdkWith(notLinked.fetch).resolve('alice.coin', 'DOGE')).toEqual({
      status: 'address-not-linked',
      name: 'alice.coin',
      ticker: 'DOGE',
    });
  });

  it('a member it does not know (a newer API), or null without an error, is BAD_RESPONSE', async () => {
    const newer = fakeFetch(() => answer({ __typename: 'NameSuspended' }));
    const e = await rejection(sdkWith(newer.fetch).resolve('alice.coin', 'LTC'));
    expect(e).toMatchObject({ source: 'kit', code: 'BAD_RESPONSE' });
    expect(e.message).toMatch(/NameSuspended/);
    const empty = fakeFetch(() => answer(null));
    expect(await rejection(sdkWith(empty.fetch).resolve('alice.coin', 'LTC'))).toMatchObject({
      source: 'kit',
      code: 'BAD_RESPONSE',
    });
  });

  it('refuses an unknown or lowercase ticker and an empty name', async () => {
    const { fetch, sent } = fakeFetch(() => answer(null));
    const sdk = sdkWith(fetch);
    const lower = await rejection(sdk.resolve('alice.coin', 'ltc' as 'LTC'));
    expect(lower).toMatchObject({ source: 'kit', code: 'INVALID_ARGUMENT' });
    expect(lower.message).toMatch(/uppercase: LTC/);
    expect((await rejection(sdk.resolve('alice.coin', 'SOL' as 'LTC'))).code).toBe('INVALID_ARGUMENT');
    expect((await rejection(sdk.resolve(' ', 'LTC'))).code).toBe('INVALID_ARGUMENT');
    expect(sent).toHaveLength(0);
  });
});

describe('API errors', () => {
  it('a GraphQL error is a KitError with extensions.code and the HTTP status', async () => {
    const { fetch } = fakeFetch(() => ({
      status: 200,
      body: {
        data: null,
        errors: [
          {
            message: 'name must end in .coin',
            path: ['nameResolution'],
            extensions: { code: 'INVALID_NAME', http: { status: 400 } },
          },
        ],
      },
    }));
    const e = await rejection(sdkWith(fetch).resolve('bad', 'LTC'));
    expect(e).toMatchObject({
      source: 'api',
      code: 'INVALID_NAME',
      status: 400,
      message: 'name must end in .coin',
    });
    expect(isApiError(e) && isKitError(e) && !isProviderError(e)).toBe(true);
  });

  it('an error beside partial data still fails; HTTP errors without a body and non-JSON answers are typed', async () => {
    const partial = fakeFetch(() => ({
      body: {
        data: { coins: null },
        errors: [{ message: 'unsupported', extensions: { code: 'INVALID_CURRENCY' } }],
      },
    }));
    expect(await rejection(sdkWith(partial.fetch).price(['litecoin'], ['xyz']))).toMatchObject({
      source: 'api',
      code: 'INVALID_CURRENCY',
      status: 200,
    });
    const gateway = fakeFetch(() => ({ status: 502, body: '<html>bad gateway</html>' }));
    expect(await rejection(sdkWith(gateway.fetch).price(['litecoin'], ['usd']))).toMatchObject({
      source: 'api',
      code: 'HTTP_502',
      status: 502,
    });
    const html = fakeFetch(() => ({ status: 200, body: '<html>a page</html>' }));
    expect(await rejection(sdkWith(html.fetch).price(['litecoin'], ['usd']))).toMatchObject({
      source: 'kit',
      code: 'BAD_RESPONSE',
    });
    const key = fakeFetch(() => ({
      status: 401,
      body: { errors: [{ message: 'the API key is pending', extensions: { code: 'API_KEY_PENDING' } }] },
    }));
    expect(await rejection(sdkWith(key.fetch, { apiKey: 'abc' }).price(['x'], ['usd']))).toMatchObject({
      code: 'API_KEY_PENDING',
      status: 401,
    });
  });

  it('network failures, timeouts and aborts', async () => {
    const down = fakeFetch(() => new TypeError('fetch failed'));
    expect((await rejection(sdkWith(down.fetch).price(['litecoin'], ['usd']))).code).toBe('NETWORK_ERROR');
    const slow = fakeFetch(() => 'hang');
    const t = await rejection(sdkWith(slow.fetch, { timeoutMs: 20 }).price(['litecoin'], ['usd']));
    expect(t).toMatchObject({ source: 'kit', code: 'TIMEOUT' });
    const ctl = new AbortController();
    const p = sdkWith(slow.fetch).resolve('alice.coin', 'LTC', { signal: ctl.signal });
    ctl.abort();
    expect((await rejection(p)).code).toBe('ABORTED');
  });

  it('refuses partner credentials and tokens as apiKey, and a base URL that is no http(s) URL', () => {
    const { fetch } = fakeFetch(() => coinsAnswer({}));
    for (const apiKey of ['cwp_secret', 'cws_session', 'cwa_operator']) {
      expect(() => createSDK({ baseUrl: BASE, fetch, apiKey })).toThrow(/price-API key only/);
    }
    expect(() => createSDK({ baseUrl: 'platform.test', fetch })).toThrow(KitError);
    expect(() => createSDK({ baseUrl: 'ftp://platform.test', fetch })).toThrow(/http/);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe('429 and Retry-After', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const limited = (retryAfter: string | null) => ({
    status: 429,
    headers: retryAfter === null ? {} : { 'retry-after': retryAfter },
    body: {
      errors: [{ message: 'rate limited', extensions: { code: 'RATE_LIMITED', http: { status: 429 } } }],
    },
  });

  it('waits Retry-After before retrying, then returns the answer', async () => {
    const { fetch, sent } = fakeFetch((_req, n) => (n === 1 ? limited('2') : coinsAnswer({ litecoin: 80 })));
    const p = sdkWith(fetch).price(['litecoin'], ['usd']);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
    expect(await p).toEqual({ prices: { litecoin: { usd: 80 } }, missing: [] });
  });

  it('gives up after maxRetries with RATE_LIMITED and retryAfterMs', async () => {
    const { fetch, sent } = fakeFetch(() => limited('1'));
    const p = rejection(sdkWith(fetch, { maxRetries: 2 }).price(['litecoin'], ['usd']));
    await vi.advanceTimersByTimeAsync(2_000);
    const e = await p;
    expect(sent).toHaveLength(3);
    expect(e).toMatchObject({ source: 'api', code: 'RATE_LIMITED', status: 429, retryAfterMs: 1000 });
  });

  it('does not wait longer than maxRetryWaitMs, and backs off 1 s, 2 s without a Retry-After', async () => {
    const long = fakeFetch(() => limited('120'));
    const e = await rejection(sdkWith(long.fetch).price(['litecoin'], ['usd']));
    expect(long.sent).toHaveLength(1);
    expect(e.retryAfterMs).toBe(120_000);

    const bare = fakeFetch((_req, n) => (n < 3 ? limited(null) : coinsAnswer({ litecoin: 1 })));
    const p = sdkWith(bare.fetch).price(['litecoin'], ['usd']);
    await vi.advanceTimersByTimeAsync(999);
    expect(bare.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(bare.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(bare.sent).toHaveLength(3);
    expect((await p).prices.litecoin.usd).toBe(1);
  });

  it('with maxRetries 0 the first 429 is thrown', async () => {
    const { fetch, sent } = fakeFetch(() => limited('1'));
    const e = await rejection(sdkWith(fetch, { maxRetries: 0 }).resolve('a.coin', 'LTC'));
    expect(sent).toHaveLength(1);
    expect(e.code).toBe('RATE_LIMITED');
  });
});

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
