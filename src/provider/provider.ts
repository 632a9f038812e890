/// <reference lib="dom" />
/**
 * The in-page wallet provider (docs/provider.md): finds the wallet host (a native bridge, else the embedding wallet
 * frame through an origin-checked handshake), then defines `window.coinwallet`, announces it and fires the ready
 * event. In an ordinary tab, or a frame whose parent does not answer, it defines nothing.
 *
 * Browser code: imports only the pure protocol module. Bundled into `/provider.js` by `build.ts`.
 */
import type { HostMessage, Params, RequestMessage, RpcErrorBody, WalletInfo } from './protocol.ts';
import {
  ERROR_CODES,
  HANDSHAKE_TIMEOUT_MS,
  HELLO_INTERVAL_MS,
  PROTOCOL_VERSION,
  PROVIDER_EVENTS,
  isParams,
  isTrustedHostOrigin,
  parseHostMessage,
  rpcError,
} from './protocol.ts';

export interface ProviderConfig {
  /** Wallet origins allowed to answer the frame handshake (loopback origins always are). */
  hostOrigins: readonly string[];
  /** The only origin that may call `id_connect`; null: the origin `/provider.js` was loaded from. */
  identityOrigin: string | null;
  /** Version of this script, for diagnostics. */
  version: string;
}

/** What the mobile app's web view injects before any page script runs. */
export interface NativeBridge {
  request(message: string): Promise<string>;
  onEvent?(listener: (message: string) => void): void;
}

export class ProviderRpcError extends Error {
  readonly code: number;
  readonly data: { reason: string; [k: string]: unknown };
  constructor(body: RpcErrorBody) {
    super(body.message);
    this.name = 'ProviderRpcError';
    this.code = body.code;
    this.data = body.data;
  }
}

export interface CoinWalletProvider {
  readonly isCoinWallet: true;
  request(args: { method: string; params?: Params }): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): CoinWalletProvider;
  removeListener(event: string, listener: (payload: unknown) => void): CoinWalletProvider;
}

/** Names on `window` and events (docs/provider.md §2). */
export const GLOBAL_NAME = 'coinwallet';
export const ANNOUNCE_EVENT = 'coinwallet:announceProvider';
export const REQUEST_EVENT = 'coinwallet:requestProvider';
export const READY_EVENT = 'coinwallet#initialized';
export const PROVIDER_INFO = { name: 'Coin Wallet', rdns: 'app.coinwallet' } as const;

const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="20" fill="#1f6feb"/>' +
  '<circle cx="48" cy="48" r="26" fill="none" stroke="#fff" stroke-width="8"/></svg>';

/** Marks a window whose provider script already ran (the script may be included twice: page and kit). */
const INSTALLED = Symbol.for('app.coinwallet.provider');

/** A channel to the host: sends requests, delivers whatever the host says (already validated). */
interface Transport {
  send(msg: RequestMessage): void;
  listen(handler: (msg: HostMessage) => void): void;
}

