/**
 * A resolver whose store does not answer, as the router receives it from a subgraph in process and over HTTP
 * (`mountSubgraph` on loopback, the router's `HttpSource`): the field's error is `STORE_UNAVAILABLE` with
 * `retryAfter`, not the internal error an unexpected exception becomes, and the fields that did resolve keep their
 * data. (The whole product under a real PostgreSQL outage: test/e2e/store-outage.e2e.ts.)
 */
import Fastify from 'fastify';
import { GraphQLInt, GraphQLObjectType, GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSource } from '../../router/sources/http.ts';
import { InProcessSource } from '../../router/sources/in-process.ts';
import type { SubgraphAnswer } from '../../router/sources/source.ts';
import { silentLogger } from '../../src/core/log.ts';
import { StoreUnavailableError } from '../../src/store/unavailable.ts';
import { mountSubgraph } from '../../subgraphs/shared/http.ts';
import type { MountedSubgraph } from '../../subgraphs/shared/http.ts';
import type { Subgraph } from '../../subgraphs/shared/subgraph.ts';

/** `fine` answers; `stored` fails as a repository does when the server is gone; `broken` is a plain bug. */
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      fine: { type: GraphQLInt, resolve: () => 1 },
      stored: {
        type: GraphQLInt,
        resolve: () =>
          Promise.reject(new StoreUnavailableError(new Error('connect ECONNREFUSED 127.0.0.1:5432'))),
      },
      broken: {
        type: GraphQLInt,
        resolve: () => {
          throw new TypeError('cannot read properties of undefined');
        },
      },
    },
  }),
});
const subgraph: Subgraph<unknown> = { name: 'accounts', schema, contextFor: () => ({}) };

const app = Fastify();
let mounted: MountedSubgraph;
let url: string;

beforeAll(async () => {
  mounted = await mountSubgraph(app, subgraph);
  url = `${await app.listen({ port: 0, host: '127.0.0.1' })}/graphql`;
});
afterAll(async () => {
  await mounted?.stop();
  await app.close();
});

const expected: SubgraphAnswer = {
  data: { fine: 1, stored: null, broken: null },
  errors: [
    // The synchronous failure is reported first.
    {
      message: 'internal error in the accounts service',
      path: ['broken'],
      extensions: { code: 'INTERNAL_SERVER_ERROR', subgraph: 'accounts' },
    },
    {
      message: 'the data store is not answering: retry in 5 seconds',
      locations: [{ line: 1, column: 8 }],
      path: ['stored'],
      extensions: { code: 'STORE_UNAVAILABLE', retryAfter: 5 },
    },
  ],
};
const fetch = { query: '{ fine stored broken }', variables: {} };

describe('a store outage under a resolver, at the router', () => {
  it('in process: STORE_UNAVAILABLE beside the data that resolved', async () => {
    const answer = await new InProcessSource(subgraph, 5_000, silentLogger).process(fetch, {});
    expect(answer).toEqual(expected);
  });

  it('over HTTP: the subgraph sends STORE_UNAVAILABLE (no http extension) and the router keeps it', async () => {
    const source = new HttpSource('accounts', url, 5_000, silentLogger);
    try {
      expect(await source.process(fetch, {})).toEqual(expected);
    } finally {
      source.close();
    }
  });
});
