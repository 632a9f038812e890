/**
 * The store's error catalog: what a client is told when the store does not answer (`unavailable.ts` decides when
 * that is). Both transports answer it alike: REST as 503 with `Retry-After`, the graph as an error with
 * `extensions.code` `STORE_UNAVAILABLE` (and `extensions.retryAfter`, which clients see where `http` is stripped).
 */
import { ApiError, errorCatalog } from '../core/errors.ts';
import { isStoreUnavailable } from './unavailable.ts';

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
