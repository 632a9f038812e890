/**
 * The wallet provider's wire protocol (docs/provider.md §3–§5): the messages a dapp page and its wallet host exchange,
 * their validation, the error codes and the trusted-host-origin rule. Pure and dependency-free: bundled into
 * `/provider.js` (browser) and used by the dapp-browser emulator (browser page and Node server) alike.
 */

/** Protocol version carried in every message as `cw`. */
export const PROTOCOL_VERSION = 1;
/** How long a framed page waits for the host's `welcome` before concluding it is not inside the wallet. */
export const HANDSHAKE_TIMEOUT_MS = 1_000;
/** The `hello` is repeated this often during the handshake (the host page may attach its listener late). */
export const HELLO_INTERVAL_MS = 250;

/** Events a provider emits (`on`), and the ones a host may push (`connect` is emitted by the provider itself). */
export const PROVIDER_EVENTS = ['connect', 'disconnect', 'accountsChanged'] as const;
export const HOST_EVENTS = ['disconnect', 'accountsChanged'] as const;
export type HostEvent = (typeof HOST_EVENTS)[number];

/** Every method of the protocol (docs/provider.md §4). Anything else is 4200 `UNSUPPORTED_METHOD`. */
export const METHODS = [
  'wallet_connect',
  'wallet_getBalance',
  'wallet_signMessage',
  'wallet_signTransaction',
  'wallet_sendTransaction',
  'id_signMessage',
  'id_connect',
] as const;
export type Method = (typeof METHODS)[number];

