/**
 * What the identity resolvers share: the argument limits (REST's body limits for the same fields) and the mapping of
 * a resolution outcome onto the `NameResolutionResult` union.
 */
import type { Resolution, ResolutionOutcome } from '../../src/names/types.ts';
import type { AddressNotLinked, NameNotFound } from './generated/resolvers-types.ts';

/** Longest name, address, signature, nonce and account id accepted (REST's body limits for the same fields). */
export const MAX_NAME = 100;
export const MAX_ADDRESS = 200;
export const MAX_SIGNATURE = 200;
export const MAX_NONCE = 64;
export const MAX_ACCOUNT_ID = 64;

/**
 * A resolution outcome as a member of `NameResolutionResult`: the resolution, or the catalog's error as data (its code
 * and message as a GraphQL error would carry them, so a private name answers byte for byte as a missing one). A code
 * the union has no member for stays an error rather than being mislabelled.
 */
export function resolutionResult(o: ResolutionOutcome): Resolution | NameNotFound | AddressNotLinked {
  if (o.kind === 'found') return o.resolution;
  const { code } = o.error;
  const message = o.error.graphMessage ?? o.error.message;
  if (code === 'NAME_NOT_FOUND') return { __typename: 'NameNotFound', code, message, name: o.name };
  if (code === 'ADDRESS_NOT_LINKED')
    return { __typename: 'AddressNotLinked', code, message, name: o.name, asset: o.asset };
  throw o.error;
}
