/**
 * GraphQL errors of every subgraph: the REST catalogs' codes and messages carried as `extensions.code`, with
 * `extensions.http.status` (docs/graph.md, "Errors").
 */
import { GraphQLError } from 'graphql';
import { ApiError } from '../../src/core/errors.ts';

/** The GraphQL error of an `ApiError` ({@link ApiError.toGraphQL}). */
export function fromApiError(e: ApiError): GraphQLError {
  const { message, extensions } = e.toGraphQL();
  return new GraphQLError(message, { extensions });
}

/** Runs `fn`, turning a thrown `ApiError` (from a shared REST or domain helper) into its GraphQL form. */
export function graphqlErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw e instanceof ApiError ? fromApiError(e) : e;
  }
}

/** Awaits `fn()`, turning a rejected `ApiError` into its GraphQL form. */
export async function graphqlErrorsAsync<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw e instanceof ApiError ? fromApiError(e) : e;
  }
}