/** EIP-1193 provider codes and the JSON-RPC codes used with them. */
export const ERROR_CODES = {
  userRejected: 4001,
  unauthorized: 4100,
  unsupportedMethod: 4200,
  disconnected: 4900,
  chainDisconnected: 4901,
  invalidParams: -32602,
  internal: -32603,
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Machine-readable reasons (`error.data.reason`). */
export type ErrorReason =
  | 'USER_REJECTED'
  | 'DAPP_NOT_LISTED'
  | 'NOT_CONNECTED'
  | 'UNTRUSTED_ORIGIN'
  | 'UNSUPPORTED_METHOD'
  | 'UNSUPPORTED_FOR_CHAIN'
  | 'NO_WALLET_FOR_CHAIN'
  | 'HOST_DISCONNECTED'
  | 'CHAIN_NOT_CONNECTED'
  | 'INVALID_PARAMS'
  | 'UNKNOWN_TICKER'
  | 'NOT_A_BRIDGE_DEPOSIT'
  | 'AMOUNT_OUT_OF_LIMITS'
  | 'LANE_PAUSED'
  | 'INSUFFICIENT_FUNDS'
  | 'NOT_A_SIGNER'
  | 'NOT_A_SIGN_IN_CHALLENGE'
  | 'CHALLENGE_WRONG_DOMAIN'
  | 'CHALLENGE_WRONG_ADDRESS'
  | 'CHALLENGE_EXPIRED'
  | 'PLATFORM_UNAVAILABLE'
  | 'INTERNAL_ERROR';

export interface RpcErrorBody {
  code: number;
  message: string;
  data: { reason: string; [k: string]: unknown };
}

export function rpcError(
  code: ErrorCode,
  reason: ErrorReason,
  message: string,
  extra: Record<string, unknown> = {},
): RpcErrorBody {
  return { code, message, data: { ...extra, reason } };
}

export type Params = Record<string, unknown>;

// dapp → host
export interface HelloMessage {
  cw: 1;
  type: 'hello';
  nonce: string;
}
export interface RequestMessage {
  cw: 1;
  type: 'request';
  id: string;
  method: string;
  params?: Params;
}
// host → dapp
export interface WalletInfo {
  name: string;
  version: string;
}
export interface WelcomeMessage {
  cw: 1;
  type: 'welcome';
  nonce: string;
  wallet: WalletInfo;
}
export type ResponseMessage =
  | { cw: 1; type: 'response'; id: string; result: unknown }
  | { cw: 1; type: 'response'; id: string; error: RpcErrorBody };
export interface EventMessage {
  cw: 1;
  type: 'event';
  event: HostEvent;
  data: unknown;
}

export type DappMessage = HelloMessage | RequestMessage;
export type HostMessage = WelcomeMessage | ResponseMessage | EventMessage;

/** Limits on what crosses the channel (anything larger is not a protocol message). */
export const LIMITS = { nonce: 128, id: 128, method: 64 } as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isToken = (v: unknown, max: number): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= max && /^[\w.:-]+$/.test(v);

/** `params` of a request: absent, or a plain object (positional arrays are not part of this protocol). */
export function isParams(v: unknown): v is Params | undefined {
  return v === undefined || isObject(v);
}

/** A message a host reads from a dapp page; null for anything that is not one (ignored, never answered). */
export function parseDappMessage(v: unknown): DappMessage | null {
  if (!isObject(v) || v.cw !== PROTOCOL_VERSION) return null;
  if (v.type === 'hello') {
    return isToken(v.nonce, LIMITS.nonce) ? { cw: 1, type: 'hello', nonce: v.nonce } : null;
  }
  if (v.type === 'request') {
    if (!isToken(v.id, LIMITS.id) || !isToken(v.method, LIMITS.method) || !isParams(v.params)) return null;
    return v.params === undefined
      ? { cw: 1, type: 'request', id: v.id, method: v.method }
      : { cw: 1, type: 'request', id: v.id, method: v.method, params: v.params };
  }
  return null;
}

function parseError(v: unknown): RpcErrorBody | null {
  if (!isObject(v) || typeof v.code !== 'number' || !Number.isInteger(v.code)) return null;
  if (typeof v.message !== 'string' || !isObject(v.data) || typeof v.data.reason !== 'string') return null;
  return { code: v.code, message: v.message, data: { ...v.data, reason: v.data.reason } };
}

/** A message a provider reads from its host; null for anything that is not one (ignored). */
export function parseHostMessage(v: unknown): HostMessage | null {
  if (!isObject(v) || v.cw !== PROTOCOL_VERSION) return null;
  switch (v.type) {
    case 'welcome': {
      const w = v.wallet;
      if (!isToken(v.nonce, LIMITS.nonce) || !isObject(w)) return null;
      if (typeof w.name !== 'string' || typeof w.version !== 'string') return null;
      return { cw: 1, type: 'welcome', nonce: v.nonce, wallet: { name: w.name, version: w.version } };
    }
    case 'response': {
      if (!isToken(v.id, LIMITS.id)) return null;
      const hasResult = 'result' in v;
      const hasError = 'error' in v;
      if (hasResult === hasError) return null;
      if (hasResult) return { cw: 1, type: 'response', id: v.id, result: v.result };
      const error = parseError(v.error);
      return error ? { cw: 1, type: 'response', id: v.id, error } : null;
    }
    case 'event':
      if (!(HOST_EVENTS as readonly unknown[]).includes(v.event)) return null;
      return { cw: 1, type: 'event', event: v.event as HostEvent, data: v.data };
    default:
      return null;
  }
}

/**
 * Whether a host at `origin` may answer the handshake: one of the configured wallet origins (`WALLET_HOST_ORIGINS`),
 * or a loopback origin — `http://127.0.0.1:<port>`, `http://localhost:<port>`, `http://[::1]:<port>` — where the
 * dapp-browser emulator runs. Exact origin comparison otherwise (scheme, host and port; no subdomains).
 */
export function isTrustedHostOrigin(origin: string, hostOrigins: readonly string[]): boolean {
  if (hostOrigins.includes(origin)) return true;
  return /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/.test(origin);
}

/**
 * The text `id_connect` signs (a Litecoin signed message by the identity address): it binds the pairing to the
 * requesting origin and to the caller's nonce, so the name-resolution site can verify it and nobody can replay it.
 */
export function identityPairingText(f: { origin: string; address: string; nonce: string }): string {
  return [
    'Coin Wallet identity pairing',
    `Origin: ${f.origin}`,
    `Address: ${f.address}`,
    `Nonce: ${f.nonce}`,
  ].join('\n');
}
