/**
 * The router's `/graphql` as third-party software sees it, over real HTTP on loopback (the embedded graph listening
 * on a port): graphql-http's full server audit as it ships (`auditServer`: every request at once, keyless; every
 * MUST and SHOULD passes, and the MAYs we chose, docs/graph.md "GraphQL over HTTP"), and the clients developers use, each with its default settings — urql
 * (queries by GET), graphql-request (POST, and its GET mode), Apollo Client's HttpLink, BatchHttpLink and
 * persisted-queries link (hashes by GET). Each client's requests are recorded (method and whether the query text
 * was sent) by the `fetch` it is handed, which passes them on unchanged.
 */
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { ApolloLink } from '@apollo/client';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { cacheExchange, createClient, fetchExchange } from '@urql/core';
import { ClientError, GraphQLClient } from 'graphql-request';
import { auditServer } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wallet } from '../accounts/harness.ts';
import type { GraphHarness } from './router-harness.ts';
import { httpGraphHarness } from './support/router-http.ts';

let g: GraphHarness;
let url: string;

beforeAll(async () => {
  g = await httpGraphHarness();
  await g.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(g.app.server.address() as AddressInfo).port}/graphql`;
}, 120_000);

afterAll(async () => {
  await g?.close();
});

/**
 * What a client sent: `GET` or `POST`, and `+text` when the request carried the query text. `withoutSignal`: the
 * client's abort signal is not passed on — urql aborts its request when the result has been taken (`toPromise`),
 * and Node's fetch may then reject a promise nobody awaits any more (an unhandled `AbortError` in the test run).
 */
function recorder(withoutSignal = false): { seen: string[]; fetch: typeof fetch } {
  const seen: string[] = [];
  return {
    seen,
    fetch: async (input, init) => {
      const method = init?.method ?? 'GET';
      const where =
        method === 'GET' ? String(input instanceof Request ? input.url : input) : String(init?.body);
      seen.push(`${method}${/query|"query"/.test(where) ? '+text' : ''}`);
      return fetch(input, withoutSignal ? { ...init, signal: null } : init);
    },
  };
}

const COIN = '{ coin(id: "litecoin") { id symbol } }';
const LITECOIN = { coin: { id: 'litecoin', symbol: 'ltc' } };

describe('graphql-http audit of /graphql', () => {
  it('passes every MUST, SHOULD and MAY audit, run as it ships (all at once, keyless)', async () => {
    // graphql-http's own runner: every audit's request at once (61), from one address without a key. Over the
    // caller's places in flight, the rest wait their turn (CONCURRENCY_QUEUE) instead of being refused.
    const results = await auditServer({ url });
    const level = (l: string) => results.filter((r) => r.name.startsWith(`${l} `));
    // The whole audit ran (graphql-http 1.23: 13 MUST, 23 SHOULD, 25 MAY).
    expect([level('MUST').length, level('SHOULD').length, level('MAY').length]).toEqual([13, 23, 25]);
    expect(results.filter((r) => r.status !== 'ok').map((r) => `${r.name}: ${r.reason}`)).toEqual([]);
  }, 60_000);
});

describe('clients with their default settings', () => {
  it('urql: queries by GET (no preflight header, no cookie), mutations by POST', async () => {
    const r = recorder(true);
    const client = createClient({ url, exchanges: [cacheExchange, fetchExchange], fetch: r.fetch });
    const q = await client.query(COIN, {}).toPromise();
    expect(q.error).toBeUndefined();
    // urql's document cache adds __typename to every selection.
    expect(q.data).toEqual({ coin: { __typename: 'Coin', ...LITECOIN.coin } });
    const bad = await client.query('{ coin(id: "Not An Id!") { id } }', {}).toPromise();
    expect(bad.error?.graphQLErrors.map((e) => e.extensions['code'])).toEqual(['INVALID_COIN_ID']);
    const m = await client
      .mutation('mutation ($a: String!) { requestSignInChallenge(address: $a) { address } }', {
        a: wallet().address,
      })
      .toPromise();
    expect(m.error).toBeUndefined();
    expect(r.seen).toEqual(['GET+text', 'GET+text', 'POST+text']);
  });

  it('graphql-request: POST by default, and GET in its GET mode', async () => {
    for (const [method, sent] of [
      [undefined, 'POST+text'],
      ['GET', 'GET+text'],
    ] as const) {
      const r = recorder();
      const client = new GraphQLClient(url, { fetch: r.fetch, ...(method ? { method } : {}) });
      expect(await client.request(COIN)).toEqual(LITECOIN);
      const error = await client.request('{ search(query: "") { coins { id } } }').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ClientError);
      expect((error as ClientError).response.errors?.map((e) => e.extensions?.['code'])).toEqual([
        'INVALID_PARAMETER',
      ]);
      expect(r.seen).toEqual([sent, sent]);
    }
  });

  it('Apollo Client: HttpLink, BatchHttpLink (one batch request), persisted queries (the hash by GET)', async () => {
    const client = (link: ApolloLink) => new ApolloClient({ link, cache: new InMemoryCache() });
    const doc = gql(COIN);
    const http = recorder();
    const plain = await client(new HttpLink({ uri: url, fetch: http.fetch })).query({ query: doc });
    expect(plain.data).toEqual({ coin: { __typename: 'Coin', ...LITECOIN.coin } });
    expect(http.seen).toEqual(['POST+text']);

    const batch = recorder();
    const batched = client(new BatchHttpLink({ uri: url, fetch: batch.fetch }));
    const [a, b] = await Promise.all([
      batched.query({ query: doc }),
      batched.query({ query: gql('{ currencies }') }),
    ]);
    expect(a.data).toEqual(plain.data);
    expect((b.data as { currencies: string[] }).currencies).toContain('usd');
    expect(batch.seen).toEqual(['POST+text']);

    // The hash alone by GET; unknown at first (PERSISTED_QUERY_NOT_FOUND), so the client sends the text once,
    // then a new client's hash alone is answered.
    const pq = recorder();
    const persisted = () =>
      client(
        new PersistedQueryLink({
          sha256: (q: string) => createHash('sha256').update(q).digest('hex'),
          useGETForHashedQueries: true,
        }).concat(new HttpLink({ uri: url, fetch: pq.fetch })),
      );
    const query = gql('{ coin(id: "dogecoin") { id symbol } }');
    const first = await persisted().query({ query });
    const second = await persisted().query({ query });
    expect(second.data).toEqual(first.data);
    expect(first.data).toEqual({ coin: { __typename: 'Coin', id: 'dogecoin', symbol: 'doge' } });
    expect(pq.seen).toEqual(['GET', 'POST+text', 'GET']);
  });
});
