/**
 * Finding Coin Wallet's provider on the page (docs/provider.md §2) and calling it. `/provider.js` defines
 * `window.coinwallet`, dispatches `coinwallet:announceProvider` (re-announced on `coinwallet:requestProvider`) and
 * `coinwallet#initialized` — but only inside the wallet's dapp browser, after a handshake of up to 1 s with the host.
 * So discovery asks for an announcement (answered at once by an installed provider, with its info), takes the global
 * if there is no answer, and otherwise waits (default 1.5 s) for an announcement or the ready event.
 *
 * The kit's own structural types (no DOM lib needed by the kit's users): `KitWindow` is what the kit reads from
 * `window`.
 */
import { KitError, kitError } from './errors.ts';

/** The EIP-1193 provider `/provider.js` defines as `window.coinwallet`. */
export interface CoinWalletProvider {
  readonly isCoinWallet: true;
  request(args: { method: string; params?: Record<string, unknown> }): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): unknown;
  removeListener(event: string, listener: (payload: unknown) => void): unknown;
}

/** `detail.info` of the announcement (EIP-6963 style). */
export interface ProviderInfo {
  readonly uuid: string;
  readonly name: string;
  readonly icon: string;
  readonly rdns: string;
}

interface EventLike {
  readonly type: string;
  readonly detail?: unknown;
}

/** What the kit uses of `window` (any `EventTarget` with an optional `coinwallet` fits). */
export interface KitWindow {
  coinwallet?: unknown;
  addEventListener(type: string, listener: (event: EventLike) => void): void;
  removeEventListener(type: string, listener: (event: EventLike) => void): void;
  dispatchEvent(event: never): boolean;
}

export const ANNOUNCE_EVENT = 'coinwallet:announceProvider';
export const REQUEST_EVENT = 'coinwallet:requestProvider';
export const READY_EVENT = 'coinwallet#initialized';
/** `/provider.js` waits up to 1 s for the host's handshake; the kit waits a little longer. */
export const DEFAULT_DISCOVERY_TIMEOUT_MS = 1_500;

export const NOT_AVAILABLE_MESSAGE =
  "no Coin Wallet provider on this page: open the dapp inside Coin Wallet's dapp browser (locally: " +
  '`npx coinwallet dapp-browser <this page URL> --allow-unlisted`), and load `/provider.js` before the kit';

export function isProvider(v: unknown): v is CoinWalletProvider {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as { isCoinWallet?: unknown }).isCoinWallet === true &&
    typeof (v as { request?: unknown }).request === 'function' &&
    typeof (v as { on?: unknown }).on === 'function' &&
    typeof (v as { removeListener?: unknown }).removeListener === 'function'
  );
}

function infoOf(v: unknown): ProviderInfo | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  return typeof o.uuid === 'string' &&
    typeof o.name === 'string' &&
    typeof o.icon === 'string' &&
    typeof o.rdns === 'string'
    ? { uuid: o.uuid, name: o.name, icon: o.icon, rdns: o.rdns }
    : null;
}

export interface Discovered {
  provider: CoinWalletProvider;
  info: ProviderInfo | null;
}

/** The page's window, if there is one (browsers); undefined in Node. */
export function defaultWindow(): KitWindow | undefined {
  const g = globalThis as unknown as Partial<KitWindow>;
  return typeof g.addEventListener === 'function' && typeof g.dispatchEvent === 'function'
    ? (g as KitWindow)
    : undefined;
}

function requestEvent(): never {
  // `Event` exists in browsers and Node ≥ 15.
  return new Event(REQUEST_EVENT) as never;
}

/**
 * Finds the provider: an announcement (an installed provider re-announces synchronously on
 * `coinwallet:requestProvider`, with its info), else the global, else the first announcement or ready event within
 * `timeoutMs`; null if none.
 */
export function discoverProvider(win: KitWindow | undefined, timeoutMs: number): Promise<Discovered | null> {
  if (!win) return Promise.resolve(null);
  return new Promise((resolve) => {
    let done = false;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const finish = (d: Discovered | null) => {
      if (done) return;
      done = true;
      timers.forEach((t) => clearTimeout(t));
      win.removeEventListener(ANNOUNCE_EVENT, onAnnounce);
      win.removeEventListener(READY_EVENT, onReady);
      resolve(d);
    };
    const onAnnounce = (ev: EventLike) => {
      const detail = ev.detail as { provider?: unknown; info?: unknown } | undefined;
      if (detail && isProvider(detail.provider))
        finish({ provider: detail.provider, info: infoOf(detail.info) });
    };
    const onReady = () => {
      if (isProvider(win.coinwallet)) finish({ provider: win.coinwallet, info: null });
    };
    win.addEventListener(ANNOUNCE_EVENT, onAnnounce);
    win.addEventListener(READY_EVENT, onReady);
    win.dispatchEvent(requestEvent());
    if (done) return;
    if (isProvider(win.coinwallet)) return finish({ provider: win.coinwallet, info: null });
    timers.push(setTimeout(() => finish(null), timeoutMs));
  });
}

/** A provider rejection (`{ code, message, data: { reason } }`) as a {@link KitError}. */
export function providerError(err: unknown): KitError {
  if (err instanceof KitError) return err;
  const o = (typeof err === 'object' && err !== null ? err : {}) as {
    code?: unknown;
    message?: unknown;
    data?: unknown;
  };
  const data =
    typeof o.data === 'object' && o.data !== null ? (o.data as Record<string, unknown>) : undefined;
  const code = typeof o.code === 'number' && Number.isInteger(o.code) ? o.code : -32603;
  const reason =
    typeof data?.reason === 'string' ? data.reason : code === -32603 ? 'INTERNAL_ERROR' : 'UNKNOWN';
  const message = typeof o.message === 'string' && o.message ? o.message : `the wallet refused (${reason})`;
  return new KitError({ source: 'provider', code, reason, message, data: data ?? null, cause: err });
}

export const notAvailable = (): KitError => kitError('PROVIDER_NOT_AVAILABLE', NOT_AVAILABLE_MESSAGE);
