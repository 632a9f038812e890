/**
 * The kit: `createSDK(options)` of the complete kit (`@coinwallet/kit`), and `bindTicker(ticker)` from which every
 * per-coin kit (`@coinwallet/kit-<ticker>`) is generated (scripts/build-kits.ts). One implementation: the wallet
 * side (`connect`, `request`, `on`) talks to the provider `/provider.js` defines (docs/provider.md); the API side
 * (`resolve`, `price`) runs the kit's persisted documents on the router (docs/graph.md). docs/kit.md is the guide.
 */
import { KitError, kitError } from './errors.ts';
import { KitPriceDocument } from './generated/graphql.ts';
import type { FetchLike, TransportOptions } from './http.ts';
import { runPersisted } from './http.ts';
import { subscribeLive } from './live.ts';
import type { CoinWalletProvider, Discovered } from './provider.ts';
import {
  DEFAULT_DISCOVERY_TIMEOUT_MS,
  defaultWindow,
  discoverProvider,
  notAvailable,
  providerError,
} from './provider.ts';
import { pool } from './pool.ts';
import { resolveMany, resolveOne } from './resolve.ts';
import { KIT_COINS } from './tickers.ts';
import type { KitTicker } from './tickers.ts';
import type {
  Account,
  BaseSDK,
  CallOptions,
  Capability,
  CoinConnectResult,
  CoinSDK,
  CoinWalletSDK,
  ConnectResult,
  LivePrices,
  NameQuery,
  PriceResult,
  ProviderMethod,
  ProviderMethods,
  Resolution,
  ResolutionItem,
  SDKEvent,
  SDKEventPayload,
  SDKOptions,
  SubscribeOptions,
} from './types.ts';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RETRY_WAIT_MS = 30_000;
/** Ids per `KitPrice` call (the router prices a list by its page size: 100 keeps a keyless call affordable). */
export const PRICE_IDS_PER_CALL = 100;
/** Coins one `subscribePrices` may ask for (a free key's cap per stream: docs/plans-and-limits.md). */
export const LIVE_IDS_MAX = 100;
/** `KitPrice` calls in flight at once. */
const PRICE_CONCURRENCY = 4;

const TICKERS: ReadonlySet<string> = new Set(KIT_COINS.map((c) => c.ticker));
/** Prefixes of credentials that are not price-API keys (partner, session, operator): never in a kit. */
const NOT_API_KEYS = /^(cwp|cws|cwa)_/;

const invalid = (message: string): KitError => kitError('INVALID_ARGUMENT', message);

function checkTicker(t: unknown): asserts t is KitTicker {
  if (typeof t === 'string' && TICKERS.has(t)) return;
  const hint =
    typeof t === 'string' && TICKERS.has(t.toUpperCase())
      ? ` (tickers are uppercase: ${t.toUpperCase()})`
      : '';
  throw invalid(`unknown ticker ${JSON.stringify(t)}${hint}: one of ${[...TICKERS].join(' ')}`);
}

function checkName(name: unknown, where = ''): asserts name is string {
  if (typeof name !== 'string' || name.trim() === '')
    throw invalid(`${where}name must be a non-empty string such as alice.coin`);
}

function stringList(v: unknown, what: string): string[] {
  if (!Array.isArray(v) || v.length === 0) throw invalid(`${what} must be a non-empty array of strings`);
  for (const x of v) {
    if (typeof x !== 'string' || x.trim() === '')
      throw invalid(`${what} must hold non-empty strings, got ${JSON.stringify(x)}`);
  }
  return [...new Set(v as string[])];
}

function positive(v: number | undefined, def: number, what: string, min = 0): number {
  if (v === undefined) return def;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min)
    throw invalid(`${what} must be a number ≥ ${min}`);
  return v;
}

