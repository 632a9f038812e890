/**
 * Per-request context of the identity subgraph: what every resolver receives as its third argument. Built once per
 * request (`contextFor` in `index.ts`) so that the loaders batch and cache within that request only.
 *
 * The session is resolved lazily: `viewer()` looks the bearer token up on first use and keeps the answer for the
 * request, so a request that never needs the account (`nameResolution`, a public `name`) never fails because of a bad
 * token. Fields that need an account answer AUTH_REQUIRED without a token (see `resolvers.ts`).
 */
import type { Account } from '../../src/accounts/types.ts';
import type { NameService } from '../../src/names/service.ts';
import type { NameView } from '../../src/names/types.ts';
import type { BulkOutcome } from '../../src/names/service.ts';
import type { PrimaryName, ReverseKey } from '../../src/names/primary.ts';

/** The part of DataLoader's API resolvers use. */
export interface Loader<K, V> {
  load(key: K): Promise<V>;
  loadMany(keys: readonly K[]): Promise<Array<V | Error>>;
}

/**
 * What a `NameRecord` resolver receives: the holder's full view, or the public lookup (name and addresses only; the
 * holder-only fields resolve to null unless the request's viewer holds the name).
 */
export type NameOrPublicName = NameView | Pick<NameView, 'name' | 'addresses'>;

export interface IdentityLoaders {
  /** Account id → the names it holds (by name), with their addresses. One SQL read per level for the whole batch. */
  namesByAccount: Loader<string, NameView[]>;
  /** Uppercase asset ticker → the markets coin id; null when the catalog does not track it. No store read. */
  coinIdByTicker: Loader<string, string | null>;
  /** A well-formed (normalised) name and ticker → its resolution outcome. One store read per batch. */
  resolution: Loader<{ name: string; asset: string }, BulkOutcome>;
  /** A validated (asset, address) → the primary name served for it, or null. One store read per batch. */
  primaryName: Loader<ReverseKey, PrimaryName | null>;
}

export interface IdentityContext {
  /** The name service (the same rules and error codes as the REST API). */
  names: NameService;
  /**
   * The signed-in account of `Authorization: Bearer <session token>`: null without a token; rejects with
   * INVALID_SESSION / SESSION_EXPIRED for a bad one. Looked up on first call, then memoised for the request.
   */
  viewer(): Promise<Account | null>;
  loaders: IdentityLoaders;
}
