/**
 * Who may do what in the accounts subgraph (resolvers.ts lists the rules): REST's guards over the request context.
 */
import type { ApiKeyRecord } from '../../src/access/key-repo.ts';
import type { OwnerKeyView } from '../../src/accounts/api-keys.ts';
import type { Account, Actor } from '../../src/accounts/types.ts';
import type { AccountsContext } from './context.ts';
import { adminsOnly, authRequired, notYourKey, notYours } from './errors.ts';

/** The signed-in account; AUTH_REQUIRED without a session (the operator token is none). */
export async function signedIn(ctx: AccountsContext): Promise<Account> {
  const me = await ctx.viewer();
  if (!me) throw authRequired();
  return me;
}

/** Who reviews: the operator, or an administrator's session; AUTH_REQUIRED / FORBIDDEN otherwise (REST's admin guard). */
export async function reviewer(ctx: AccountsContext): Promise<Actor> {
  if (ctx.operator) return { kind: 'operator' };
  const me = await signedIn(ctx);
  if (me.role !== 'admin') throw adminsOnly();
  return { kind: 'account', account: me };
}

/** Whether the caller may see administrators-only fields; never throws for a missing session (those fields are null). */
export async function seesAdminFields(ctx: AccountsContext): Promise<boolean> {
  if (ctx.operator) return true;
  return (await ctx.viewer())?.role === 'admin';
}

/** The account itself, an administrator or the operator; AUTH_REQUIRED / FORBIDDEN otherwise. */
export async function ownerOrReviewer(
  ctx: AccountsContext,
  accountId: string,
  what: 'API keys' | 'dapp requests' | 'apps',
): Promise<void> {
  if (ctx.operator) return;
  const me = await signedIn(ctx);
  if (me.id !== accountId && me.role !== 'admin') throw notYours(what, accountId);
}

/** An owner-scoped key view with its owner id back, so that `ApiKey.owner` can resolve it for administrators. */
export const owned = (view: OwnerKeyView, account: Account): ApiKeyRecord => ({
  ...view,
  ownerId: account.id,
});

/** The owner id of a key parent: present on full records, absent on owner views (whose owner is the caller). */
export const ownerIdOf = (k: OwnerKeyView): string | null =>
  'ownerId' in k && typeof k.ownerId === 'string' ? k.ownerId : null;

/** The key's owner, an administrator or the operator; AUTH_REQUIRED / FORBIDDEN otherwise. */
export async function keyOwnerOrReviewer(ctx: AccountsContext, key: OwnerKeyView): Promise<void> {
  if (ctx.operator) return;
  const me = await signedIn(ctx);
  if (me.role !== 'admin' && ownerIdOf(key) !== me.id) throw notYourKey();
}
