/**
 * GET answers to documents named by id carry `Cache-Control` and a strong ETag per data snapshot
 * (`router/http-cache.ts`): the same ETag for every request of one snapshot whatever the caller's remaining budget,
 * `If-None-Match` → 304 with no body, a new ETag after the market's next tick; query text by GET, POSTs, answers with
 * errors and requests with `Authorization` get neither. The embedded graph (test market, the four subgraphs, the
 * router on Fastify), the committed client's manifest as the operator's persisted operations.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAnswerValidators, GRAPH_GET_MAX_AGE_S } from '../../router/http-cache.ts';
import { loadManifest } from '../../router/plugins/persisted-operations.ts';
import { TEST_NOW } from '../support/price-app.ts';
import { movePrice } from '../support/price-move.ts';
import { graphHarness } from '../graph/router-harness.ts';
import type { GraphHarness } from '../graph/router-harness.ts';

const FILE = 'clients/graph/generated/persisted-documents.json';
const MANIFEST = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, string>;
const idOf = (name: string): string => {
  const id = Object.keys(MANIFEST).find((k) => MANIFEST[k]?.startsWith(`query ${name}(`));
  if (!id) throw new Error(`no query ${name}`);
  return id;
};

let clock = TEST_NOW;
let g: GraphHarness;
let key: string;
beforeAll(async () => {
  g = await graphHarness({ now: () => clock, persisted: { manifest: loadManifest(FILE), mode: 'allow' } });
  key = (await g.makeKey('pro')).key;
}, 120_000);
afterAll(async () => {
  await g?.close();
});

const prices = (variables: unknown = { ids: ['litecoin'], currency: 'eur' }) =>
  `/graphql?documentId=${encodeURIComponent(idOf('Prices'))}&variables=${encodeURIComponent(JSON.stringify(variables))}`;

const get = (url: string, headers: Record<string, string> = {}) =>
  g.inject({ method: 'GET', url, headers: { 'x-sp-api-key': key, accept: 'application/json', ...headers } });

describe('GET by documentId: Cache-Control and ETag per data snapshot', () => {
  it('one ETag per snapshot whatever the budget left; If-None-Match → 304; the next tick → a new ETag', async () => {
    const a = await get(prices());
    expect(a.status).toBe(200);
    expect(a.headers['cache-control']).toBe(`public, max-age=${GRAPH_GET_MAX_AGE_S}`);
    const etag = String(a.headers['etag']);
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    expect(String(a.headers['vary'])).toMatch(/Accept/);

    // The caller's remaining budget changed (it is in the body), the ETag did not.
    const b = await get(prices());
    expect(b.text).not.toBe(a.text);
    expect(b.headers['etag']).toBe(etag);

    const hit = await get(prices(), { 'if-none-match': etag });
    expect(hit.status).toBe(304);
    expect(hit.text).toBe('');
    expect(hit.headers['etag']).toBe(etag);
    expect(hit.headers['cache-control']).toBe(`public, max-age=${GRAPH_GET_MAX_AGE_S}`);
    expect(hit.headers['content-type']).toBeUndefined();
    // Weak comparison, in a list, as every conditional route here.
    expect((await get(prices(), { 'if-none-match': `"x", W/${etag}` })).status).toBe(304);

    // Other variables are another representation.
    const eur = await get(prices({ ids: ['litecoin'], currency: 'usd' }));
    expect(eur.headers['etag']).not.toBe(etag);

    clock += 60_000;
    await movePrice(g.tm.market, 'litecoin', 1.5);
    const next = await get(prices(), { 'if-none-match': etag });
    expect(next.status).toBe(200);
    expect(next.headers['etag']).not.toBe(etag);
    expect((await get(prices(), { 'if-none-match': String(next.headers['etag']) })).status).toBe(304);
  });

  it('the APQ form of an id (extensions.persistedQuery) is cacheable too', async () => {
    const hash = idOf('Global').slice('sha256:'.length);
    const ext = encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }));
    const r = await get(`/graphql?extensions=${ext}&variables=${encodeURIComponent('{"currency":"usd"}')}`);
    expect(r.status).toBe(200);
    expect(r.headers['etag']).toMatch(/^"/);
  });

  it('query text by GET, POST, an answer with errors, a session: no validators', async () => {
    const text = await get(`/graphql?query=${encodeURIComponent('{ global { activeCryptocurrencies } }')}`);
    expect(text.status).toBe(200);
    expect(text.headers['etag']).toBeUndefined();
    expect(text.headers['cache-control']).toBeUndefined();

    const post = await g.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-sp-api-key': key, 'content-type': 'application/json' },
      payload: JSON.stringify({ documentId: idOf('Global'), variables: { currency: 'usd' } }),
    });
    expect(post.status).toBe(200);
    expect(post.headers['etag']).toBeUndefined();

    const bad = await get(prices({ ids: ['litecoin'], currency: 'xyz' }));
    expect(bad.headers['etag']).toBeUndefined();

    const session = await get(prices(), { authorization: 'Bearer not-a-session' });
    expect(session.headers['etag']).toBeUndefined();
  });
});

describe('getAnswerValidators', () => {
  const req = (url: string, method = 'GET') => ({ method, url, headers: {} });
  const ok = '{"data":{"a":1},"extensions":{"cost":{"estimated":1,"budget":{"limit":10,"remaining":9}}}}';
  it('is the same for two budgets, different for other data', () => {
    const a = getAnswerValidators(req('/graphql?documentId=x'), { status: 200, body: ok });
    const b = getAnswerValidators(req('/graphql?documentId=x'), {
      status: 200,
      body: ok.replace('"remaining":9', '"remaining":3'),
    });
    const c = getAnswerValidators(req('/graphql?documentId=x'), {
      status: 200,
      body: ok.replace('1}', '2}'),
    });
    expect(a?.etag).toBe(b?.etag);
    expect(c?.etag).not.toBe(a?.etag);
  });
  it('is null for a refusal, a stream, a HEAD-less method, text with an id', () => {
    expect(getAnswerValidators(req('/graphql?documentId=x'), { status: 400, body: ok })).toBeNull();
    expect(
      getAnswerValidators(req('/graphql?documentId=x'), { status: 200, body: ok, stream: {} }),
    ).toBeNull();
    expect(getAnswerValidators(req('/graphql?documentId=x', 'POST'), { status: 200, body: ok })).toBeNull();
    expect(getAnswerValidators(req('/graphql?documentId=x&query=y'), { status: 200, body: ok })).toBeNull();
    expect(getAnswerValidators(req('/graphql'), { status: 200, body: ok })).toBeNull();
  });
});
