/**
 * Third-party GraphQL clients in Node, each driven exactly as its README shows (no fetch wrapper, no option the
 * README does not show), against the embedded graph on a loopback port (`support/clients-server.ts`, one server for
 * the file): urql, graphql-request, Apollo Client (`HttpLink`, `BatchHttpLink`, the persisted-queries link, `@defer`),
 * graphql-sse and graphql-ws. What each request carried is noted by the server. The same clients run in Chromium:
 * `test/browser/clients.e2e.ts`. A client that needed an option to work with the router would be the router's bug or
 * a limitation named in docs/graph.md ("Clients").
 */
import { createHash } from 'node:crypto';
import type { ApolloLink } from '@apollo/client';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { cacheExchange, createClient as createUrql, fetchExchange } from '@urql/core';
import type { OperationResult } from '@urql/core';
import { ClientError, GraphQLClient } from 'graphql-request';
import { createClient as createSse } from 'graphql-sse';
import { createClient as createWs } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { wallet } from '../accounts/harness.ts';
import { startClientsServer } from './support/clients-server.ts';
import type { ClientsServer } from './support/clients-server.ts';

let s: ClientsServer;
let url: string;

beforeAll(async () => {
  s = await startClientsServer();
  url = s.url;
}, 120_000);

afterAll(async () => {
  await s?.close();
});

/** Errors nobody handled while a test ran (urql's abort after its result was one, issue 31). */
const unhandled: unknown[] = [];
const note = (e: unknown) => unhandled.push(e);
beforeEach(() => {
  s.seen.length = 0;
  unhandled.length = 0;
  process.on('unhandledRejection', note);
  process.on('uncaughtException', note);
});
afterEach(async () => {
  // A turn or two for a late rejection to surface.
  await new Promise((r) => setTimeout(r, 50));
  process.off('unhandledRejection', note);
  process.off('uncaughtException', note);
  expect(unhandled).toEqual([]);
});

const COIN = '{ coin(id: "litecoin") { id symbol } }';
const LITECOIN = { coin: { id: 'litecoin', symbol: 'ltc' } };
/** The coin's price deferred: the first payload has its id and symbol, a later one its price. */
const DEFERRED = '{ coin(id: "litecoin") { id symbol ... @defer { price } } }';
const SUBSCRIPTION = 'subscription { prices(ids: ["litecoin"], currency: "usd") { id price } }';

describe('urql', () => {
  it('queries by GET (no preflight header, no cookie), mutations by POST, and no uncaught abort', async () => {
    const client = createUrql({ url, exchanges: [cacheExchange, fetchExchange] });
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
    expect(s.seen).toEqual(['GET+text', 'GET+text', 'POST+text']);
  });

  it('@defer: the deferred fragment arrives after the rest (multipart/mixed)', async () => {
    const client = createUrql({ url, exchanges: [cacheExchange, fetchExchange] });
    const results: OperationResult[] = [];
    await new Promise<void>((resolve, reject) => {
      const { unsubscribe } = client.query(DEFERRED, {}).subscribe((r) => {
        results.push(r);
        if (r.error) reject(r.error);
        if (!r.hasNext) {
          resolve();
          queueMicrotask(unsubscribe);
        }
      });
    });
    const first = results[0]?.data as { coin: Record<string, unknown> };
    expect(results[0]?.hasNext).toBe(true);
    expect(first.coin).toEqual({ __typename: 'Coin', id: 'litecoin', symbol: 'ltc' });
    const last = results.at(-1)?.data as { coin: { price: unknown } };
    expect(typeof last.coin.price).toBe('number');
  });
});

describe('graphql-request', () => {
  it('POST by default, and GET in its GET mode', async () => {
    for (const [method, sent] of [
      [undefined, 'POST+text'],
      ['GET', 'GET+text'],
    ] as const) {
      s.seen.length = 0;
      const client = new GraphQLClient(url, method ? { method } : {});
      expect(await client.request(COIN)).toEqual(LITECOIN);
      const error = await client.request('{ search(query: "") { coins { id } } }').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ClientError);
      expect((error as ClientError).response.errors?.map((e) => e.extensions?.['code'])).toEqual([
        'INVALID_PARAMETER',
      ]);
      expect(s.seen).toEqual([sent, sent]);
    }
  });

  it('an operation with @defer is answered whole, as JSON (graphql-request reads JSON only)', async () => {
    const data = await new GraphQLClient(url).request<{ coin: { price: unknown } }>(DEFERRED);
    expect(typeof data.coin.price).toBe('number');
  });
});

