/**
 * GraphQL errors of the markets subgraph: the REST catalogs' codes and messages (`src/market/errors.ts`,
 * `src/core/params.ts`, `src/core/errors.ts`) carried as `extensions.code`, with `extensions.http.status`.
 */
import type { GraphQLError } from 'graphql';
import { notReady as serviceNotReady } from '../../src/core/errors.ts';
import { paramError } from '../../src/core/params.ts';
import { priceErrors } from '../../src/market/errors.ts';

export { fromApiError, graphqlErrors } from '../shared/errors.ts';
import { fromApiError } from '../shared/errors.ts';

export const notReady = (): GraphQLError => fromApiError(serviceNotReady());
export const unknownCurrency = (code: string): GraphQLError =>
  fromApiError(priceErrors.unknownCurrency('currency', code));
export const unknownCategory = (id: string): GraphQLError => fromApiError(priceErrors.unknownCategory(id));
export const badCoinId = (): GraphQLError => fromApiError(priceErrors.badCoinId());
export const coinNotFound = (id: string): GraphQLError => fromApiError(priceErrors.coinNotFound(id));
/** A malformed argument: REST's `INVALID_PARAMETER` (400). */
export const invalidArgument = (name: string, expected: string): GraphQLError =>
  fromApiError(paramError(name, expected));
