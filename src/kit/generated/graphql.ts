/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type KitPriceQueryVariables = Exact<{
  ids: Array<string | number> | string | number;
  currency: string;
  first: number;
}>;


export type KitPriceQuery = { coins: { edges: Array<{ node: { id: string, price: number | null } }> } };

export type KitResolveNameQueryVariables = Exact<{
  name: string;
  asset: string;
}>;


export type KitResolveNameQuery = { resolveName: { name: string, asset: string, address: string, updatedAt: string } | null, name: { name: string } | null };


export const KitPriceDocument = {"__meta__":{"hash":"sha256:4434484cae39dd284c11c0e3b1a390182f1e54f8d0f53bf47b7fc94393149e82"}} as unknown as DocumentNode<KitPriceQuery, KitPriceQueryVariables>;
export const KitResolveNameDocument = {"__meta__":{"hash":"sha256:ad437487afd1f6edcfce77d5f27e74f6b24688e2951d1430b6344df404ef8d96"}} as unknown as DocumentNode<KitResolveNameQuery, KitResolveNameQueryVariables>;