/**
 * Per-request DataLoaders of the accounts subgraph, created with the context (`contextFor`), never shared between
 * requests. Each batch is one SQL read whatever the number of keys, so `_entities` for N accounts asking for their
 * keys and dapp requests costs one read per level (accounts, keys, dapp requests), not one per account. Batch
 * functions return one result per key, in key order.
 *
 * - `account`: `accounts WHERE id = ANY(…)`, mapped by the account repository's own row mapper;
 * - `apiKeysByOwner`: the key repository's `selectKeysOfOwners` (`api_keys WHERE owner_id = ANY(…)`), newest first per
 *   owner: the rows and order of `ApiKeyService.list({ ownerId })` (the tests compare it with `list` key for key);
 * - `dappsByAccount`: `DappService.listByAccounts`, the multi-account form of `listOwn`;
 * - `keyUsage`: `UsageReads.keyUsageMany` (`usage_key_minutes WHERE key_id = ANY(…)`) over the widest window of the
 *   batch, each key's series then cut to its own `minutes`; every key of a batch shares one clock reading;
 * - `apps`, `versionDocuments`, `documentUsage`, `keyOperations`: the apps' batch reads of `src/accounts/app-usage.ts`
 *   and `UsageReads` (usage per document and per operation over the widest window of the batch, in UTC days).
 */
import DataLoader from 'dataloader';
import type { ApiKeyRecord } from '../../src/access/key-repo.ts';
import { selectKeysOfOwners } from '../../src/access/key-repo.ts';
import { MINUTE_MS, minuteOf } from '../../src/access/usage.ts';
import type { KeyUsageMinute, UsageReads } from '../../src/access/usage.ts';
import { fromRow as accountFromRow } from '../../src/accounts/account-repo.ts';
import type { DappRecord, DappService } from '../../src/accounts/dapps.ts';
import type { Account, Role } from '../../src/accounts/types.ts';
import type { Queryable } from '../../src/store/db.ts';
import type { AccountsLoaders, DocumentUsageRequest, KeyUsageRequest } from './context.ts';
import type { OperationTotals } from '../../src/access/usage.ts';
import {
  appsOfAccounts,
  documentsOfVersions,
  namedOperations,
  windowStart,
} from '../../src/accounts/app-usage.ts';
import type { AccountApp, NamedKeyOperation, VersionDocument } from '../../src/accounts/app-usage.ts';
import { isUuid } from '../../src/core/ids.ts';

/** Names of the batched loaders, as reported to {@link LoaderHooks.onBatch}. */
export type BatchedLoader = keyof AccountsLoaders;

export interface LoaderHooks {
  /** Called with the keys of each batch a loader dispatches (tests record them). */
  onBatch?(loader: BatchedLoader, keys: readonly unknown[]): void;
}

/** Accounts by id in one read; null for an unknown (or malformed) id. */
export async function accountsByIds(q: Queryable, ids: readonly string[]): Promise<Array<Account | null>> {
  const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  const byId = new Map<string, Account>();
  if (wanted.length > 0) {
    const r = await q.query<{ id: string; address: string; role: Role; created_at: number }>(
      'SELECT id, address, role, created_at FROM accounts WHERE id = ANY($1::uuid[])',
      [wanted],
    );
    for (const row of r.rows) byId.set(row.id, accountFromRow(row));
  }
  return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
}

/** The API keys of many owners in one read (`selectKeysOfOwners`: `ApiKeyService.list({ ownerId })` per owner). */
export const keysByOwners = (q: Queryable, ownerIds: readonly string[]): Promise<ApiKeyRecord[][]> =>
  selectKeysOfOwners(q, ownerIds);

/**
 * The usage of many (key, minutes) pairs in one read: each pair's last `minutes` minutes up to the minute of `now`,
 * oldest first, zeros included.
 */
