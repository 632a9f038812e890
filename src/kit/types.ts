/**
 * The kits' public types: options, results, events and the wallet methods. Shared by the complete kit
 * (`@coinwallet/kit`) and the per-coin kits (`@coinwallet/kit-<ticker>`).
 */
import type { FetchLike } from './http.ts';
import type { CoinWalletProvider, KitWindow, ProviderInfo } from './provider.ts';
import type { KitError } from './errors.ts';
import type { KitCoin, KitTicker } from './tickers.ts';

export type { FetchLike, ResponseLike } from './http.ts';
export type { CoinWalletProvider, KitWindow, ProviderInfo } from './provider.ts';
export type { KitCoin, KitTicker } from './tickers.ts';

export interface SDKOptions {
  /**
   * The platform's origin (with a path prefix if it is mounted under one), e.g. `https://api.coinwallet.app`; the
   * router is `${baseUrl}/graphql`. Needed by `resolve` and `price`.
   */
  baseUrl: string;
  /**
   * Your price-API key, sent as `x-sp-api-key` with every API call (without one you are keyless: lower limits).
   * Only API keys: partner credentials (`cwp_…`), session tokens (`cws_…`) and operator tokens (`cwa_…`) are refused,
   * they never belong in a kit. A key in a browser bundle is public: use a key for browsers, or call from your server.
   */
  apiKey?: string | undefined;
  /** Default: the global `fetch` (browsers, Node ≥ 18). */
  fetch?: FetchLike | undefined;
  /** Use this provider instead of discovering one (tests, custom hosts). */
  provider?: CoinWalletProvider | undefined;
  /** The window to discover the provider in; default the global one (none in Node). */
  window?: KitWindow | undefined;
  /** Per API attempt; default 10 000 ms. */
  timeoutMs?: number | undefined;
  /** Retries of a 429 (after its `Retry-After`); default 2. */
  maxRetries?: number | undefined;
  /** A 429 asking to wait longer than this is not retried (the error carries `retryAfterMs`); default 30 000 ms. */
  maxRetryWaitMs?: number | undefined;
  /** How long `connect` waits for the provider to announce itself; default 1 500 ms. */
  discoveryTimeoutMs?: number | undefined;
}

/** An account the wallet shares with the dapp (one per connected coin the user holds). */
export interface Account<T extends string = KitTicker> {
  ticker: T;
  address: string;
  publicKey: string;
}

/** Per connected coin the user holds: the wallet methods that work for it (docs/provider.md §4). */
export interface Capability {
  methods: string[];
}

export interface ConnectResult<T extends string = KitTicker> {
  /** Accounts for the requested coins the user holds a wallet for (possibly none). */
  accounts: Account<T>[];
  /** Keyed by ticker; a coin the user does not hold has no entry. */
  capabilities: Partial<Record<T, Capability>>;
  /** The provider's announcement info, when it announced itself. */
  wallet: ProviderInfo | null;
}

/** `connect()` of a per-coin kit: the one account (or null when the user holds no wallet for the coin). */
export interface CoinConnectResult<T extends KitTicker> extends ConnectResult<T> {
  account: Account<T> | null;
  capability: Capability | null;
}

/** `resolve`: the three outcomes of a well-formed lookup (a malformed name or ticker is a {@link KitError}). */
export type Resolution<T extends string = KitTicker> =
  | { status: 'found'; name: string; ticker: T; address: string; updatedAt: string }
  /** No such name, or a private one (the API does not tell them apart). */
  | { status: 'name-not-found'; name: string; ticker: T }
  /** The name exists but has no address for this coin. */
  | { status: 'address-not-linked'; name: string; ticker: T };

/** One pair of `resolve(list)`. */
export interface NameQuery<T extends string = KitTicker> {
  name: string;
  ticker: T;
}

/**
 * An item of `resolve(list)`: a {@link Resolution}, or `invalid` when the API refused the pair as malformed (its code,
 * `INVALID_NAME` or `INVALID_PARAMETER`, and message); the other items of the list answer regardless.
 */
export type ResolutionItem<T extends string = KitTicker> =
  Resolution<T> | { status: 'invalid'; name: string; ticker: T; code: string; message: string };

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

/**
 * `price(ids, vsCurrencies)`: every requested id has an entry with every requested currency; a quote the platform
 * cannot give (no eligible ticker, no rate for the currency) is `null`, never absent. Ids the platform does not track
 * are listed in `missing` (and their quotes are `null`).
 */
export interface PriceResult<I extends string = string, V extends string = string> {
  prices: { [K in I]: { [C in V]: number | null } };
  missing: I[];
}

export type SDKEvent = 'connect' | 'accountsChanged' | 'disconnect';
export interface SDKEventPayload<T extends string = KitTicker> {
  connect: { tickers: T[] };
  accountsChanged: Account<T>[];
  disconnect: KitError;
}

