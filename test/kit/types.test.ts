/**
 * Type tests of the kits' public surface: `expectTypeOf` assertions and `@ts-expect-error` misuse, checked by
 * `npx tsc --noEmit` (this file is in the root program); the bodies never run (`typeOnly`). The built
 * packages' declarations are checked the same way by test/kit/build.e2e.ts (a consumer compiled against them).
 */
import { describe, expectTypeOf, it } from 'vitest';
import { createSDK, isApiError, isProviderError, KitError } from '../../src/kit/index.ts';
import type { KIT_COINS } from '../../src/kit/index.ts';
import type {
  Account,
  CoinConnectResult,
  CoinSDK,
  CoinWalletProvider,
  ConnectResult,
  KitErrorCode,
  KitTicker,
  LivePrice,
  LivePrices,
  PriceResult,
  Resolution,
  ResolutionItem,
  SDKOptions,
} from '../../src/kit/index.ts';
import { bindTicker } from '../../src/kit/sdk.ts';

/** The assertions are for the compiler: the body is type-checked, never run (misuse lines would throw). */
const typeOnly = (_body: () => void): void => undefined;

const sdk = createSDK({ baseUrl: 'https://platform.test' });
const ltc = bindTicker('LTC')({ baseUrl: 'https://platform.test' });

