/**
 * A store that does not answer, as every layer sees it: the error the store's drivers throw for an outage
 * ({@link StoreUnavailableError}; `src/store/unavailable.ts` decides which driver failures are one) and what a client
 * is told then (503 `STORE_UNAVAILABLE`). It lives in the shared kernel so that the store throws it and the transports
 * render it without a transport importing the store: REST answers 503 with `Retry-After`, the graph an error with
 * `extensions.code` `STORE_UNAVAILABLE` (and `extensions.retryAfter`, which clients see where `http` is stripped).
 */
import { ApiError, errorCatalog } from './errors.ts';

/** The store did not answer; `cause` is the driver's error (for the log, never for the client). */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`the store is not answering: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StoreUnavailableError';
  }
}

/** True when `err`, or an error it was caused by (a few levels deep), is the store's outage. */
export function isStoreUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e instanceof Error; depth++, e = e.cause) {
    if (e instanceof StoreUnavailableError) return true;
  }
  return false;
}

/** Seconds a client is asked to wait before it tries again: a restart or failover of the server takes a few. */
export const STORE_RETRY_AFTER_S = 5;

export const storeErrors = errorCatalog('store', {
  unavailable: {
    status: 503,
    code: 'STORE_UNAVAILABLE',
    message: `the data store is not answering: retry in ${STORE_RETRY_AFTER_S} seconds`,
    headers: { 'retry-after': String(STORE_RETRY_AFTER_S) },
    extensions: { retryAfter: STORE_RETRY_AFTER_S },
  },
});

/**
 * The error a client is answered with for `err`, when there is one: `err` itself when it is an `ApiError`, 503
 * `STORE_UNAVAILABLE` when the store did not answer; null for anything else (an internal error, logged).
 */
export function clientErrorOf(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  return isStoreUnavailable(err) ? storeErrors.unavailable() : null;
}
