/**
 * The kit: `createSDK(options)` of the complete kit (`@coinwallet/kit`), and `bindTicker(ticker)` from which every
 * per-coin kit (`@coinwallet/kit-<ticker>`) is generated (scripts/build-kits.ts). One implementation: the wallet
 * side (`connect`, `request`, `on`: `wallet.ts`) talks to the provider `/provider.js` defines (docs/provider.md); the
 * API side (`resolve`, `price`: `api.ts`) runs the kit's persisted documents on the router (docs/graph.md).
 * docs/kit.md is the guide.
 */
import { ApiSide } from './api.ts';
import { KitError } from './errors.ts';
import { checkTicker, transportOf } from './options.ts';
import { KIT_COINS } from './tickers.ts';
import type { KitTicker } from './tickers.ts';
import type {
  BaseSDK,
  CallOptions,
  CoinConnectResult,
  CoinSDK,
  CoinWalletSDK,
  NameQuery,
  SDKEventPayload,
  SDKOptions,
} from './types.ts';
import { WalletSide } from './wallet.ts';

/** Both sides of one kit instance, its options checked (the transport's first, as a call would need them). */
interface Sides {
  wallet: WalletSide;
  api: ApiSide;
}

function sidesOf(options: SDKOptions): Sides {
  const api = new ApiSide(transportOf(options));
  return { wallet: new WalletSide(options), api };
}

function baseOf<T extends string>({ wallet, api }: Sides): BaseSDK<T> {
  return {
    price: (ids, vsCurrencies, options) => api.price(ids, vsCurrencies, options),
    subscribePrices: (ids, currency, onUpdate, options) =>
      api.subscribePrices(ids, currency, onUpdate, options),
    getProvider: async () => (await wallet.discover())?.provider ?? null,
    request: (method, params) => wallet.request(method, params),
    on: (event, listener) =>
      wallet.on(event, listener as (payload: SDKEventPayload<string>[typeof event]) => void),
  };
}

/** The complete kit: every one of the 19 coins. */
export function createSDK(options: SDKOptions): CoinWalletSDK {
  const sides = sidesOf(options);
  const { wallet, api } = sides;
  return Object.freeze({
    ...baseOf<KitTicker>(sides),
    connect: <T extends KitTicker>(tickers: readonly T[]) => wallet.connect(tickers),
    resolve: (<T extends KitTicker>(
      a: string | readonly NameQuery<T>[],
      b?: T | CallOptions,
      c?: CallOptions,
    ) =>
      typeof a === 'string'
        ? api.resolve(a, b as T, c)
        : api.resolveMany(a, b as CallOptions | undefined)) as CoinWalletSDK['resolve'],
  });
}

/** The factory of a per-coin kit: its `createSDK`, bound to `ticker`. */
export function bindTicker<const T extends KitTicker>(ticker: T): (options: SDKOptions) => CoinSDK<T> {
  checkTicker(ticker);
  const coin = KIT_COINS.find((c) => c.ticker === ticker) as CoinSDK<T>['coin'];
  return (options: SDKOptions): CoinSDK<T> => {
    const sides = sidesOf(options);
    const { wallet, api } = sides;
    return Object.freeze({
      ...baseOf<T>(sides),
      ticker,
      coin,
      connect: async (): Promise<CoinConnectResult<T>> => {
        const r = await wallet.connect([ticker]);
        return {
          ...r,
          account: r.accounts.find((a) => a.ticker === ticker) ?? null,
          capability: r.capabilities[ticker] ?? null,
        };
      },
      resolve: ((name: string | readonly string[], o?: CallOptions) =>
        typeof name === 'string'
          ? api.resolve(name, ticker, o)
          : api.resolveMany(
              Array.isArray(name) ? name.map((n: string) => ({ name: n, ticker })) : (name as never),
              o,
            )) as CoinSDK<T>['resolve'],
      quote: async <const V extends string>(vsCurrencies: readonly V[], o?: CallOptions) => {
        const r = await api.price([coin.coinId], vsCurrencies, o);
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
