/**
 * The shape every subgraph factory returns, so that the router can embed any of them in-process and
 * `coinwallet serve --only subgraph:<name>` can serve any of them on its own port.
 */
import type { GraphQLSchema } from 'graphql';

/** Names of the four subgraphs (also their names in the supergraph). */
export const SUBGRAPH_NAMES = ['markets', 'identity', 'bridge', 'accounts'] as const;
export type SubgraphName = (typeof SUBGRAPH_NAMES)[number];

/**
 * What a subgraph sees of the incoming request. In-process the router passes the client's headers; over HTTP the
 * subgraph's listener passes its own request headers (the router forwards `authorization`).
 * Header names are lowercase.
 */
export interface SubgraphRequest {
  headers: Readonly<Record<string, string | undefined>>;
}

export interface Subgraph<C> {
  name: SubgraphName;
  schema: GraphQLSchema;
  /** A fresh context (fresh DataLoaders) for one request. May reject with a GraphQL error (e.g. a bad session). */
  contextFor(req: SubgraphRequest): C | Promise<C>;
  /**
   * Optional: what lets the embedded router answer a repeated query from memory (`router/response-cache.ts`). A
   * subgraph offers it when its answers can be a function of one versioned value (the markets subgraph: the market
   * snapshot), compared by identity.
   */
  responseCache?: ResponseCacheFacet<C>;
}

export interface ResponseCacheFacet<C> {
  /** The version answers would be computed from now; null when there is none (e.g. no snapshot yet). */
  current(): object | null;
  /**
   * After a request: the version everything `ctx` answered was computed from, or null when the request also read
   * anything else (history, the clock, the caller, another store) or nothing versioned at all — then its response
   * is not cached.
   */
  readBy(ctx: C): object | null;
  /**
   * Optional: the version `ctx` reads, taken now when it has not read one yet (so that an answer kept for that
   * version may stand in for executing against `ctx`); null when there is none.
   */
  pin?(ctx: C): object | null;
}
