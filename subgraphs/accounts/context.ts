/**
 * Per-request context of the accounts subgraph: what every resolver receives as its third argument. Built once per
 * request (`contextFor` in `index.ts`), so that the loaders batch and cache within that request only and the session
 * is looked up at most once.
 *
 * Identity comes from `Authorization: Bearer <token>`: the operator's ADMIN_TOKEN sets `operator` (it may review like
 * an administrator, but is no account); any other token is a session token, resolved lazily by `viewer()` so that the
 * public fields (the dapp store, entity references) never read or judge the session.
 */
import type { ApiKeyService } from '../../src/accounts/keys.ts';
import type { ApiKeyRecord } from '../../src/access/key-repo.ts';
import type { AccountKeys } from '../../src/accounts/api-keys.ts';
import type { KeyUsageMinute, UsageReads } from '../../src/access/usage.ts';
import type { AuthService } from '../../src/accounts/auth.ts';
import type { DappRecord, DappService } from '../../src/accounts/dapps.ts';
import type { Account } from '../../src/accounts/types.ts';
import type { OperationTotals } from '../../src/access/usage.ts';
import type { AccountApp, NamedKeyOperation, VersionDocument } from '../../src/accounts/app-usage.ts';
import type { AccountService } from '../../src/accounts/account-service.ts';
import type { Caller } from '../../src/accounts/guards.ts';
import type { PartnerService } from '../../src/names/partners.ts';
import type { DocumentUsageRequest, KeyUsageRequest } from '../../src/accounts/usage-views.ts';

/** The part of DataLoader's API resolvers use: `load` batches the keys of one tick into one read. */
export interface Loader<K, V> {
  load(key: K): Promise<V>;
  loadMany(keys: readonly K[]): Promise<Array<V | Error>>;
  /** Forgets one key's cached value (after a mutation changed it). */
  clear(key: K): unknown;
}

export interface AccountsLoaders {
  /** Account id → account; null when unknown. Every `Account.__resolveReference` uses it. */
  account: Loader<string, Account | null>;
  /** Account id → its API keys, newest first (full records: `ApiKey.owner` needs the owner id). */
  apiKeysByOwner: Loader<string, ApiKeyRecord[]>;
  /** Account id → its dapp listing requests, newest first (full records: `reviewedBy` is hidden by its resolver). */
  dappsByAccount: Loader<string, DappRecord[]>;
  /**
   * (key id, minutes) → the key's last `minutes` minutes of usage, oldest first, zeros included. One read of the
   * statistics for every key of the batch (over the widest window asked), whatever the number of keys.
   */
  keyUsage: Loader<KeyUsageRequest, KeyUsageMinute[]>;
  /** Account id → its apps with their key ids and versions (`appsOfAccounts`: three reads per batch). */
  apps: Loader<string, AccountApp[]>;
  /** (app id, version) → its documents (`documentsOfVersions`: one read per batch). */
  versionDocuments: Loader<{ appId: string; version: string }, VersionDocument[]>;
  /** (document of a version, days) → its usage (`UsageReads.documentUsageMany` over the widest window: one read). */
  documentUsage: Loader<DocumentUsageRequest, OperationTotals>;
  /** (key id, days) → its usage per operation, named (`operationsOfKeys` + `namedOperations`: two reads). */
  keyOperations: Loader<{ keyId: string; days: number }, NamedKeyOperation[]>;
}

/** Who is asking ({@link Caller}: judged by the domain's guards, `src/accounts/guards.ts`), and the services. */
export interface AccountsContext extends Caller {
  /** True when the bearer token is the operator's ADMIN_TOKEN (compared in constant time). */
  operator: boolean;
  /**
   * The signed-in account, read on first call and memoised for the request: null without a bearer token and for the
   * operator; rejects with INVALID_SESSION / SESSION_EXPIRED when the token is not a current session.
   */
  viewer(): Promise<Account | null>;
  /**
   * Forgets the memoised session, so that the next `viewer()` reads it again: after `signOut` (the token is then
   * refused) and after a role change (the role is read anew), as REST reads both on every request.
   */
  forgetViewer(): void;
  /** The bearer token when it is taken for a session token (not the operator's); null without one. */
  sessionToken: string | null;
  /** Sign-in and sessions: the same service, hence the same challenge domain, as REST's `/api/auth/*`. */
  auth: AuthService;
  /** Clock of the usage windows (UNIX ms). */
  now: () => number;
  /** Request statistics (`ApiKey.usage`, `serviceStats`): the process's recorder, or a reader over the store. */
  usage: UsageReads;
  /** API keys: review and look-ups (`src/accounts/keys.ts`; look-ups through the gate's `src/access/key-lookup.ts`). */
  keys: ApiKeyService;
  /** API keys scoped to their owner, exactly as the REST `/account/api-keys` routes use them. */
  ownKeys: AccountKeys;
  /** Dapp listing requests, their review and the store. */
  dapps: DappService;
  /** Accounts by id, the administrators and their role changes. */
  accounts: AccountService;
  /** Partner credentials (`createPartner`). */
  partners: PartnerService;
  loaders: AccountsLoaders;
}
