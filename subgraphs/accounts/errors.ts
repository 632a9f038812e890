/**
 * GraphQL errors of the accounts subgraph: the codes and messages of the accounts catalogs (`src/rest/accounts/
 * errors.ts`, `src/access/errors.ts`, `src/accounts/dapp-validate.ts`) carried as `extensions.code`, with
 * `extensions.http.status`. An error whose REST form has headers keeps them in `extensions.http.headers` (the router
 * sets them on its response: `www-authenticate` on 401, `retry-after` on 429); the dapp limit's wait is also
 * `extensions.retryAfter` (whole seconds), which clients see even where the `http` extension is stripped.
 */
import { GraphQLError } from 'graphql';
import { ApiError } from '../../src/core/errors.ts';
import { accountErrors } from '../../src/accounts/errors.ts';
import { fromApiError } from '../shared/errors.ts';

/** The GraphQL form of an accounts `ApiError`: `fromApiError` plus the REST headers (see the file comment). */
export function fromAccountsError(e: ApiError): GraphQLError {
  const base = fromApiError(e);
  const headers = Object.entries(e.headers);
  if (headers.length === 0) return base;
  const retry = e.headers['retry-after'];
  return new GraphQLError(base.message, {
    extensions: {
      ...base.extensions,
      http: { status: e.status, headers: Object.fromEntries(headers) },
      ...(retry !== undefined ? { retryAfter: Number(retry) } : {}),
    },
  });
}

/** Awaits `fn()`, turning a rejected `ApiError` of a domain or REST helper into its GraphQL form. */
export async function accountsErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw e instanceof ApiError ? fromAccountsError(e) : e;
  }
}

/** No session where one is needed (REST's 401 AUTH_REQUIRED). */
export const authRequired = (): GraphQLError => fromAccountsError(accountErrors.authRequired());

/** A review field or mutation asked by a signed-in non-administrator (REST's 403 FORBIDDEN). */
export const adminsOnly = (): GraphQLError => fromAccountsError(accountErrors.forbidden());

/**
 * The usage of a key that is not the caller's, asked by a signed-in non-administrator: 403 FORBIDDEN. The message
 * names no owner (the caller may not know whose key it is).
 */
export const notYourKey = (): GraphQLError =>
  fromAccountsError(
    new ApiError(
      403,
      'FORBIDDEN',
      "only the key's owner and administrators see its usage: sign in as its owner",
    ),
  );

/** Another account's API keys or dapp requests, asked by a signed-in non-administrator: 403 FORBIDDEN. */
export const notYours = (what: 'API keys' | 'dapp requests', accountId: string): GraphQLError =>
  fromAccountsError(
    new ApiError(
      403,
      'FORBIDDEN',
      `only account ${accountId} itself and administrators see its ${what}: sign in as that account`,
    ),
  );
