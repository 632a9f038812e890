/**
 * Who may do what in the accounts subgraph (resolvers.ts lists the rules): the domain's guards
 * (`src/accounts/guards.ts`, REST's too) over the request context, their `ApiError` rendered as GraphQL errors.
 */
import * as guards from '../../src/accounts/guards.ts';
import type { OwnerKeyView } from '../../src/accounts/api-keys.ts';
import type { Account, Actor } from '../../src/accounts/types.ts';
import { graphqlErrorsAsync } from '../shared/errors.ts';
import type { AccountsContext } from './context.ts';

export { owned, ownerIdOf } from '../../src/accounts/guards.ts';

/** The signed-in account; AUTH_REQUIRED without a session (the operator token is none). */
export const signedIn = (ctx: AccountsContext): Promise<Account> =>
  graphqlErrorsAsync(() => guards.signedIn(ctx));

/** Who reviews: the operator, or an administrator's session; AUTH_REQUIRED / FORBIDDEN otherwise. */
export const reviewer = (ctx: AccountsContext): Promise<Actor> =>
  graphqlErrorsAsync(() => guards.reviewer(ctx));

/** Whether the caller may see administrators-only fields; never throws for a missing session (those fields are null). */
export const seesAdminFields = (ctx: AccountsContext): Promise<boolean> =>
  graphqlErrorsAsync(() => guards.seesAdminFields(ctx));

/** The account itself, an administrator or the operator; AUTH_REQUIRED / FORBIDDEN otherwise. */
export const ownerOrReviewer = (
  ctx: AccountsContext,
  accountId: string,
  what: 'API keys' | 'dapp requests' | 'apps',
): Promise<void> => graphqlErrorsAsync(() => guards.ownerOrReviewer(ctx, accountId, what));

/** The key's owner, an administrator or the operator; AUTH_REQUIRED / FORBIDDEN otherwise. */
export const keyOwnerOrReviewer = (ctx: AccountsContext, key: OwnerKeyView): Promise<void> =>
  graphqlErrorsAsync(() => guards.keyOwnerOrReviewer(ctx, key));