export async function usageOfKeys(
  usage: UsageReads,
  reqs: readonly KeyUsageRequest[],
  now: number,
): Promise<KeyUsageMinute[][]> {
  if (reqs.length === 0) return [];
  const widest = Math.max(...reqs.map((r) => r.minutes));
  const ids = [...new Set(reqs.map((r) => r.keyId))];
  const series = await usage.keyUsageMany(ids, minuteOf(now) - (widest - 1) * MINUTE_MS, now);
  const byId = new Map(ids.map((id, i) => [id, series[i] ?? []]));
  return reqs.map((r) => (byId.get(r.keyId) ?? []).slice(widest - r.minutes));
}

/** Fresh loaders for one request. */
export function createLoaders(
  db: Queryable,
  dapps: DappService,
  hooks: LoaderHooks = {},
  stats?: { usage: UsageReads; now: () => number },
): AccountsLoaders {
  const seen = (loader: BatchedLoader, keys: readonly unknown[]): void => hooks.onBatch?.(loader, keys);

  const account = new DataLoader<string, Account | null>((ids) => {
    seen('account', ids);
    return accountsByIds(db, ids);
  });

  const apiKeysByOwner = new DataLoader<string, ApiKeyRecord[]>((ids) => {
    seen('apiKeysByOwner', ids);
    return keysByOwners(db, ids);
  });

  const dappsByAccount = new DataLoader<string, DappRecord[]>(async (ids) => {
    seen('dappsByAccount', ids);
    const byAccount = await dapps.listByAccounts(ids);
    return ids.map((id) => byAccount.get(id) ?? []);
  });

  const keyUsage = new DataLoader<KeyUsageRequest, KeyUsageMinute[], string>(
    (reqs) => {
      seen('keyUsage', reqs);
      if (!stats) throw new Error('the accounts subgraph was created without usage statistics');
      return usageOfKeys(stats.usage, reqs, stats.now());
    },
    { cacheKeyFn: (r) => `${r.keyId}:${r.minutes}` },
  );

  const apps = new DataLoader<string, AccountApp[]>((ids) => {
    seen('apps', ids);
    return appsOfAccounts(db, ids);
  });

  const versionDocuments = new DataLoader<{ appId: string; version: string }, VersionDocument[], string>(
    (refs) => {
      seen('versionDocuments', refs);
      return documentsOfVersions(db, refs);
    },
    { cacheKeyFn: (r) => `${r.appId}\u0000${r.version}` },
  );

  const reads = () => {
    if (!stats) throw new Error('the accounts subgraph was created without usage statistics');
    return stats;
  };

  const documentUsage = new DataLoader<DocumentUsageRequest, OperationTotals, string>(
    async (reqs) => {
      seen('documentUsage', reqs);
      const { usage, now } = reads();
      // One read over the widest window; narrower ones read again (rare: one `days` per request in practice).
      const byDays = new Map<number, DocumentUsageRequest[]>();
      for (const r of reqs) byDays.set(r.days, [...(byDays.get(r.days) ?? []), r]);
      const t = now();
      const out = new Map<DocumentUsageRequest, OperationTotals>();
      for (const [days, list] of byDays) {
        const totals = await usage.documentUsageMany(list, windowStart(t, days));
        list.forEach((r, i) => out.set(r, totals[i] as OperationTotals));
      }
      return reqs.map((r) => out.get(r) as OperationTotals);
    },
    { cacheKeyFn: (r) => `${r.appId}\u0000${r.version}\u0000${r.hash}\u0000${r.days}` },
  );

  const keyOperations = new DataLoader<{ keyId: string; days: number }, NamedKeyOperation[], string>(
    async (reqs) => {
      seen('keyOperations', reqs);
      const { usage, now } = reads();
      const t = now();
      const out: NamedKeyOperation[][] = [];
      for (const days of new Set(reqs.map((r) => r.days))) {
        const list = reqs.filter((r) => r.days === days);
        const named = await namedOperations(
          db,
          await usage.operationsOfKeys(
            list.map((r) => r.keyId),
            windowStart(t, days),
          ),
        );
        list.forEach((r, i) => (out[reqs.indexOf(r)] = named[i] ?? []));
      }
      return out;
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
