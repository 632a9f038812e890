/**
 * The kit's wallet side: it finds the provider `/provider.js` defines (docs/provider.md), calls it (`request`,
 * `connect`), and hands its events to the caller's listeners. The API side is `api.ts`.
 */
import { KitError } from './errors.ts';
import { checkTicker, invalid, positive, stringList } from './options.ts';
import type { CoinWalletProvider, Discovered } from './provider.ts';
import {
  DEFAULT_DISCOVERY_TIMEOUT_MS,
  defaultWindow,
  discoverProvider,
  notAvailable,
  providerError,
} from './provider.ts';
import type { KitTicker } from './tickers.ts';
import type {
  Account,
  Capability,
  ConnectResult,
  ProviderMethod,
  ProviderMethods,
  SDKEvent,
  SDKEventPayload,
  SDKOptions,
} from './types.ts';

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

/** Provider discovery, wallet calls and events, for one kit instance. */
export class WalletSide {
  readonly #opts: SDKOptions;
  #discovery: Promise<Discovered | null> | undefined;
  readonly #listeners = new Map<SDKEvent, Set<(payload: never) => void>>();
  #attached: CoinWalletProvider | undefined;

  constructor(opts: SDKOptions) {
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
}