describe('kit types', () => {
  it('createSDK takes the options and gives the complete kit', () => {
    typeOnly(() => {
      expectTypeOf(createSDK).parameter(0).toEqualTypeOf<SDKOptions>();
      expectTypeOf<SDKOptions['baseUrl']>().toEqualTypeOf<string>();
      expectTypeOf<SDKOptions['apiKey']>().toEqualTypeOf<string | undefined>();
      // @ts-expect-error baseUrl is required
      createSDK({ apiKey: 'k' });
      // @ts-expect-error there is no partner-credential option
      createSDK({ baseUrl: 'https://p.test', partnerSecret: 'cwp_x' });
    });
  });

  it('connect: the 19 tickers only, results keyed by the requested tickers', () => {
    typeOnly(() => {
      expectTypeOf(sdk.connect(['LTC', 'DOGE'])).resolves.toEqualTypeOf<ConnectResult<'LTC' | 'DOGE'>>();
      expectTypeOf<ConnectResult<'LTC'>['accounts']>().toEqualTypeOf<Account<'LTC'>[]>();
      expectTypeOf<Account<'LTC'>['ticker']>().toEqualTypeOf<'LTC'>();
      expectTypeOf<ConnectResult<'LTC'>['capabilities']>().toEqualTypeOf<
        Partial<Record<'LTC', { methods: string[] }>>
      >();
      // @ts-expect-error BTC is not a kit coin
      void sdk.connect(['BTC']);
      // @ts-expect-error tickers are uppercase
      void sdk.connect(['ltc']);
      // @ts-expect-error a list, not one ticker
      void sdk.connect('LTC');
      expectTypeOf<KitTicker>().toEqualTypeOf<(typeof KIT_COINS)[number]['ticker']>();
      expectTypeOf<'B1T'>().toExtend<KitTicker>();
    });
  });

  it('resolve: a discriminated union, never undefined', () => {
    typeOnly(() => {
      const r = sdk.resolve('alice.coin', 'DOGE');
      expectTypeOf(r).resolves.toEqualTypeOf<Resolution<'DOGE'>>();
      expectTypeOf<Resolution['status']>().toEqualTypeOf<'found' | 'name-not-found' | 'address-not-linked'>();
      expectTypeOf<Resolution<'LTC'>>().not.toExtend<undefined>();
      const narrow = (x: Resolution<'LTC'>) => {
        if (x.status === 'found') expectTypeOf(x.address).toEqualTypeOf<string>();
        // @ts-expect-error only a found resolution has an address
        else void x.address;
      };
      void narrow;
      // @ts-expect-error the ticker is required in the complete kit
      void sdk.resolve('alice.coin');
      // @ts-expect-error SOL is not one of the 19 kit coins
      void sdk.resolve('alice.coin', 'SOL');
    });
  });

  it('resolve of a list: one item per pair, each a resolution or invalid, tickers kept', () => {
    typeOnly(() => {
      const r = sdk.resolve([
        { name: 'alice.coin', ticker: 'LTC' },
        { name: 'bob.coin', ticker: 'DOGE' },
      ]);
      expectTypeOf(r).resolves.toEqualTypeOf<ResolutionItem<'LTC' | 'DOGE'>[]>();
      expectTypeOf<ResolutionItem['status']>().toEqualTypeOf<
        'found' | 'name-not-found' | 'address-not-linked' | 'invalid'
      >();
      const narrow = (x: ResolutionItem<'LTC'>) => {
        if (x.status === 'invalid') expectTypeOf(x.code).toEqualTypeOf<string>();
      };
      void narrow;
      // @ts-expect-error a list takes no separate ticker
      void sdk.resolve([{ name: 'alice.coin', ticker: 'LTC' }], 'LTC');
      // @ts-expect-error SOL is not one of the 19 kit coins
      void sdk.resolve([{ name: 'alice.coin', ticker: 'SOL' }]);
      expectTypeOf(ltc.resolve(['alice.coin', 'bob.coin'])).resolves.toEqualTypeOf<ResolutionItem<'LTC'>[]>();
    });
  });

  it('price: every id and currency present, number | null, and missing ids', () => {
    typeOnly(() => {
      const p = sdk.price(['litecoin', 'dogecoin'], ['usd', 'eur']);
      expectTypeOf(p).resolves.toEqualTypeOf<PriceResult<'litecoin' | 'dogecoin', 'usd' | 'eur'>>();
      expectTypeOf<PriceResult<'litecoin', 'usd'>['prices']['litecoin']['usd']>().toEqualTypeOf<
        number | null
      >();
      expectTypeOf<PriceResult<'litecoin', 'usd'>['missing']>().toEqualTypeOf<'litecoin'[]>();
      // @ts-expect-error an id that was not asked for is not in the result
      type _NotAsked = PriceResult<'litecoin', 'usd'>['prices']['dogecoin'];
      // @ts-expect-error currencies are a list
      void sdk.price(['litecoin'], 'usd');
      // @ts-expect-error ids are strings
      void sdk.price([1], ['usd']);
      void sdk.price(['litecoin'], ['usd'], { signal: new AbortController().signal });
    });
  });

  it('subscribePrices: typed updates keyed by the ids asked, an unsubscribe function', () => {
    typeOnly(() => {
      const stop = sdk.subscribePrices(['litecoin', 'dogecoin'], 'usd', (u) => {
        expectTypeOf(u).toEqualTypeOf<LivePrices<'litecoin' | 'dogecoin'>>();
        expectTypeOf(u.prices.litecoin).toEqualTypeOf<LivePrice | undefined>();
        expectTypeOf(u.changed).toEqualTypeOf<('litecoin' | 'dogecoin')[]>();
        // @ts-expect-error a coin that was not asked for
        void u.prices.bitcoin;
      });
      expectTypeOf(stop).toEqualTypeOf<() => void>();
      // @ts-expect-error one currency, not a list
      void sdk.subscribePrices(['litecoin'], ['usd'], () => undefined);
      void sdk.subscribePrices(['litecoin'], 'eur', () => undefined, {
        onError: (e: KitError) => void e.code,
      });
    });
  });

  it('request, on, getProvider', () => {
    typeOnly(() => {
      expectTypeOf(sdk.request('wallet_getBalance', { ticker: 'LKY' })).resolves.toEqualTypeOf<{
        ticker: string;
        confirmed: string;
        unconfirmed: string;
        total: string;
      }>();
      expectTypeOf(
        sdk.request('wallet_sendTransaction', {
          ticker: 'LKY',
          kind: 'bridge-deposit',
          to: 'L',
          amount: '1',
        }),
      ).resolves.toEqualTypeOf<{ txid: string }>();
      // @ts-expect-error unknown method
      void sdk.request('eth_sendTransaction', {});
      // @ts-expect-error wrong params
      void sdk.request('wallet_getBalance', { coin: 'LKY' });
      sdk.on('accountsChanged', (accounts) => expectTypeOf(accounts).toEqualTypeOf<Account<KitTicker>[]>());
      sdk.on('disconnect', (e) => expectTypeOf(e).toEqualTypeOf<KitError>());
      expectTypeOf(sdk.on('connect', () => undefined)).toEqualTypeOf<() => void>();
      // @ts-expect-error unknown event
      sdk.on('chainChanged', () => undefined);
      expectTypeOf(sdk.getProvider()).resolves.toEqualTypeOf<CoinWalletProvider | null>();
    });
  });

  it('KitError: source, code, reason, status, retryAfterMs; guards narrow', () => {
    typeOnly(() => {
      const e = new KitError({ source: 'kit', code: 'TIMEOUT', message: 't' });
      expectTypeOf(e.code).toEqualTypeOf<KitErrorCode>();
      expectTypeOf(e.source).toEqualTypeOf<'kit' | 'provider' | 'api'>();
      expectTypeOf(e.retryAfterMs).toEqualTypeOf<number | undefined>();
      const u: unknown = e;
      if (isProviderError(u)) {
        expectTypeOf(u.code).toEqualTypeOf<number>();
        expectTypeOf(u.reason).toEqualTypeOf<string>();
      }
      if (isApiError(u)) {
        expectTypeOf(u.code).toEqualTypeOf<string>();
        expectTypeOf(u.status).toEqualTypeOf<number>();
      }
      expectTypeOf<'PROVIDER_NOT_AVAILABLE'>().toExtend<KitErrorCode>();
      expectTypeOf<4001>().toExtend<KitErrorCode>();
    });
  });

  it('a per-coin kit is bound to its ticker', () => {
    typeOnly(() => {
      expectTypeOf(ltc).toEqualTypeOf<CoinSDK<'LTC'>>();
      expectTypeOf(ltc.ticker).toEqualTypeOf<'LTC'>();
      expectTypeOf(ltc.coin.coinId).toEqualTypeOf<'litecoin'>();
      expectTypeOf(ltc.connect()).resolves.toEqualTypeOf<CoinConnectResult<'LTC'>>();
      expectTypeOf<CoinConnectResult<'LTC'>['account']>().toEqualTypeOf<Account<'LTC'> | null>();
      expectTypeOf(ltc.resolve('alice.coin')).resolves.toEqualTypeOf<Resolution<'LTC'>>();
      expectTypeOf(ltc.quote(['usd', 'btc'])).resolves.toEqualTypeOf<{
        usd: number | null;
        btc: number | null;
      }>();
      // @ts-expect-error the per-coin connect takes no tickers
      void ltc.connect(['DOGE']);
      // @ts-expect-error the per-coin resolve takes no ticker
      void ltc.resolve('alice.coin', 'DOGE');
      // @ts-expect-error not a kit coin
      bindTicker('BTC');
    });
  });
});
