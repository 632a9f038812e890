/**
 * The one error type of the kits. Every failure of `connect`, `resolve`, `price`, `request` is a {@link KitError}:
 * the wallet's EIP-1193 errors (`source: 'provider'`, numeric `code`, `reason` from `error.data.reason`), the API's
 * GraphQL errors (`source: 'api'`, `code` from `extensions.code`, the HTTP `status`, `retryAfterMs` on 429) and the
 * kit's own (`source: 'kit'`: no provider, a bad argument, the network, a timeout). Browser and Node code alike.
 */

/** Where an error comes from. */
export type KitErrorSource = 'kit' | 'provider' | 'api';

/** Codes the kit raises itself (`source: 'kit'`). */
export type KitLocalErrorCode =
  /** No Coin Wallet provider on the page: the dapp is not open inside Coin Wallet's dapp browser. */
  | 'PROVIDER_NOT_AVAILABLE'
  /** An argument the kit refuses before any call (unknown ticker, empty list, partner credential as apiKey, …). */
  | 'INVALID_ARGUMENT'
  /** `fetch` failed (DNS, connection refused, CORS, offline). */
  | 'NETWORK_ERROR'
  /** No answer within `timeoutMs`. */
  | 'TIMEOUT'
  /** The caller's `AbortSignal` fired. */
  | 'ABORTED'
  /** An answer that is not the expected JSON (a proxy's HTML page, a truncated body, a malformed wallet result). */
  | 'BAD_RESPONSE';

/**
 * Codes of the API (`source: 'api'`): `extensions.code` of the router's GraphQL errors (docs/graph.md), the same
 * catalog as the REST APIs. A few common ones are listed for completion; any other string may come.
 */
export type ApiErrorCode =
  | 'RATE_LIMITED'
  | 'INVALID_CURRENCY'
  | 'INVALID_NAME'
  | 'INVALID_PARAMETER'
  | 'MISSING_PARAMETER'
  | 'API_KEY_INVALID'
  | 'API_KEY_PENDING'
  | 'API_KEY_REVOKED'
  | 'COST_ESTIMATED_TOO_EXPENSIVE'
  | 'PERSISTED_QUERY_NOT_FOUND'
  | 'PERSISTED_QUERY_NOT_IN_LIST'
  | 'NOT_READY'
  | (string & {});

/** EIP-1193 / JSON-RPC codes of the provider (`source: 'provider'`), docs/provider.md §5. */
export type ProviderErrorCode = 4001 | 4100 | 4200 | 4900 | 4901 | -32602 | -32603 | (number & {});

export type KitErrorCode = KitLocalErrorCode | ApiErrorCode | ProviderErrorCode;

export interface KitErrorInit {
  source: KitErrorSource;
  code: KitErrorCode;
  message: string;
  /** Provider errors: `error.data.reason` (`USER_REJECTED`, `DAPP_NOT_LISTED`, …). */
  reason?: string | undefined;
  /** API errors: the HTTP status of the answer. */
  status?: number | undefined;
  /** 429: how long the API asked to wait (from `Retry-After`), in milliseconds. */
  retryAfterMs?: number | undefined;
  /** Provider errors: `error.data`; API errors: the GraphQL `errors` array. */
  data?: unknown;
  cause?: unknown;
}

export class KitError extends Error {
  override readonly name = 'KitError';
  readonly source: KitErrorSource;
  readonly code: KitErrorCode;
  /** Provider errors: `error.data.reason`; undefined otherwise. */
  readonly reason: string | undefined;
  /** API errors: the HTTP status; undefined otherwise. */
  readonly status: number | undefined;
  /** Rate-limited API errors: the wait the API asked for (`Retry-After`), in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** Provider errors: `error.data`; API errors: the GraphQL `errors`; undefined otherwise. */
  readonly data: unknown;

  constructor(init: KitErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.source = init.source;
    this.code = init.code;
    this.reason = init.reason;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.data = init.data;
  }
}

/** A {@link KitError} from the wallet provider: EIP-1193 `code` and `data.reason`. */
export type ProviderKitError = KitError & {
  readonly source: 'provider';
  readonly code: number;
  readonly reason: string;
};
/** A {@link KitError} from the API: `extensions.code` and the HTTP status. */
export type ApiKitError = KitError & {
  readonly source: 'api';
  readonly code: string;
  readonly status: number;
};

export function isKitError(e: unknown): e is KitError {
  return e instanceof KitError;
}

export function isProviderError(e: unknown): e is ProviderKitError {
  return e instanceof KitError && e.source === 'provider';
}

export function isApiError(e: unknown): e is ApiKitError {
  return e instanceof KitError && e.source === 'api';
}

/** A kit-side error (`source: 'kit'`). */
export const kitError = (code: KitLocalErrorCode, message: string, cause?: unknown): KitError =>
  new KitError({ source: 'kit', code, message, cause });
