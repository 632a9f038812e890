/**
 * Who may do what with accounts, API keys, dapp requests and apps: the rules both transports apply, the REST guards
 * (`src/rest/accounts/guards-impl.ts`) and the accounts subgraph's (`subgraphs/accounts/guards.ts`), so that a caller
 * is judged alike whichever one it asks. A transport only says who is asking ({@link Caller}) and renders the
 * `ApiError` these throw (401 AUTH_REQUIRED, 403 FORBIDDEN).
 */
import type { ApiKeyRecord } from '../access/key-repo.ts';
import { bearerToken, tokenMatches } from '../core/bearer.ts';
import type { OwnerKeyView } from './api-keys.ts';
import { accountErrors } from './errors.ts';
import type { Account, Actor } from './types.ts';

/** Who is asking: the operator (`ADMIN_TOKEN`), or whoever the session token names. */
export interface Caller {
  /** True when the bearer token is the operator's (compared in constant time). */
  operator: boolean;
  /** The signed-in account; null without a session token (and for the operator). Rejects for a bad session. */
  viewer(): Promise<Account | null>;
}

/**
 * What an `Authorization` header presents: the operator's token, or a session token (null without a bearer token).
 * `adminToken` null → nobody is the operator.
 */
export function presented(
  authorization: string | string[] | undefined,
  adminToken: string | null,
): { operator: boolean; sessionToken: string | null } {
  const token = bearerToken(authorization);
  const operator = tokenMatches(token, adminToken);
  return { operator, sessionToken: operator ? null : token };
}

/** The signed-in account; 401 AUTH_REQUIRED without a session (the operator token is none). */
export async function signedIn(c: Caller): Promise<Account> {
  const me = await c.viewer();
  if (!me) throw accountErrors.authRequired();
  return me;
}

/** Who reviews: the operator, or an administrator's session; 401 AUTH_REQUIRED / 403 FORBIDDEN otherwise. */
export async function reviewer(c: Caller): Promise<Actor> {
  if (c.operator) return { kind: 'operator' };
  const me = await signedIn(c);
  if (me.role !== 'admin') throw accountErrors.forbidden();
  return { kind: 'account', account: me };
}

/** Whether the caller may see administrators-only fields; never throws for a missing session. */
export async function seesAdminFields(c: Caller): Promise<boolean> {
  if (c.operator) return true;
  return (await c.viewer())?.role === 'admin';
}

/** The account itself, an administrator or the operator; 401 AUTH_REQUIRED / 403 FORBIDDEN otherwise. */
export async function ownerOrReviewer(
  c: Caller,
  accountId: string,
  what: 'API keys' | 'dapp requests' | 'apps',
): Promise<void> {
  if (c.operator) return;
  const me = await signedIn(c);
  if (me.id !== accountId && me.role !== 'admin') throw accountErrors.notYours(what, accountId);
}

/** The owner id of a key: present on full records, absent on owner views (whose owner is the caller). */
export const ownerIdOf = (k: OwnerKeyView): string | null =>
  'ownerId' in k && typeof k.ownerId === 'string' ? k.ownerId : null;

/** An owner-scoped key view with its owner id back (so that an administrator can be shown the owner). */
export const owned = (view: OwnerKeyView, account: Account): ApiKeyRecord => ({
  ...view,
  ownerId: account.id,
});

/** The key's owner, an administrator or the operator; 401 AUTH_REQUIRED / 403 FORBIDDEN otherwise. */
export async function keyOwnerOrReviewer(c: Caller, key: OwnerKeyView): Promise<void> {
  if (c.operator) return;
  const me = await signedIn(c);
  if (me.role !== 'admin' && ownerIdOf(key) !== me.id) throw accountErrors.notYourKey();
}
