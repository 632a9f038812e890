/* eslint-disable */
import * as types from './graphql.ts';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "subscription KitLivePrices($ids: [ID!]!, $currency: String!) {\n  prices(ids: $ids, currency: $currency) {\n    id\n    price\n    change24h\n    confidence\n    updatedAt\n  }\n}": typeof types.KitLivePricesDocument,
    "query KitPrice($ids: [ID!]!, $currency: String!, $first: Int!) {\n  coins(ids: $ids, first: $first) {\n    edges {\n      node {\n        id\n        price(currency: $currency)\n      }\n    }\n  }\n}": typeof types.KitPriceDocument,
    "query KitResolveNames($names: [NameQuery!]!) {\n  resolveNames(names: $names) {\n    __typename\n    ... on NameResolution {\n      name\n      address\n      updatedAt\n    }\n    ... on NameNotFound {\n      name\n    }\n    ... on AddressNotLinked {\n      name\n    }\n  }\n}": typeof types.KitResolveNamesDocument,
    "query KitResolveName($name: String!, $asset: String!) {\n  nameResolution(name: $name, asset: $asset) {\n    __typename\n    ... on NameResolution {\n      name\n      address\n      updatedAt\n    }\n    ... on NameNotFound {\n      name\n    }\n    ... on AddressNotLinked {\n      name\n    }\n  }\n}": typeof types.KitResolveNameDocument,
};
const documents: Documents = {
    "subscription KitLivePrices($ids: [ID!]!, $currency: String!) {\n  prices(ids: $ids, currency: $currency) {\n    id\n    price\n    change24h\n    confidence\n    updatedAt\n  }\n}": types.KitLivePricesDocument,
    "query KitPrice($ids: [ID!]!, $currency: String!, $first: Int!) {\n  coins(ids: $ids, first: $first) {\n    edges {\n      node {\n        id\n        price(currency: $currency)\n      }\n    }\n  }\n}": types.KitPriceDocument,
    "query KitResolveNames($names: [NameQuery!]!) {\n  resolveNames(names: $names) {\n    __typename\n    ... on NameResolution {\n      name\n      address\n      updatedAt\n    }\n    ... on NameNotFound {\n      name\n    }\n    ... on AddressNotLinked {\n      name\n    }\n  }\n}": types.KitResolveNamesDocument,
    "query KitResolveName($name: String!, $asset: String!) {\n  nameResolution(name: $name, asset: $asset) {\n    __typename\n    ... on NameResolution {\n      name\n      address\n      updatedAt\n    }\n    ... on NameNotFound {\n      name\n    }\n    ... on AddressNotLinked {\n      name\n    }\n  }\n}": types.KitResolveNameDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "subscription KitLivePrices($ids: [ID!]!, $currency: String!) {\n  prices(ids: $ids, currency: $currency) {\n    id\n    price\n    change24h\n    confidence\n    updatedAt\n  }\n}"): (typeof documents)["subscription KitLivePrices($ids: [ID!]!, $currency: String!) {\n  prices(ids: $ids, currency: $currency) {\n    id\n    price\n    change24h\n    confidence\n    updatedAt\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query KitPrice($ids: [ID!]!, $currency: String!, $first: Int!) {\n  coins(ids: $ids, first: $first) {\n    edges {\n      node {\n        id\n        price(currency: $currency)\n      }\n    }\n  }\n}"): (typeof documents)["query KitPrice($ids: [ID!]!, $currency: String!, $first: Int!) {\n  coins(ids: $ids, first: $first) {\n    edges {\n      node {\n        id\n        price(currency: $currency)\n      }\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query KitResolveNames($names: [NameQuery!]!) {\n  resolveNames(names: $names) {\n    __typename\n    ... on NameResolution {\n      name\n      address\n      updatedAt\n    }\n    ... on NameNotFound {\n      name\n    }\n    ... on AddressNotLinked {\n      name\n    }\n  }\n}"): (typeof documents)["query KitResolveNames($names: [NameQuery!]!) {\n  resolveNames(names: $names) {\n    __typename\n    ... on NameResolution {\n      name\n      address\n      updatedAt\n    }\n    ... on NameNotFound {\n      name\n    }\n    ... on AddressNotLinked {\n      name\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query KitResolveName($name: String!, $asset: String!) {\n  nameResolution(name: $name, asset: $asset) {\n    __typename\n    ... on NameResolution {\n      name\n      address\n      updatedAt\n    }\n    ... on NameNotFound {\n      name\n    }\n    ... on AddressNotLinked {\n      name\n    }\n  }\n}"): (typeof documents)["query KitResolveName($name: String!, $asset: String!) {\n  nameResolution(name: $name, asset: $asset) {\n    __typename\n    ... on NameResolution {\n      name\n      address\n      updatedAt\n    }\n    ... on NameNotFound {\n      name\n    }\n    ... on AddressNotLinked {\n      name\n    }\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;