describe('Apollo Client', () => {
  const client = (link: ApolloLink) => new ApolloClient({ link, cache: new InMemoryCache() });

  it('HttpLink (POST), BatchHttpLink (one batch request)', async () => {
    const doc = gql(COIN);
    const plain = await client(new HttpLink({ uri: url })).query({ query: doc });
    expect(plain.data).toEqual({ coin: { __typename: 'Coin', ...LITECOIN.coin } });
    expect(s.seen).toEqual(['POST+text']);

    s.seen.length = 0;
    const batched = client(new BatchHttpLink({ uri: url }));
    const [a, b] = await Promise.all([
      batched.query({ query: doc }),
      batched.query({ query: gql('{ currencies }') }),
    ]);
    expect(a.data).toEqual(plain.data);
    expect((b.data as { currencies: string[] }).currencies).toContain('usd');
    expect(s.seen).toEqual(['POST+text']);
  });

  it('persisted queries: the hash by GET, the text once when it is unknown', async () => {
    // The link's documented set-up: a sha256 function and, for CDN-friendly hashes, GET.
    const persisted = () =>
      client(
        new PersistedQueryLink({
          sha256: (q: string) => createHash('sha256').update(q).digest('hex'),
          useGETForHashedQueries: true,
        }).concat(new HttpLink({ uri: url })),
      );
    const query = gql('{ coin(id: "dogecoin") { id symbol } }');
    const first = await persisted().query({ query });
    const second = await persisted().query({ query });
    expect(second.data).toEqual(first.data);
    expect(first.data).toEqual({ coin: { __typename: 'Coin', id: 'dogecoin', symbol: 'doge' } });
    expect(s.seen).toEqual(['GET', 'POST+text', 'GET']);
  });

  it('@defer with its incremental handler: streaming, then complete (multipart/mixed)', async () => {
    const c = new ApolloClient({
      link: new HttpLink({ uri: url }),
      cache: new InMemoryCache(),
      incrementalHandler: new Defer20220824Handler(),
    });
    const states: { dataState: string; data: unknown }[] = [];
    await new Promise<void>((resolve, reject) => {
      const sub = c.watchQuery({ query: gql(DEFERRED) }).subscribe({
        next: (r) => {
          states.push({ dataState: r.dataState, data: r.data });
          if (r.dataState === 'complete') {
            resolve();
            queueMicrotask(() => sub.unsubscribe());
          }
        },
        error: reject,
      });
    });
    const streaming = states.find((x) => x.dataState === 'streaming');
    expect(streaming?.data).toEqual({ coin: { __typename: 'Coin', id: 'litecoin', symbol: 'ltc' } });
    const complete = states.at(-1)?.data as { coin: { price: unknown } };
    expect(typeof complete.coin.price).toBe('number');
    expect(s.seen).toEqual(['POST+text']);
  });
});

describe('graphql-sse', () => {
  it('a query, a deferred query (incrementally) and a subscription over SSE', async () => {
    const client = createSse({ url });
    try {
      const q = await client.iterate({ query: COIN }).next();
      expect(q.value).toEqual({ data: LITECOIN, extensions: expect.any(Object) as unknown });

      const parts: unknown[] = [];
      for await (const part of client.iterate({ query: DEFERRED })) parts.push(part);
      expect(parts[0]).toMatchObject({ data: LITECOIN, hasNext: true });
      expect(parts.at(-1)).toMatchObject({ hasNext: false, incremental: [{ path: ['coin'] }] });

      const sub = client.iterate({ query: SUBSCRIPTION });
      const first = await sub.next();
      expect((first.value as { data: { prices: { id: string }[] } }).data.prices).toEqual([
        expect.objectContaining({ id: 'litecoin' }),
      ]);
      await sub.return?.();
    } finally {
      client.dispose();
    }
  });
});

describe('graphql-ws', () => {
  it('a query and a subscription over WebSocket', async () => {
    const client = createWs({ url: url.replace('http:', 'ws:'), webSocketImpl: WebSocket });
    try {
      const q = await client.iterate({ query: COIN }).next();
      expect(q.value?.data).toEqual(LITECOIN);
      const sub = client.iterate({ query: SUBSCRIPTION });
      const first = await sub.next();
      expect((first.value?.data as { prices: { id: string }[] }).prices).toEqual([
        expect.objectContaining({ id: 'litecoin' }),
      ]);
      await sub.return?.();
    } finally {
      await client.dispose();
    }
  });
});
