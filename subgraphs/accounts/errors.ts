/**
 * GraphQL errors of the accounts subgraph: the codes and messages of the accounts catalogs (`src/accounts/errors.ts`,
 * `src/accounts/key-errors.ts`, `src/accounts/dapp-validate.ts`) carried as `extensions.code`, with
 * `extensions.http.status`. An error whose REST form has headers keeps them in `extensions.http.headers` (the router
 * sets them on its response: `www-authenticate` on 401, `retry-after` on 429); the dapp limit's wait is also
 * `extensions.retryAfter` (whole seconds, set by its catalog entry), which clients see even where the `http`
 * extension is stripped.
 */
import type { GraphQLError } from 'graphql';
import { accountErrors } from '../../src/accounts/errors.ts';
import { fromApiError } from '../shared/errors.ts';

/** No session where one is needed (REST's 401 AUTH_REQUIRED). */
export const authRequired = (): GraphQLError => fromApiError(accountErrors.authRequired());

/** A review field or mutation asked by a signed-in non-administrator (REST's 403 FORBIDDEN). */
export const adminsOnly = (): GraphQLError => fromApiError(accountErrors.forbidden());

/** The usage of a key that is not the caller's, asked by a signed-in non-administrator (403 FORBIDDEN). */
export const notYourKey = (): GraphQLError => fromApiError(accountErrors.notYourKey());

/** Another account's API keys or dapp requests, asked by a signed-in non-administrator: 403 FORBIDDEN. */
export const notYours = (what: 'API keys' | 'dapp requests' | 'apps', accountId: string): GraphQLError =>
  fromApiError(accountErrors.notYours(what, accountId));
