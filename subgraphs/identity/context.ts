/**
 * Per-request context of the identity subgraph. `account` is the signed-in wallet account (from the session token
 * the router forwards), null without one; mutations answer UNAUTHENTICATED then.
 */
import type { Db } from '../../src/store/db.ts';
import type { Account } from '../../src/accounts/types.ts';
import type { NameView } from '../../src/names/types.ts';

/** The part of DataLoader's API resolvers use. */
export interface Loader<K, V> {
  load(key: K): Promise<V>;
  loadMany(keys: readonly K[]): Promise<Array<V | Error>>;
}

/**
 * What a `NameRecord` resolver receives: the holder's full view, or the public lookup (name and addresses only; the
 * holder-only fields resolve to null).
 */
export type NameOrPublicName = NameView | Pick<NameView, 'name' | 'addresses'>;

export interface IdentityLoaders {
  /** Account id → the names it holds (by name). */
  namesByAccount: Loader<string, NameView[]>;
  /** Uppercase asset ticker → the markets coin id; null when the catalog does not track it. */
  coinIdByTicker: Loader<string, string | null>;
}

export interface IdentityContext {
  db: Db;
  account: Account | null;
  loaders: IdentityLoaders;
}