/** The wallet methods (docs/provider.md §4) with their params and results, for `request`. */
export interface ProviderMethods {
  wallet_connect: {
    params: { tickers: string[] };
    result: { accounts: Account<string>[]; capabilities: Record<string, Capability> };
  };
  wallet_getBalance: {
    params: { ticker: string };
    result: { ticker: string; confirmed: string; unconfirmed: string; total: string };
  };
  wallet_signMessage: {
    params: { ticker: string; message: string };
    result: { publicKey: string; signature: string };
  };
  wallet_signTransaction: {
    params: { ticker: string; transaction: string };
    result: { publicKey: string; signature: string };
  };
  wallet_sendTransaction: {
    params: { ticker: string; kind: 'bridge-deposit'; to: string; amount: string };
    result: { txid: string };
  };
  id_signMessage: { params: { message: string }; result: { address: string; signature: string } };
  id_connect: { params: { nonce: string }; result: { address: string; publicKey: string } };
}
export type ProviderMethod = keyof ProviderMethods;

/** What the complete kit and the per-coin kits have in common. */
export interface BaseSDK<T extends string> {
  /**
   * Coin prices by the platform's coin ids (`litecoin`, `dogecoin`, … — `KIT_COINS[i].coinId`), in one or more
   * quote currencies (`usd`, `eur`, `btc`, … — any code of the API's `currencies`). One API call per currency.
   */
  price<const I extends string, const V extends string>(
    ids: readonly I[],
    vsCurrencies: readonly V[],
    options?: CallOptions,
  ): Promise<PriceResult<I, V>>;
  /**
   * Live prices of coins (by id, 1–100) in one quote currency (`usd`, `eur`, `btc`, …), pushed once per engine
   * tick when they changed (GraphQL over SSE). Reconnects with backoff by itself; returns the unsubscribe function.
   */
  subscribePrices<const I extends string>(
    ids: readonly I[],
    currency: string,
    onUpdate: (update: LivePrices<I>) => void,
    options?: SubscribeOptions,
  ): () => void;
  /** The wallet's provider, discovered once (waits up to `discoveryTimeoutMs`); null outside Coin Wallet. */
  getProvider(): Promise<CoinWalletProvider | null>;
  /** A wallet method, with the provider's errors as {@link KitError}s. */
  request<M extends ProviderMethod>(
    method: M,
    params: ProviderMethods[M]['params'],
  ): Promise<ProviderMethods[M]['result']>;
  /** Subscribes to a provider event; returns the unsubscribe function. Listens once a provider is found. */
  on<E extends SDKEvent>(event: E, listener: (payload: SDKEventPayload<T>[E]) => void): () => void;
}

/** One coin's live figures in the subscription's currency (nulls as in `price`: no quote, no history, …). */
export interface LivePrice {
  price: number | null;
  /** Change over 24 hours in percent. */
  change24h: number | null;
  /** Confidence in the price, in [0, 1]. */
  confidence: number | null;
  /** ISO 8601 time of the newest eligible ticker. */
  updatedAt: string | null;
}

/** What `subscribePrices` hands to its listener on every event. */
export interface LivePrices<I extends string> {
  currency: string;
  /** The latest figures of every coin heard of so far (an id the platform does not track never appears). */
  prices: { [K in I]?: LivePrice };
  /** The coins this event changed: every tracked coin on the first event of each connection. */
  changed: I[];
}

export interface SubscribeOptions {
  /** The subscription stopped for good: a refused key, a bad argument, a plan's cap (retrying would not help). */
  onError?: (error: KitError) => void;
  /** The stream was lost (or the API asked to wait) and is opened again after `waitMs`. */
  onRetry?: (waitMs: number) => void;
  /** First wait before reconnecting, doubled on each failure in a row; default 1 000. */
  minRetryMs?: number;
  /** Longest wait between reconnections; default 30 000. */
  maxRetryMs?: number;
}

/** The complete kit (`@coinwallet/kit`): the 19 coins. */
export interface CoinWalletSDK extends BaseSDK<KitTicker> {
  /** Asks the wallet to connect the dapp for these coins (the user approves once per site). */
  connect<const T extends KitTicker>(tickers: readonly T[]): Promise<ConnectResult<T>>;
  /** The address `name` (e.g. `alice.coin`) has linked for the coin. */
  resolve<const T extends KitTicker>(name: string, ticker: T, options?: CallOptions): Promise<Resolution<T>>;
  /**
   * Many names at once, in the order given: one API request per 100 pairs (at most 4 in flight). A malformed name is
   * its own `invalid` item; an empty list answers `[]` without a request.
   */
  resolve<const T extends KitTicker>(
    names: readonly NameQuery<T>[],
    options?: CallOptions,
  ): Promise<ResolutionItem<T>[]>;
}

/** A per-coin kit (`@coinwallet/kit-<ticker>`): the same API, bound to its coin. */
export interface CoinSDK<T extends KitTicker> extends BaseSDK<T> {
  readonly ticker: T;
  readonly coin: Extract<KitCoin, { ticker: T }>;
  connect(): Promise<CoinConnectResult<T>>;
  resolve(name: string, options?: CallOptions): Promise<Resolution<T>>;
  /** Many names for this coin at once, in the order given (see {@link CoinWalletSDK.resolve}). */
  resolve(names: readonly string[], options?: CallOptions): Promise<ResolutionItem<T>[]>;
  /** This coin's price in each currency (`null`: no quote). */
  quote<const V extends string>(
    vsCurrencies: readonly V[],
    options?: CallOptions,
  ): Promise<{ [C in V]: number | null }>;
}
