/**
 * The router as an HTTP service, part two: automatic persisted queries, and persisted-operation manifests in
 * safelist and allow mode. Built over the embedded graph of `support/router-http.ts`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../router/index.ts';
import type { Router } from '../../router/index.ts';
import type { GqlBody, GraphHarness } from './router-harness.ts';
import { codes, graphPost, httpGraphHarness, send, sha256 } from './support/router-http.ts';

let g: GraphHarness;
/** Persisted operations, safelist and allow. */
let safelist: Router;
let allowList: Router;

const MANIFEST_ID = 'coin-by-id-v1';
const LISTED = 'query CoinName { coin(id: "bitcoin") { id name } }';
const LISTED_BY_HASH = 'query Currencies { currencies }';

beforeAll(async () => {
  g = await httpGraphHarness();
  const manifest = new Map([
    [MANIFEST_ID, LISTED],
    [sha256(LISTED_BY_HASH), LISTED_BY_HASH],
  ]);
  const inProcess = { kind: 'in-process' as const, subgraphs: g.subgraphs };
  safelist = await createRouter({
    access: g.access,
    persisted: { manifest, mode: 'safelist' },
    subgraphs: inProcess,
  });
  allowList = await createRouter({
    access: g.access,
    persisted: { manifest, mode: 'allow' },
    subgraphs: inProcess,
  });
}, 120_000);

afterAll(async () => {
  await safelist?.stop();
  await allowList?.stop();
  await g?.close();
});

const post = graphPost(() => g);

describe('automatic persisted queries', () => {
  const query = '{ coin(id: "litecoin") { id symbol } }';
  const hash = sha256(query);
  const apq = { persistedQuery: { version: 1, sha256Hash: hash } };

  it('hash only → PERSISTED_QUERY_NOT_FOUND; hash + query registers; then the hash alone runs (POST and GET)', async () => {
    const miss = await post({ extensions: apq });
    expect(miss.status).toBe(200);
    expect(codes(miss.json as GqlBody)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    expect((miss.json as GqlBody).data).toBeUndefined();
    const register = await post({ query, extensions: apq });
    expect((register.json as GqlBody).data).toEqual({ coin: { id: 'litecoin', symbol: 'ltc' } });
    const byHash = await post({ extensions: apq });
    expect(byHash.json).toEqual({
      data: { coin: { id: 'litecoin', symbol: 'ltc' } },
      extensions: { cost: expect.objectContaining({ estimated: 1, max: 2500, plan: 'keyless' }) },
    });
    const viaGet = await g.inject({
      method: 'GET',
      url: `/graphql?extensions=${encodeURIComponent(JSON.stringify(apq))}`,
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(viaGet.status).toBe(200);
    expect((viaGet.json as GqlBody).data).toEqual({ coin: { id: 'litecoin', symbol: 'ltc' } });
  });

  it('a hash that does not match the query is refused', async () => {
    const r = await post({
      query,
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256('other') } },
    });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      errors: [{ message: 'provided sha does not match query', extensions: { code: 'BAD_REQUEST' } }],
    });
  });
});

describe('persisted operations manifest', () => {
  const listedData = { coin: { id: 'bitcoin', name: 'Bitcoin' } };

  it('safelist: a manifest id runs, as documentId (POST, GET) or as extensions.persistedQuery.sha256Hash', async () => {
    expect((await send(safelist, { documentId: MANIFEST_ID })).json.data).toEqual(listedData);
    const viaGet = await send(safelist, undefined, { method: 'GET', search: `documentId=${MANIFEST_ID}` });
    expect(viaGet.json.data).toEqual(listedData);
    const asHash = await send(safelist, {
      extensions: { persistedQuery: { version: 1, sha256Hash: MANIFEST_ID } },
    });
    expect(asHash.json.data).toEqual(listedData);
    const byHash = await send(safelist, {
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(LISTED_BY_HASH) } },
    });
    expect((byHash.json.data as { currencies: string[] }).currencies).toContain('usd');
  });

  it('safelist: a listed body runs as text too (with or without an APQ hash)', async () => {
    expect((await send(safelist, { query: LISTED })).json.data).toEqual(listedData);
    const withHash = await send(safelist, {
      query: LISTED,
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(LISTED) } },
    });
    expect(withHash.json.data).toEqual(listedData);
  });

  it('safelist: free-form operations are refused with PERSISTED_QUERY_NOT_IN_LIST, before parsing', async () => {
    const notInList = {
      errors: [
        {
          message:
            'this router only runs persisted operations: send the documentId (or extensions.persistedQuery.sha256Hash) of an operation in its manifest',
          extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' },
        },
      ],
    };
    g.resetCounts();
    for (const body of [
      { query: '{ coin(id: "bitcoin") { id } }' },
      { query: '{{{ not even graphql' },
      {
        query: '{ coin(id: "bitcoin") { id } }',
        extensions: { persistedQuery: { version: 1, sha256Hash: 'x' } },
      },
      {},
    ]) {
      const r = await send(safelist, body);
      expect(r.status).toBe(400);
      expect(r.json).toEqual(notInList);
    }
    // A batch with one free-form operation is refused whole.
    const batch = await send(safelist, [{ documentId: MANIFEST_ID }, { query: '{ currencies }' }]);
    expect(batch.json).toEqual(notInList);
    expect(g.counts.contexts.markets).toBe(0);
  });

  it('an unknown id is PERSISTED_QUERY_NOT_FOUND (documentId in both modes, an APQ hash alone in safelist)', async () => {
    const notFound = (id: string) => ({
      errors: [
        {
          message: `no persisted operation has the id "${id}": regenerate the client's documents or send the query text`,
          extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
        },
      ],
    });
    for (const router of [safelist, allowList]) {
      const r = await send(router, { documentId: 'no-such-op' });
      expect(r.status).toBe(400);
      expect(r.json).toEqual(notFound('no-such-op'));
    }
    const hashOnly = await send(safelist, {
      extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } },
    });
    expect(hashOnly.json).toEqual(notFound('f'.repeat(64)));
  });

  it('allow: manifest ids run and free-form operations (and APQ) still work', async () => {
    expect((await send(allowList, { documentId: MANIFEST_ID })).json.data).toEqual(listedData);
    const free = await send(allowList, { query: '{ coin(id: "ethereum") { id } }' });
    expect(free.json.data).toEqual({ coin: { id: 'ethereum' } });
    const q = '{ coin(id: "dogecoin") { id } }';
    const apq = { persistedQuery: { version: 1, sha256Hash: sha256(q) } };
    expect(codes((await send(allowList, { extensions: apq })).json)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    expect((await send(allowList, { query: q, extensions: apq })).json.data).toEqual({
      coin: { id: 'dogecoin' },
    });
    expect((await send(allowList, { extensions: apq })).json.data).toEqual({ coin: { id: 'dogecoin' } });
  });
});