function transportOf(o: SDKOptions): TransportOptions {
  if (typeof o !== 'object' || o === null) throw invalid('createSDK needs options: { baseUrl, apiKey? }');
  let base: URL;
  try {
    base = new URL(o.baseUrl);
  } catch {
    throw invalid(
      `baseUrl must be the platform's http(s) URL, e.g. https://api.coinwallet.app; got ${JSON.stringify(o.baseUrl)}`,
    );
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw invalid('baseUrl must be an http(s) URL');
  if (o.apiKey !== undefined && (typeof o.apiKey !== 'string' || o.apiKey.trim() === '')) {
    throw invalid('apiKey must be a non-empty string (or left out)');
  }
  if (o.apiKey && NOT_API_KEYS.test(o.apiKey)) {
    throw invalid(
      'apiKey takes a price-API key only: partner credentials, session and operator tokens never go into a kit',
    );
  }
  const f: FetchLike | undefined =
    o.fetch ??
    (typeof globalThis.fetch === 'function' ? (globalThis.fetch.bind(globalThis) as FetchLike) : undefined);
  if (!f) throw invalid('no fetch: pass options.fetch (the global fetch needs a browser or Node ≥ 18)');
  return {
    baseUrl: `${base.origin}${base.pathname.replace(/\/+$/, '')}`,
    apiKey: o.apiKey,
    fetch: f,
    timeoutMs: positive(o.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs', 1),
    maxRetries: Math.floor(positive(o.maxRetries, DEFAULT_MAX_RETRIES, 'maxRetries')),
    maxRetryWaitMs: positive(o.maxRetryWaitMs, DEFAULT_MAX_RETRY_WAIT_MS, 'maxRetryWaitMs'),
  };
}

function accountsOf(v: unknown): Account<string>[] {
  if (!Array.isArray(v)) throw badWallet('accounts is not a list');
  return v.map((a: unknown) => {
    const o = (typeof a === 'object' && a !== null ? a : {}) as Record<string, unknown>;
    if (typeof o.ticker !== 'string' || typeof o.address !== 'string' || typeof o.publicKey !== 'string') {
      throw badWallet('an account lacks ticker, address or publicKey');
    }
    return { ticker: o.ticker, address: o.address, publicKey: o.publicKey };
  });
}

const badWallet = (why: string): KitError =>
  new KitError({
    source: 'provider',
    code: -32603,
    reason: 'BAD_RESULT',
    message: `the wallet's answer is malformed: ${why}`,
  });

/** The shared core: provider discovery, wallet calls, events and the API calls. */
class Core {
  readonly #opts: SDKOptions;
  readonly #transport: TransportOptions;
  #discovery: Promise<Discovered | null> | undefined;
  readonly #listeners = new Map<SDKEvent, Set<(payload: never) => void>>();
  #attached: CoinWalletProvider | undefined;

  constructor(opts: SDKOptions) {
    this.#transport = transportOf(opts);
    this.#opts = opts;
    positive(opts.discoveryTimeoutMs, 0, 'discoveryTimeoutMs');
  }

  discover(): Promise<Discovered | null> {
    if (!this.#discovery) {
      const given = this.#opts.provider;
      this.#discovery = given
        ? Promise.resolve({ provider: given, info: null })
        : discoverProvider(
            this.#opts.window ?? defaultWindow(),
            this.#opts.discoveryTimeoutMs ?? DEFAULT_DISCOVERY_TIMEOUT_MS,
          );
      // Not found now (the page may load the provider later): the next call looks again.
      void this.#discovery.then((d) => {
        if (d) this.#attach(d.provider);
        else this.#discovery = undefined;
      });
    }
    return this.#discovery;
  }

  async provider(): Promise<Discovered> {
    const d = await this.discover();
    if (!d) throw notAvailable();
    return d;
  }

  async request<M extends ProviderMethod>(
    method: M,
    params: ProviderMethods[M]['params'],
  ): Promise<ProviderMethods[M]['result']> {
    const { provider } = await this.provider();
    try {
      return (await provider.request({ method, params })) as ProviderMethods[M]['result'];
    } catch (err) {
      throw providerError(err);
    }
  }

  async connect<T extends KitTicker>(tickers: readonly T[]): Promise<ConnectResult<T>> {
    const list = stringList(tickers, 'tickers');
    list.forEach(checkTicker);
    const d = await this.provider();
    let raw: unknown;
    try {
      raw = await d.provider.request({ method: 'wallet_connect', params: { tickers: list } });
    } catch (err) {
      throw providerError(err);
    }
    const r = (typeof raw === 'object' && raw !== null ? raw : {}) as {
      accounts?: unknown;
      capabilities?: unknown;
    };
    const accounts = accountsOf(r.accounts) as Account<T>[];
    const caps = typeof r.capabilities === 'object' && r.capabilities !== null ? r.capabilities : {};
    const capabilities: Partial<Record<T, Capability>> = {};
    for (const [t, c] of Object.entries(caps as Record<string, unknown>)) {
      const methods = (c as { methods?: unknown } | null)?.methods;
      if (!Array.isArray(methods) || methods.some((m) => typeof m !== 'string'))
        throw badWallet(`capabilities.${t}`);
      capabilities[t as T] = { methods: [...(methods as string[])] };
    }
    return { accounts, capabilities, wallet: d.info };
  }

  on<E extends SDKEvent>(event: E, listener: (payload: SDKEventPayload<string>[E]) => void): () => void {
    if (event !== 'connect' && event !== 'accountsChanged' && event !== 'disconnect') {
      throw invalid(`unknown event ${JSON.stringify(event)}: connect, accountsChanged or disconnect`);
    }
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    const l = listener as (payload: never) => void;
    set.add(l);
    void this.discover().catch(() => undefined);
    return () => void set.delete(l);
  }

  #attach(p: CoinWalletProvider): void {
    if (this.#attached === p) return;
    this.#attached = p;
    const emit = (event: SDKEvent, payload: unknown) => {
      for (const l of this.#listeners.get(event) ?? []) {
        try {
          (l as (x: unknown) => void)(payload);
        } catch {
          // A listener's failure is its own; the others still run.
        }
      }
    };
    p.on('connect', (x) => emit('connect', x));
    p.on('accountsChanged', (x) => {
      try {
        emit('accountsChanged', accountsOf(x));
      } catch {
        // A malformed event is dropped.
      }
    });
    p.on('disconnect', (x) => emit('disconnect', providerError(x)));
  }

  async resolve<T extends KitTicker>(
    name: string,
    ticker: T,
    o: CallOptions | undefined,
  ): Promise<Resolution<T>> {
    checkName(name);
    checkTicker(ticker);
    return resolveOne(this.#transport, name, ticker, o);
  }

  async resolveMany<T extends KitTicker>(
    pairs: readonly NameQuery<T>[],
    o: CallOptions | undefined,
  ): Promise<ResolutionItem<T>[]> {
    if (!Array.isArray(pairs))
      throw invalid('resolve takes a name and a ticker, or an array of { name, ticker }');
    pairs.forEach((p: unknown, i) => {
      if (typeof p !== 'object' || p === null)
        throw invalid(`resolve: item ${i} must be { name, ticker }, got ${JSON.stringify(p)}`);
      checkName((p as NameQuery<T>).name, `item ${i}: `);
      checkTicker((p as NameQuery<T>).ticker);
    });
    return pairs.length === 0 ? [] : resolveMany(this.#transport, pairs, o);
  }

  async price<I extends string, V extends string>(
    ids: readonly I[],
    vsCurrencies: readonly V[],
    o: CallOptions | undefined,
  ): Promise<PriceResult<I, V>> {
    const idList = stringList(ids, 'ids') as I[];
    const vsList = stringList(vsCurrencies, 'vsCurrencies') as V[];
    const chunks: I[][] = [];
    for (let i = 0; i < idList.length; i += PRICE_IDS_PER_CALL)
      chunks.push(idList.slice(i, i + PRICE_IDS_PER_CALL));
    const calls = vsList.flatMap((currency) =>
      chunks.map((chunk) => async () => {
        const data = await runPersisted(
          this.#transport,
          KitPriceDocument,
          { ids: chunk, currency, first: chunk.length },
          o?.signal,
        );
        return { currency, edges: data.coins.edges };
      }),
    );
    const answers = await pool(calls, PRICE_CONCURRENCY);
    const prices = {} as { [K in I]: { [C in V]: number | null } };
    for (const id of idList) {
      const row = {} as { [C in V]: number | null };
      for (const vs of vsList) row[vs] = null;
      prices[id] = row;
    }
    const found = new Set<string>();
    for (const { currency, edges } of answers) {
      for (const { node } of edges) {
        const row = (prices as Record<string, Record<string, number | null>>)[node.id];
        if (!row) continue; // not asked for (the API answers only requested ids)
        found.add(node.id);
        row[currency] = typeof node.price === 'number' && Number.isFinite(node.price) ? node.price : null;
      }
    }
    return { prices, missing: idList.filter((id) => !found.has(id)) };
  }

  subscribePrices<I extends string>(
    ids: readonly I[],
    currency: string,
    onUpdate: (update: LivePrices<I>) => void,
    o: SubscribeOptions | undefined,
  ): () => void {
    const idList = stringList(ids, 'ids') as I[];
    if (idList.length > LIVE_IDS_MAX)
      throw invalid(`subscribePrices takes at most ${LIVE_IDS_MAX} ids; subscribe in several parts`);
    if (typeof currency !== 'string' || !/^[a-z0-9]{2,10}$/i.test(currency))
      throw invalid(
        `currency must be a code of the API's currencies such as usd, got ${JSON.stringify(currency)}`,
      );
    if (typeof onUpdate !== 'function') throw invalid('onUpdate must be a function');
    const opts = o ?? {};
    positive(opts.minRetryMs, 0, 'minRetryMs', 1);
    positive(opts.maxRetryMs, 0, 'maxRetryMs', 1);
    return subscribeLive(this.#transport, idList, currency.toLowerCase(), onUpdate, opts);
  }
}

function baseOf<T extends string>(core: Core): BaseSDK<T> {
  return {
    price: (ids, vsCurrencies, options) => core.price(ids, vsCurrencies, options),
    subscribePrices: (ids, currency, onUpdate, options) =>
      core.subscribePrices(ids, currency, onUpdate, options),
    getProvider: async () => (await core.discover())?.provider ?? null,
    request: (method, params) => core.request(method, params),
    on: (event, listener) =>
      core.on(event, listener as (payload: SDKEventPayload<string>[typeof event]) => void),
  };
}

/** The complete kit: every one of the 19 coins. */
export function createSDK(options: SDKOptions): CoinWalletSDK {
  const core = new Core(options);
  return Object.freeze({
    ...baseOf<KitTicker>(core),
    connect: <T extends KitTicker>(tickers: readonly T[]) => core.connect(tickers),
    resolve: (<T extends KitTicker>(
      a: string | readonly NameQuery<T>[],
      b?: T | CallOptions,
      c?: CallOptions,
    ) =>
      typeof a === 'string'
        ? core.resolve(a, b as T, c)
        : core.resolveMany(a, b as CallOptions | undefined)) as CoinWalletSDK['resolve'],
  });
}

/** The factory of a per-coin kit: its `createSDK`, bound to `ticker`. */
export function bindTicker<const T extends KitTicker>(ticker: T): (options: SDKOptions) => CoinSDK<T> {
  checkTicker(ticker);
  const coin = KIT_COINS.find((c) => c.ticker === ticker) as CoinSDK<T>['coin'];
  return (options: SDKOptions): CoinSDK<T> => {
    const core = new Core(options);
    return Object.freeze({
      ...baseOf<T>(core),
      ticker,
      coin,
      connect: async (): Promise<CoinConnectResult<T>> => {
        const r = await core.connect([ticker]);
        return {
          ...r,
          account: r.accounts.find((a) => a.ticker === ticker) ?? null,
          capability: r.capabilities[ticker] ?? null,
        };
      },
      resolve: ((name: string | readonly string[], o?: CallOptions) =>
        typeof name === 'string'
          ? core.resolve(name, ticker, o)
          : core.resolveMany(
              Array.isArray(name) ? name.map((n: string) => ({ name: n, ticker })) : (name as never),
              o,
            )) as CoinSDK<T>['resolve'],
      quote: async <const V extends string>(vsCurrencies: readonly V[], o?: CallOptions) => {
        const r = await core.price([coin.coinId], vsCurrencies, o);
        if (r.missing.length) {
          throw new KitError({
            source: 'api',
            code: 'COIN_NOT_TRACKED',
            status: 200,
            message: `the platform does not track ${coin.coinId} (${ticker})`,
          });
        }
        return r.prices[coin.coinId] as { [C in V]: number | null };
      },
    });
  };
}
