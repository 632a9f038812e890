/**
 * Accounts and what they hold, as the transports read them: accounts by id, the administrators and their role
 * changes (`admins.ts`), and the apps of accounts (`app-usage.ts`), each a batch read whatever the number of ids.
 * Built once per process (`src/services.ts`); the REST admin routes and the accounts subgraph (its loaders too) call
 * it instead of the repositories.
 */
import type { Db } from '../store/db.ts';
import { selectByIds } from './account-repo.ts';
import { grantAdmin, listAdmins, revokeAdmin } from './admins.ts';
import type { RoleChange } from './admins.ts';
import { appsOfAccounts, documentsOfVersions } from './app-usage.ts';
import type { AccountApp, VersionDocument } from './app-usage.ts';
import type { Account, Actor } from './types.ts';

export interface AccountServiceOptions {
  /** Clock of role changes (their audit entries), UNIX ms; default `Date.now`. */
  now?: (() => number) | undefined;
}

export class AccountService {
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    opts: AccountServiceOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
  }

  /** Accounts by id in one read, in the order asked; null for an unknown (or malformed) id. */
  byIds(ids: readonly string[]): Promise<Array<Account | null>> {
    return selectByIds(this.db, ids);
  }

  /** Every administrator, oldest first. */
  admins(): Promise<Account[]> {
    return listAdmins(this.db);
  }

  /** Gives the account of `address` the admin role (creating the account when new). */
  grantAdmin(address: string, actor: Actor, reason: string | null = null): Promise<RoleChange> {
    return grantAdmin(this.db, address, actor, this.now(), reason);
  }

  /** Takes the admin role from the account of `address` (404 ACCOUNT_NOT_FOUND when there is none). */
  revokeAdmin(address: string, actor: Actor, reason: string | null = null): Promise<RoleChange> {
    return revokeAdmin(this.db, address, actor, this.now(), reason);
  }

  /** The apps of many accounts (oldest first) with their key ids and versions: three reads. */
  appsOf(accountIds: readonly string[]): Promise<AccountApp[][]> {
    return appsOfAccounts(this.db, accountIds);
  }

  /** The documents of many app versions in one read, per version as asked. */
  versionDocuments(versions: readonly { appId: string; version: string }[]): Promise<VersionDocument[][]> {
    return documentsOfVersions(this.db, versions);
  }
}
