import { randomUUID } from 'node:crypto';
import { accountErrors } from './errors.ts';
import type { Db, Queryable } from '../store/db.ts';
import * as repo from './account-repo.ts';
import { writeAudit } from './audit.ts';
import { normaliseAddress } from './auth.ts';
import { actorLabel } from './types.ts';
import type { Account, Actor, Role } from './types.ts';

/**
 * The admin model: administrators are accounts with the `admin` role. The operator (ADMIN_TOKEN, `coinwallet admin
 * grant`) or an administrator grants the role by address; an account that has never signed in is created with it,
 * so the first administrator can be named before their first sign-in. Every role change is audited in its own
 * transaction; granting a role an account already has changes nothing and writes nothing.
 */
export interface RoleChange {
  account: Account;
  /** False when the account already had the role (nothing written). */
  changed: boolean;
}

/** Gives the account of `address` the admin role (creating the account when new). */
export async function grantAdmin(
  db: Db,
  address: string,
  actor: Actor,
  at: number,
  reason: string | null = null,
): Promise<RoleChange> {
  const addr = normaliseAddress(address);
  return db.transaction(async (tx) => {
    let acct = await repo.selectByAddress(tx, addr, true);
    if (!acct) {
      const fresh: Account = { id: randomUUID(), address: addr, role: 'admin', createdAt: at };
      if (await repo.insertIfAbsent(tx, fresh)) {
        await audit(tx, actor, fresh.id, null, 'admin', 'grant_admin', reason, at);
        return { account: fresh, changed: true };
      }
      acct = await repo.selectByAddress(tx, addr, true);
      if (!acct) throw new Error(`account ${addr} vanished inside its transaction`);
    }
    return setRole(tx, acct, 'admin', actor, at, reason);
  });
}

/** Takes the admin role from the account of `address` (404 ACCOUNT_NOT_FOUND when there is none). */
export async function revokeAdmin(
  db: Db,
  address: string,
  actor: Actor,
  at: number,
  reason: string | null = null,
): Promise<RoleChange> {
  const addr = normaliseAddress(address);
  return db.transaction(async (tx) => {
    const acct = await repo.selectByAddress(tx, addr, true);
    if (!acct) throw accountErrors.accountNotFound(addr);
    return setRole(tx, acct, 'user', actor, at, reason);
  });
}

/** Every administrator, oldest first. */
export function listAdmins(db: Db): Promise<Account[]> {
  return repo.selectByRole(db, 'admin');
}

async function setRole(
  tx: Queryable,
  acct: Account,
  role: Role,
  actor: Actor,
  at: number,
  reason: string | null,
): Promise<RoleChange> {
  if (acct.role === role) return { account: acct, changed: false };
  const updated = await repo.updateRole(tx, acct.id, role);
  await audit(
    tx,
    actor,
    acct.id,
    acct.role,
    role,
    role === 'admin' ? 'grant_admin' : 'revoke_admin',
    reason,
    at,
  );
  return { account: updated, changed: true };
}

function audit(
  tx: Queryable,
  actor: Actor,
  id: string,
  fromState: Role | null,
  toState: Role,
  verb: 'grant_admin' | 'revoke_admin',
  reason: string | null,
  at: number,
): Promise<void> {
  return writeAudit(
    tx,
    {
      actor: actorLabel(actor),
      action: `account.${verb}`,
      entity: 'account',
      entityId: id,
      fromState,
      toState,
      reason,
    },
    at,
  );
}
