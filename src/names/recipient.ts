/** The recipient of a name transfer: a wallet account by LTC address (created if new) or an existing account by id. */
import { randomUUID } from 'node:crypto';
import * as accounts from '../accounts/account-repo.ts';
import { writeAudit } from '../accounts/audit.ts';
import { normaliseAddress } from '../accounts/auth.ts';
import type { Account } from '../accounts/types.ts';
import { accountErrors } from '../accounts/errors.ts';
import type { Queryable } from '../store/db.ts';
import { nameErrors } from './errors.ts';
import type { TransferTarget } from './types.ts';
import { isLowercaseUuid } from '../core/ids.ts';

/** The canonical LTC address of `toAddress` (as sign-in normalises it); 400 INVALID_ADDRESS naming the field. */
export function recipientAddress(input: string): string {
  try {
    return normaliseAddress(input);
  } catch {
    throw accountErrors.invalidAddress('toAddress');
  }
}

/** The wallet account of an LTC address, created (and audited) when new, as a first sign-in would create it. */
export async function recipientByAddress(tx: Queryable, address: string, at: number): Promise<Account> {
  const existing = await accounts.selectByAddress(tx, address);
  if (existing) return existing;
  const fresh: Account = { id: randomUUID(), address, role: 'user', createdAt: at };
  if (await accounts.insertIfAbsent(tx, fresh)) {
    await writeAudit(
      tx,
      {
        actor: 'system',
        action: 'account.create',
        entity: 'account',
        entityId: fresh.id,
        fromState: null,
        toState: fresh.role,
        reason: 'received a name transfer',
      },
      at,
    );
  }
  return (await accounts.selectByAddress(tx, address)) ?? fresh;
}

/** An existing account by id; 404 ACCOUNT_NOT_FOUND otherwise. */
export async function recipientById(tx: Queryable, target: TransferTarget): Promise<Account> {
  const id = 'toAccountId' in target ? target.toAccountId.trim().toLowerCase() : '';
  if (!isLowercaseUuid(id)) throw nameErrors.accountNotFound();
  const r = await tx.query<{ address: string }>('SELECT address FROM accounts WHERE id = $1', [id]);
  const acct = r.rows[0] ? await accounts.selectByAddress(tx, r.rows[0].address) : null;
  if (!acct) throw nameErrors.accountNotFound();
  return acct;
}
