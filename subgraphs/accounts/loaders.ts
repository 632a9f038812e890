/**
 * Per-request DataLoaders of the accounts subgraph, created with the context (`contextFor`), never shared between
 * requests. Each loader wraps a batch method of a service (`src/services.ts`), one SQL read per batch whatever the
 * number of keys, so `_entities` for N accounts asking for their keys and dapp requests costs one read per level
 * (accounts, keys, dapp requests), not one per account. Batch functions return one result per key, in key order.
 *
 * - `account`: `AccountService.byIds` (`accounts WHERE id = ANY(…)`);
 * - `apiKeysByOwner`: `ApiKeyService.listByOwners` (`api_keys WHERE owner_id = ANY(…)`), newest first per owner: the
 *   rows and order of `ApiKeyService.list({ ownerId })` (the tests compare it with `list` key for key);
 * - `dappsByAccount`: `DappService.listByAccounts`, the multi-account form of `listOwn`;
 * - `keyUsage`, `documentUsage`, `keyOperations`: `UsageViews` (`src/accounts/usage-views.ts`) over the widest window
 *   of the batch, each answer cut to its own; every key of a batch shares one clock reading;
 * - `apps`, `versionDocuments`: `AccountService.appsOf` and `versionDocuments`.
 */
import DataLoader from 'dataloader';
import type { ApiKeyRecord } from '../../src/access/key-repo.ts';
import type { KeyUsageMinute, OperationTotals } from '../../src/access/usage.ts';
import type { AccountApp, NamedKeyOperation, VersionDocument } from '../../src/accounts/app-usage.ts';
import type { DappRecord } from '../../src/accounts/dapps.ts';
import type { Account } from '../../src/accounts/types.ts';
import type { DocumentUsageRequest, KeyUsageRequest } from '../../src/accounts/usage-views.ts';
import type { AccountsServices } from '../../src/services.ts';
import type { AccountsLoaders } from './context.ts';

/** Names of the batched loaders, as reported to {@link LoaderHooks.onBatch}. */
export type BatchedLoader = keyof AccountsLoaders;

export interface LoaderHooks {
  /** Called with the keys of each batch a loader dispatches (tests record them). */
  onBatch?(loader: BatchedLoader, keys: readonly unknown[]): void;
}

/** Fresh loaders for one request over the process's services; `now` is the clock of the usage windows. */
export function createLoaders(
  s: Pick<AccountsServices, 'accounts' | 'keys' | 'dapps' | 'stats'>,
  hooks: LoaderHooks = {},
  now: () => number = Date.now,
): AccountsLoaders {
  const seen = (loader: BatchedLoader, keys: readonly unknown[]): void => hooks.onBatch?.(loader, keys);

  const account = new DataLoader<string, Account | null>((ids) => {
    seen('account', ids);
    return s.accounts.byIds(ids);
  });

  const apiKeysByOwner = new DataLoader<string, ApiKeyRecord[]>((ids) => {
    seen('apiKeysByOwner', ids);
    return s.keys.listByOwners(ids);
  });

  const dappsByAccount = new DataLoader<string, DappRecord[]>(async (ids) => {
    seen('dappsByAccount', ids);
    const byAccount = await s.dapps.listByAccounts(ids);
    return ids.map((id) => byAccount.get(id) ?? []);
  });

  const keyUsage = new DataLoader<KeyUsageRequest, KeyUsageMinute[], string>(
    (reqs) => {
      seen('keyUsage', reqs);
      return s.stats.keyUsage(reqs, now());
    },
    { cacheKeyFn: (r) => `${r.keyId}:${r.minutes}` },
  );

  const apps = new DataLoader<string, AccountApp[]>((ids) => {
    seen('apps', ids);
    return s.accounts.appsOf(ids);
  });

  const versionDocuments = new DataLoader<{ appId: string; version: string }, VersionDocument[], string>(
    (refs) => {
      seen('versionDocuments', refs);
      return s.accounts.versionDocuments(refs);
    },
    { cacheKeyFn: (r) => `${r.appId}\u0000${r.version}` },
  );

  const documentUsage = new DataLoader<DocumentUsageRequest, OperationTotals, string>(
    (reqs) => {
      seen('documentUsage', reqs);
      return s.stats.documentUsage(reqs, now());
    },
    { cacheKeyFn: (r) => `${r.appId}\u0000${r.version}\u0000${r.hash}\u0000${r.days}` },
  );

  const keyOperations = new DataLoader<{ keyId: string; days: number }, NamedKeyOperation[], string>(
    (reqs) => {
      seen('keyOperations', reqs);
      return s.stats.keyOperations(reqs, now());
    },
    { cacheKeyFn: (r) => `${r.keyId}:${r.days}` },
  );

  return {
    account,
    apiKeysByOwner,
    dappsByAccount,
    keyUsage,
    apps,
    versionDocuments,
    documentUsage,
    keyOperations,
  };
}
