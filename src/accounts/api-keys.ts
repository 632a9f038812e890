import type { ApiKeyService } from './keys.ts';
import type { ApiKeyRecord } from '../access/key-repo.ts';
import { keyErrors } from './key-errors.ts';
import type { Plan } from '../access/plans.ts';
import type { Account } from './types.ts';

/** A key as its owner sees it: everything but the owner (it is them), the secret and its hash. */
export type OwnerKeyView = Omit<ApiKeyRecord, 'ownerId'>;

/**
 * API keys seen from one account: every operation is scoped to the keys it owns. A key of another account answers
 * 404 `KEY_NOT_FOUND`, exactly like a key that does not exist, so an id never reveals that a key exists.
 */
export class AccountKeys {
  constructor(private readonly keys: ApiKeyService) {}

  /** Requests a key: pending until an administrator approves it. The key is in this result only. */
  async create(
    account: Account,
    input: { plan: Plan; description: string },
  ): Promise<{ key: string; record: OwnerKeyView }> {
    const { key, record } = await this.keys.create({
      plan: input.plan,
      description: input.description,
      ownerId: account.id,
      actor: { kind: 'account', account },
    });
    return { key, record: view(record) };
  }

  /** The account's keys, newest first. */
  async list(account: Account): Promise<OwnerKeyView[]> {
    return (await this.keys.list({ ownerId: account.id })).map(view);
  }

  async get(account: Account, id: string): Promise<OwnerKeyView> {
    const k = await this.keys.get(id);
    if (k.ownerId !== account.id) throw keyErrors.notFound(id);
    return view(k);
  }

  /** approved → revoked (409 KEY_STATE_CONFLICT from any other state). */
  async revoke(account: Account, id: string, reason?: string): Promise<OwnerKeyView> {
    return view(
      await this.keys.revoke(id, {
        ownerId: account.id,
        actor: { kind: 'account', account },
        ...(reason !== undefined ? { reason } : {}),
      }),
    );
  }
}

function view(r: ApiKeyRecord): OwnerKeyView {
  const { ownerId: _ownerId, ...rest } = r;
  return rest;
}
