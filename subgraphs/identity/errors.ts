/**
 * GraphQL errors of the identity subgraph: the REST catalogs' codes and messages (`src/names/errors.ts`,
 * `src/accounts/errors.ts`, `src/core/params.ts`) carried as `extensions.code`, with `extensions.http.status`.
 * The name service's own errors (NAME_TAKEN, CHALLENGE_EXPIRED, …) pass through `graphqlErrorsAsync` unchanged.
 */
import type { GraphQLError } from 'graphql';
import { accountErrors } from '../../src/accounts/errors.ts';
import { paramError } from '../../src/core/params.ts';
import { nameErrors } from '../../src/names/errors.ts';
import { fromApiError } from '../shared/errors.ts';

export { fromApiError, graphqlErrors, graphqlErrorsAsync } from '../shared/errors.ts';

/** No `Authorization: Bearer <session token>` on a field that needs an account: 401 AUTH_REQUIRED. */
export const authRequired = (): GraphQLError => fromApiError(accountErrors.authRequired());

/** `Account.names` of another account: 403 FORBIDDEN. */
export const namesForbidden = (): GraphQLError => fromApiError(nameErrors.namesOfAnother());

/** A string argument longer than REST accepts in the same body field: 400 INVALID_PARAMETER naming the argument. */
export const tooLong = (arg: string, max: number): GraphQLError =>
  fromApiError(paramError(arg, `must be at most ${max} characters`));