function randomHex(bytes: number, win: Window): string {
  const a = new Uint8Array(bytes);
  win.crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** UUID v4 from getRandomValues (`crypto.randomUUID` exists only in secure contexts). */
function uuidV4(win: Window): string {
  const h = randomHex(16, win).split('');
  h[12] = '4';
  h[16] = '89ab'[parseInt(h[16] as string, 16) & 3] as string;
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/** The origin of the `<script src>` that runs this code, if there is one (for the default identity origin). */
export function currentScriptOrigin(doc: Document): string | null {
  const el = doc.currentScript;
  if (!el || !('src' in el) || typeof el.src !== 'string' || !el.src) return null;
  try {
    return new URL(el.src).origin;
  } catch {
    return null;
  }
}

/**
 * Looks for a host and, when one answers, defines the provider. Returns at once; with a frame host the provider
 * appears asynchronously (within {@link HANDSHAKE_TIMEOUT_MS}) or never.
 */
export function installProvider(win: Window, config: ProviderConfig, scriptOrigin: string | null): void {
  const marked = win as unknown as Record<symbol, unknown>;
  if (marked[INSTALLED]) return;
  Object.defineProperty(win, INSTALLED, { value: true });

  const identityOrigin = config.identityOrigin ?? scriptOrigin;
  const native = (win as unknown as { coinwalletNative?: unknown }).coinwalletNative;
  if (isNativeBridge(native)) {
    define(win, nativeTransport(native), { name: PROVIDER_INFO.name, version: 'native' }, identityOrigin);
    return;
  }
  if (win.parent === win) return; // an ordinary tab: nothing is defined
  handshake(win, config.hostOrigins, (transport, wallet) => define(win, transport, wallet, identityOrigin));
}

function isNativeBridge(v: unknown): v is NativeBridge {
  return typeof v === 'object' && v !== null && typeof (v as NativeBridge).request === 'function';
}

function nativeTransport(native: NativeBridge): Transport {
  let handler: (msg: HostMessage) => void = () => {};
  const deliver = (text: unknown) => {
    let parsed: unknown;
    try {
      parsed = typeof text === 'string' ? JSON.parse(text) : null;
    } catch {
      return;
    }
    const msg = parseHostMessage(parsed);
    if (msg) handler(msg);
  };
  native.onEvent?.(deliver);
  return {
    send(msg) {
      native.request(JSON.stringify(msg)).then(deliver, (err: unknown) =>
        handler({
          cw: 1,
          type: 'response',
          id: msg.id,
          error: rpcError(ERROR_CODES.internal, 'INTERNAL_ERROR', `the wallet failed: ${String(err)}`),
        }),
      );
    },
    listen(h) {
      handler = h;
    },
  };
}

/**
 * The frame handshake: `hello` (with a random nonce, repeated every {@link HELLO_INTERVAL_MS}) to the parent; the
 * first `welcome` from the parent window, from a trusted origin, with the nonce, wins. Then every message goes to
 * that origin only, and only that window and origin are heard.
 */
function handshake(
  win: Window,
  hostOrigins: readonly string[],
  found: (t: Transport, wallet: WalletInfo) => void,
): void {
  const parent = win.parent;
  const nonce = randomHex(16, win);
  let done = false;
  const stop = () => {
    done = true;
    win.removeEventListener('message', onWelcome);
    win.clearInterval(interval);
    win.clearTimeout(timeout);
  };
  const onWelcome = (ev: MessageEvent) => {
    if (done || ev.source !== parent || !isTrustedHostOrigin(ev.origin, hostOrigins)) return;
    const msg = parseHostMessage(ev.data);
    if (msg?.type !== 'welcome' || msg.nonce !== nonce) return;
    stop();
    found(frameTransport(win, parent, ev.origin), msg.wallet);
  };
  win.addEventListener('message', onWelcome);
  const hello = () => parent.postMessage({ cw: PROTOCOL_VERSION, type: 'hello', nonce }, '*');
  const interval = win.setInterval(hello, HELLO_INTERVAL_MS);
  const timeout = win.setTimeout(stop, HANDSHAKE_TIMEOUT_MS);
  hello();
}

function frameTransport(win: Window, parent: Window, hostOrigin: string): Transport {
  let handler: (msg: HostMessage) => void = () => {};
  win.addEventListener('message', (ev: MessageEvent) => {
    if (ev.source !== parent || ev.origin !== hostOrigin) return;
    const msg = parseHostMessage(ev.data);
    if (msg && msg.type !== 'welcome') handler(msg);
  });
  return {
    send: (msg) => parent.postMessage(msg, hostOrigin),
    listen(h) {
      handler = h;
    },
  };
}

function define(win: Window, transport: Transport, _wallet: WalletInfo, identityOrigin: string | null): void {
  const prefix = randomHex(6, win);
  let counter = 0;
  const pending = new Map<
    string,
    { resolve(v: unknown): void; reject(e: ProviderRpcError): void; method: string }
  >();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();

  const emit = (event: string, payload: unknown) => {
    for (const l of [...(listeners.get(event) ?? [])]) {
      try {
        l(payload);
      } catch (err) {
        // A failing listener must not stop the others; report it like an uncaught error.
        win.setTimeout(() => {
          throw err;
        });
      }
    }
  };

  transport.listen((msg) => {
    if (msg.type === 'response') {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if ('error' in msg) p.reject(new ProviderRpcError(msg.error));
      else {
        p.resolve(msg.result);
        if (p.method === 'wallet_connect') emit('connect', { tickers: connectedTickers(msg.result) });
      }
    } else if (msg.type === 'event') {
      if (msg.event === 'disconnect') {
        const body = isErrorLike(msg.data)
          ? msg.data
          : rpcError(ERROR_CODES.disconnected, 'HOST_DISCONNECTED', 'the wallet disconnected this site');
        emit('disconnect', new ProviderRpcError(body));
      } else emit(msg.event, msg.data);
    }
  });

  const fail = (body: RpcErrorBody) => Promise.reject(new ProviderRpcError(body));

  const provider: CoinWalletProvider = Object.freeze({
    isCoinWallet: true as const,
    request(args: { method: string; params?: Params }): Promise<unknown> {
      if (typeof args !== 'object' || args === null || typeof args.method !== 'string' || !args.method) {
        return fail(
          rpcError(ERROR_CODES.invalidParams, 'INVALID_PARAMS', 'request needs { method, params? }'),
        );
      }
      if (!/^[\w.:-]{1,64}$/.test(args.method)) {
        return fail(
          rpcError(ERROR_CODES.unsupportedMethod, 'UNSUPPORTED_METHOD', `unknown method ${args.method}`),
        );
      }
      if (!isParams(args.params)) {
        return fail(rpcError(ERROR_CODES.invalidParams, 'INVALID_PARAMS', 'params must be an object'));
      }
      if (args.method === 'id_connect' && identityOrigin !== null && win.location.origin !== identityOrigin) {
        return fail(
          rpcError(
            ERROR_CODES.unauthorized,
            'UNTRUSTED_ORIGIN',
            'id_connect is only available to the name-resolution site',
          ),
        );
      }
      let params: Params | undefined;
      try {
        // Only JSON crosses the channel: functions, DOM nodes and cycles are refused here, not by the host.
        params = args.params === undefined ? undefined : (JSON.parse(JSON.stringify(args.params)) as Params);
      } catch {
        return fail(rpcError(ERROR_CODES.invalidParams, 'INVALID_PARAMS', 'params must be JSON'));
      }
      const id = `${prefix}.${++counter}`;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, method: args.method });
        const msg: RequestMessage = { cw: 1, type: 'request', id, method: args.method };
        if (params !== undefined) msg.params = params;
        try {
          transport.send(msg);
        } catch (err) {
          pending.delete(id);
          reject(
            new ProviderRpcError(
              rpcError(ERROR_CODES.disconnected, 'HOST_DISCONNECTED', `the wallet is gone: ${String(err)}`),
            ),
          );
        }
      });
    },
    on(event: string, listener: (payload: unknown) => void) {
      if ((PROVIDER_EVENTS as readonly string[]).includes(event) && typeof listener === 'function') {
        let set = listeners.get(event);
        if (!set) listeners.set(event, (set = new Set()));
        set.add(listener);
      }
      return provider;
    },
    removeListener(event: string, listener: (payload: unknown) => void) {
      listeners.get(event)?.delete(listener);
      return provider;
    },
  });

  try {
    Object.defineProperty(win, GLOBAL_NAME, {
      value: provider,
      writable: false,
      configurable: false,
      enumerable: true,
    });
  } catch {
    // Another script owns the name (non-configurable): the announcement below still reaches the dapp.
  }

  const info = Object.freeze({
    uuid: uuidV4(win),
    name: PROVIDER_INFO.name,
    icon: `data:image/svg+xml;base64,${win.btoa(ICON_SVG)}`,
    rdns: PROVIDER_INFO.rdns,
  });
  const announce = () =>
    win.dispatchEvent(new CustomEvent(ANNOUNCE_EVENT, { detail: Object.freeze({ info, provider }) }));
  win.addEventListener(REQUEST_EVENT, announce);
  announce();
  win.dispatchEvent(new Event(READY_EVENT));
}

function connectedTickers(result: unknown): string[] {
  const accounts = (result as { accounts?: unknown } | null)?.accounts;
  if (!Array.isArray(accounts)) return [];
  return accounts.flatMap((a: unknown) => {
    const t = (a as { ticker?: unknown } | null)?.ticker;
    return typeof t === 'string' ? [t] : [];
  });
}

function isErrorLike(v: unknown): v is RpcErrorBody {
  const e = v as Partial<RpcErrorBody> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.code === 'number' &&
    typeof e.message === 'string' &&
    typeof e.data?.reason === 'string'
  );
}
