/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type DappPricesQueryVariables = Exact<{
  ids: Array<string | number> | string | number;
  currency?: string;
}>;


export type DappPricesQuery = { __typename: 'Query', coins: { __typename: 'CoinConnection', edges: Array<{ __typename: 'CoinEdge', node: { __typename: 'Coin', id: string, symbol: string, name: string, price: number | null, lastUpdated: string | null, changes: { __typename: 'PriceChanges', h24: number | null } } }> } };

export type DappMarketQueryVariables = Exact<{
  currency?: string;
}>;


export type DappMarketQuery = { __typename: 'Query', global: { __typename: 'GlobalMarket', activeCryptocurrencies: number, totalMarketCap: number | null, updatedAt: string } };


export const DappPricesDocument = {"__meta__":{"hash":"sha256:04d72d4b4b94f76f7cce7445c3b1f1b8a0e26618ef4b90451806b37fd6ca2ffe"}} as unknown as DocumentNode<DappPricesQuery, DappPricesQueryVariables>;
export const DappMarketDocument = {"__meta__":{"hash":"sha256:6651a3c5edc88dffbb39aed4f05693896325bbc8831186b71629ec2e04415c2d"}} as unknown as DocumentNode<DappMarketQuery, DappMarketQueryVariables>;