/**
 * Per-request context of the accounts subgraph. `account` is the signed-in account (null without a session);
 * `operator` is true for the operator's ADMIN_TOKEN, which may review like an administrator.
 */
import type { Db } from '../../src/store/db.ts';
import type { Account } from '../../src/accounts/types.ts';
import type { OwnerKeyView } from '../../src/accounts/api-keys.ts';
import type { OwnDapp } from '../../src/accounts/dapps.ts';

/** The part of DataLoader's API resolvers use. */
export interface Loader<K, V> {
  load(key: K): Promise<V>;
  loadMany(keys: readonly K[]): Promise<Array<V | Error>>;
}

export interface AccountsLoaders {
  /** Account id → account; null when unknown. Every `Account.__resolveReference` uses it. */
  account: Loader<string, Account | null>;
  /** Account id → its API keys, newest first. */
  apiKeysByOwner: Loader<string, OwnerKeyView[]>;
  /** Account id → its dapp listing requests, newest first. */
  dappsByAccount: Loader<string, OwnDapp[]>;
}

export interface AccountsContext {
  db: Db;
  account: Account | null;
  operator: boolean;
  loaders: AccountsLoaders;
}
