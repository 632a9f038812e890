/**
 * GraphQL errors of every subgraph: the REST catalogs' codes and messages carried as `extensions.code`, with
 * `extensions.http.status` (docs/graph.md, "Errors"). A store that does not answer is `STORE_UNAVAILABLE`
 * (`src/core/store-outage.ts`), however deep in a resolver it failed.
 */
import { GraphQLError } from 'graphql';
import type { GraphQLFormattedError } from 'graphql';
import type { ApiError } from '../../src/core/errors.ts';
import { clientErrorOf, isStoreUnavailable, storeErrors } from '../../src/core/store-outage.ts';

/** The GraphQL error of an `ApiError` ({@link ApiError.toGraphQL}). */
export function fromApiError(e: ApiError): GraphQLError {
  const { message, extensions } = e.toGraphQL();
  return new GraphQLError(message, { extensions });
}

/** Runs `fn`, turning a thrown `ApiError` (from a shared REST or domain helper) or store outage into its GraphQL form. */
export function graphqlErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw asGraphQL(e);
  }
}

/** Awaits `fn()`, turning a rejected `ApiError` or store outage into its GraphQL form. */
export async function graphqlErrorsAsync<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw asGraphQL(e);
  }
}

function asGraphQL(e: unknown): unknown {
  const known = e instanceof GraphQLError ? null : clientErrorOf(e);
  return known ? fromApiError(known) : e;
}

/**
 * A resolver's error as the client reads it when the store did not answer under it: `formatted` (its path and
 * locations kept) with the message and extensions of `STORE_UNAVAILABLE`; null for any other `original` (the
 * resolver's thrown value). Used where subgraph errors leave a subgraph: over HTTP (`http.ts`) and in the embedded
 * router, which would otherwise report an internal error.
 */
export function storeOutageError(
  formatted: GraphQLFormattedError,
  original: unknown,
): GraphQLFormattedError | null {
  if (!isStoreUnavailable(original)) return null;
  const { message, extensions } = storeErrors.unavailable().toGraphQL();
  return { ...formatted, message, extensions };
}
