/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** A name and a coin to resolve, one item of `resolveNames`. */
export type NameQuery = {
  /** Uppercase ticker (for example `LTC`). */
  asset: string;
  /** The full name with its suffix (for example `alice.cw`). */
  name: string;
};

export type KitLivePricesSubscriptionVariables = Exact<{
  ids: Array<string | number> | string | number;
  currency: string;
}>;


export type KitLivePricesSubscription = { prices: Array<{ id: string, price: number | null, change24h: number | null, confidence: number | null, updatedAt: string | null }> };

export type KitPriceQueryVariables = Exact<{
  ids: Array<string | number> | string | number;
  currency: string;
  first: number;
}>;


export type KitPriceQuery = { coins: { edges: Array<{ node: { id: string, price: number | null } }> } };

export type KitResolveNamesQueryVariables = Exact<{
  names: Array<NameQuery> | NameQuery;
}>;


export type KitResolveNamesQuery = { resolveNames: Array<
    | { __typename: 'AddressNotLinked', name: string }
    | { __typename: 'NameNotFound', name: string }
    | { __typename: 'NameResolution', name: string, address: string, updatedAt: string }
   | null> };

export type KitResolveNameQueryVariables = Exact<{
  name: string;
  asset: string;
}>;


export type KitResolveNameQuery = { nameResolution:
    | { __typename: 'AddressNotLinked', name: string }
    | { __typename: 'NameNotFound', name: string }
    | { __typename: 'NameResolution', name: string, address: string, updatedAt: string }
   | null };


export const KitLivePricesDocument = {"__meta__":{"hash":"sha256:774e0704e1aca2fc49c2ce957f4d53852a4c781f51ca6f6da2bae05015fa8282"}} as unknown as DocumentNode<KitLivePricesSubscription, KitLivePricesSubscriptionVariables>;
export const KitPriceDocument = {"__meta__":{"hash":"sha256:4434484cae39dd284c11c0e3b1a390182f1e54f8d0f53bf47b7fc94393149e82"}} as unknown as DocumentNode<KitPriceQuery, KitPriceQueryVariables>;
export const KitResolveNamesDocument = {"__meta__":{"hash":"sha256:dda124258a119e12f084cb624ffa951a40fd6a6f322613c306f4cd8fd0c0030f"}} as unknown as DocumentNode<KitResolveNamesQuery, KitResolveNamesQueryVariables>;
export const KitResolveNameDocument = {"__meta__":{"hash":"sha256:5570d51922b3e2ecef6ee6c562586e2f2a4b2fbc83039fb1608567702e7256ae"}} as unknown as DocumentNode<KitResolveNameQuery, KitResolveNameQueryVariables>;