/**
 * The router as an HTTP service: partial results when a subgraph fails (in process and over HTTP), automatic
 * persisted queries and persisted-operation manifests, GraphQL over HTTP (GET, media types, CSRF prevention, bodies
 * it cannot read, batches, health), and a small fuzz that must never produce a 5xx. Built over the embedded graph of
 * `router-harness.ts` with a keyless budget large enough for the fuzz.
 */
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineConfig } from '../../src/product.ts';
import { createRouter } from '../../router/index.ts';
import type { Router, RouterLog } from '../../router/index.ts';
import { mountRouter } from '../../router/http.ts';
import { createMarketsSubgraph } from '../../subgraphs/markets/index.ts';
import { storeOf } from '../../subgraphs/markets/loaders.ts';
import { mountSubgraph } from '../../subgraphs/shared/http.ts';
import type { MountedSubgraph } from '../../subgraphs/shared/http.ts';
import type { Subgraph, SubgraphName } from '../../subgraphs/shared/subgraph.ts';
import { graphHarness } from './router-harness.ts';
import type { GqlBody, GraphHarness, RawResponse } from './router-harness.ts';

let g: GraphHarness;

/** How the wrapped markets subgraph behaves. */
type Mode = 'ok' | 'throw' | 'hang' | 'resolver' | 'down' | 'html';
let mode: Mode = 'ok';
const SECRET = 'SECRET-db-password-hunter2';
/** What the routers over the wrapped markets subgraph logged. */
const logged: { level: string; msg: string; data: unknown }[] = [];
const log: RouterLog = {
  info: (msg, data) => logged.push({ level: 'info', msg, data }),
  warn: (msg, data) => logged.push({ level: 'warn', msg, data }),
  error: (msg, data) => logged.push({ level: 'error', msg, data }),
};
/** In process: the four subgraphs with markets wrapped. */
let flaky: Router;
/** Over HTTP: the four subgraphs served by `mountSubgraph` (markets wrapped), the router calling them. */
let subgraphApp: FastifyInstance;
const mountedSubgraphs: MountedSubgraph[] = [];
let remote: Router;
/** Persisted operations, safelist and allow. */
let safelist: Router;
let allowList: Router;

/** Generous, so that a healthy but busy machine never times out; the slow subgraph takes three times as long. */
const TIMEOUT_MS = 1_000;

beforeAll(async () => {
  g = await graphHarness({ keylessPerMinute: 100_000 });
  const markets = g.subgraphs.find((s) => s.name === 'markets')!;
  // A markets subgraph whose store fails: its resolvers throw a plain Error (not a GraphQLError).
  const broken = createMarketsSubgraph({
    market: g.tm.market,
    engine: engineConfig({ staleAfterMs: 900_000 }),
    store: {
      ...storeOf(g.tm.market),
      snapshot: () => {
        throw new Error(`snapshot read failed: ${SECRET}`);
      },
    },
  });
  const wrapped: Subgraph<unknown> = {
    name: 'markets',
    schema: markets.schema,
    contextFor: async (req) => {
      if (mode === 'throw') throw new Error(`connection refused: ${SECRET}`);
      if (mode === 'hang') await new Promise((r) => setTimeout(r, TIMEOUT_MS * 3));
      if (mode === 'resolver') return broken.contextFor(req);
      return markets.contextFor(req);
    },
  };
  const withWrapped = g.subgraphs.map((s) => (s.name === 'markets' ? wrapped : s));
  flaky = await createRouter({
    access: g.access,
    subgraphTimeoutMs: TIMEOUT_MS,
    log,
    subgraphs: { kind: 'in-process', subgraphs: withWrapped },
  });

  subgraphApp = Fastify();
  subgraphApp.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/markets')) return;
    if (mode === 'down') reply.raw.destroy();
    if (mode === 'html') return reply.code(502).type('text/html').send(`<html>${SECRET}</html>`);
  });
  for (const s of withWrapped) mountedSubgraphs.push(await mountSubgraph(subgraphApp, s, `/${s.name}`));
  await subgraphApp.listen({ port: 0, host: '127.0.0.1' });
  const port = (subgraphApp.server.address() as AddressInfo).port;
  const urls = Object.fromEntries(
    withWrapped.map((s) => [s.name, `http://127.0.0.1:${port}/${s.name}`]),
  ) as Record<SubgraphName, string>;
  remote = await createRouter({
    access: g.access,
    subgraphTimeoutMs: TIMEOUT_MS,
    log,
    subgraphs: { kind: 'http', urls },
  });

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
  // Warm both routers up (first query plans, HTTP connections) before anything is timed.
  for (const r of [flaky, remote])
    await send(r, { query: '{ coin(id: "bitcoin") { id } bridge { label } }' });
}, 120_000);

afterAll(async () => {
  mode = 'ok';
  await flaky?.stop();
  await remote?.stop();
  await safelist?.stop();
  await allowList?.stop();
  for (const m of mountedSubgraphs) await m.stop();
  await subgraphApp?.close();
  await g?.close();
});

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const codes = (b: GqlBody): unknown[] => (b.errors ?? []).map((e) => e.extensions?.['code']);

const MANIFEST_ID = 'coin-by-id-v1';
const LISTED = 'query CoinName { coin(id: "bitcoin") { id name } }';
const LISTED_BY_HASH = 'query Currencies { currencies }';

/** One request straight to a router (no transport). */
async function send(
  router: Router,
  body: unknown,
  o: { method?: string; search?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, string>; json: GqlBody }> {
  const r = await router.handle({
    method: o.method ?? 'POST',
    headers: { 'content-type': 'application/json', 'apollo-require-preflight': 'true', ...o.headers },
    search: o.search ?? '',
    body,
    socketIp: '10.2.0.1',
  });
  return { status: r.status, headers: r.headers, json: JSON.parse(r.body) as GqlBody };
}

async function post(payload: string | unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return g.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

/** Nothing internal in a response: no original error text, no stack trace. */
function expectNoLeak(text: string): void {
  expect(text).not.toContain('SECRET');
  expect(text).not.toContain('stacktrace');
  expect(text).not.toMatch(/\bat .+:\d+:\d+/);
  expect(text).not.toContain('node_modules');
}

describe('partial results when a subgraph fails', () => {
  const BOTH = '{ coin(id: "bitcoin") { id name price } bridge { label coins { ticker coin { id name } } } }';
  const NESTED = '{ bridge { coins { ticker coin { id name } } } }';
  const label = 'Example testnet deployment: illustrative addresses, recorded chain data';

  for (const [kind, router] of [
    ['in process', () => flaky],
    ['over HTTP', () => remote],
  ] as const) {
    it(`${kind}: a healthy markets subgraph answers everything`, async () => {
      mode = 'ok';
      const r = await send(router(), { query: BOTH });
      expect(r.json.errors, JSON.stringify(r.json.errors)).toBeUndefined();
      expect(r.json.data).toEqual({
        coin: { id: 'bitcoin', name: 'Bitcoin', price: expect.any(Number) as number },
        bridge: {
          label,
          coins: [
            { ticker: 'LKY', coin: { id: 'luckycoin', name: 'Luckycoin' } },
            { ticker: 'DOGE', coin: { id: 'dogecoin', name: 'Dogecoin' } },
          ],
        },
      });
    });

    it(`${kind}: an unreachable markets subgraph is SUBGRAPH_UNAVAILABLE; bridge data still arrives`, async () => {
      mode = kind === 'in process' ? 'throw' : 'down';
      logged.length = 0;
      const r = await send(router(), { query: BOTH });
      expect(r.status).toBe(200);
      expect(r.json.data).toEqual({
        coin: null,
        bridge: {
          label,
          coins: [
            { ticker: 'LKY', coin: null },
            { ticker: 'DOGE', coin: null },
          ],
        },
      });
      const unavailable = {
        message: 'the markets service is unavailable: its fields are null in this response; retry later',
        extensions: { code: 'SUBGRAPH_UNAVAILABLE', subgraph: 'markets', serviceName: 'markets' },
      };
      // The root fetch and the entity fetch for the bridge coins each report it.
      expect(r.json.errors).toEqual([unavailable, unavailable]);
      expect(r.json.extensions).toEqual({ cost: { estimated: 10, max: 500, plan: 'keyless' } });
      expectNoLeak(JSON.stringify(r));
      // The operator's log has what the client does not.
      expect(logged.some((l) => l.level === 'warn' && JSON.stringify(l.data).includes('markets'))).toBe(true);
      if (kind === 'in process') expect(JSON.stringify(logged)).toContain(SECRET);
    });

    it(`${kind}: a markets subgraph slower than subgraphTimeoutMs is SUBGRAPH_TIMEOUT`, async () => {
      mode = 'hang';
      logged.length = 0;
      const t0 = Date.now();
      const r = await send(router(), { query: BOTH });
      expect(Date.now() - t0).toBeLessThan(TIMEOUT_MS * 2.5);
      expect(r.json.data).toEqual({
        coin: null,
        bridge: {
          label,
          coins: [
            { ticker: 'LKY', coin: null },
            { ticker: 'DOGE', coin: null },
          ],
        },
      });
      const timedOut = {
        message: `the markets service did not answer within ${TIMEOUT_MS} ms: its fields are null in this response; retry later`,
        extensions: { code: 'SUBGRAPH_TIMEOUT', subgraph: 'markets', serviceName: 'markets' },
      };
      expect(r.json.errors).toEqual([timedOut, timedOut]);
      expect(logged.filter((l) => l.level === 'warn')).toHaveLength(2);
    });

    it(`${kind}: a resolver's unexpected error is "internal error in the markets service", at its path`, async () => {
      mode = 'resolver';
      logged.length = 0;
      const r = await send(router(), { query: BOTH });
      expect(r.json.data).toEqual({
        coin: null,
        bridge: {
          label,
          coins: [
            { ticker: 'LKY', coin: null },
            { ticker: 'DOGE', coin: null },
          ],
        },
      });
      const internal = (path: (string | number)[]) => ({
        message: 'internal error in the markets service',
        path,
        extensions: { code: 'INTERNAL_SERVER_ERROR', subgraph: 'markets', serviceName: 'markets' },
      });
      expect(r.json.errors).toEqual([
        internal(['coin']),
        internal(['bridge', 'coins', 0, 'coin']),
        internal(['bridge', 'coins', 1, 'coin']),
      ]);
      expectNoLeak(JSON.stringify(r));
      expect(JSON.stringify(logged)).toContain(SECRET);
    });

    it(`${kind}: the nested entity call alone (bridge coins → Coin) fails soft`, async () => {
      mode = 'throw';
      const r = await send(router(), { query: NESTED });
      expect(r.json.data).toEqual({
        bridge: {
          coins: [
            { ticker: 'LKY', coin: null },
            { ticker: 'DOGE', coin: null },
          ],
        },
      });
      // Over HTTP a context that throws is the subgraph server's internal error; in process the source's.
      expect(codes(r.json)).toEqual([
        kind === 'in process' ? 'SUBGRAPH_UNAVAILABLE' : 'INTERNAL_SERVER_ERROR',
      ]);
      expect(r.json.errors?.[0]?.extensions?.['subgraph']).toBe('markets');
      expectNoLeak(JSON.stringify(r));
      mode = 'ok';
    });
  }

  it('over HTTP: a subgraph answering without JSON is SUBGRAPH_UNAVAILABLE', async () => {
    mode = 'html';
    const r = await send(remote, { query: '{ coin(id: "bitcoin") { id } bridge { label } }' });
    expect(r.json.data).toEqual({ coin: null, bridge: { label } });
    expect(codes(r.json)).toEqual(['SUBGRAPH_UNAVAILABLE']);
    expectNoLeak(JSON.stringify(r));
    mode = 'ok';
  });
});

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
      extensions: { cost: { estimated: 1, max: 500, plan: 'keyless' } },
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

describe('GraphQL over HTTP', () => {
  const Q = '{ coin(id: "bitcoin") { id } }';
  const getUrl = (query: string): string => `/graphql?query=${encodeURIComponent(query)}`;

  it('GET runs a query with a preflight header (apollo-require-preflight, or a key header)', async () => {
    const r = await g.inject({
      method: 'GET',
      url: getUrl(Q),
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      data: { coin: { id: 'bitcoin' } },
      extensions: { cost: { estimated: 1, max: 500, plan: 'keyless' } },
    });
    const key = await g.makeKey('free');
    const withKey = await g.inject({ method: 'GET', url: getUrl(Q), headers: { 'x-sp-api-key': key.key } });
    expect((withKey.json as GqlBody).data).toEqual({ coin: { id: 'bitcoin' } });
    // A "simple" GET a browser could send cross-site is refused (CSRF prevention) before it runs.
    g.resetCounts();
    const simple = await g.inject({ method: 'GET', url: getUrl(Q) });
    expect(simple.status).toBe(400);
    expect(codes(simple.json as GqlBody)).toEqual(['BAD_REQUEST']);
    expect((simple.json as GqlBody).errors?.[0]?.message).toMatch(
      /^This operation has been blocked as a potential Cross-Site Request Forgery/,
    );
    expect(g.counts.contexts.markets).toBe(0);
  });

  it('GET cannot run a mutation: 405 with Allow: POST', async () => {
    const r = await g.inject({
      method: 'GET',
      url: getUrl('mutation { registerName(name: "get.coin") { name } }'),
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(r.status).toBe(405);
    expect(r.headers['allow']).toBe('POST');
    expect(r.json).toEqual({
      errors: [
        {
          message: 'GET requests only support query operations, not mutation operations',
          extensions: { code: 'BAD_REQUEST' },
        },
      ],
    });
  });

  it('application/graphql-response+json when accepted (400 for a validation error), else application/json', async () => {
    const accept = { accept: 'application/graphql-response+json' };
    const ok = await post({ query: Q }, accept);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
    const invalid = await post({ query: '{ coin(id: "bitcoin") { nope } }' }, accept);
    expect(invalid.status).toBe(400);
    expect(invalid.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
    expect(codes(invalid.json as GqlBody)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    // The router's own refusals use the same media type.
    const denied = await post({ query: Q }, { ...accept, 'x-sp-api-key': 'cw_live_nope' });
    expect(denied.status).toBe(401);
    expect(denied.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
    const plain = await post({ query: Q });
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    const plainInvalid = await post({ query: '{ nope }' });
    expect(plainInvalid.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plainInvalid.status).toBe(400);
  });

  it('a text/plain POST is refused as a potential CSRF, before anything runs', async () => {
    g.resetCounts();
    const r = await g.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ query: Q }),
    });
    expect(r.status).toBe(400);
    expect((r.json as GqlBody).errors?.[0]?.message).toMatch(
      /^This operation has been blocked as a potential Cross-Site Request Forgery/,
    );
    expect(g.counts.contexts.markets).toBe(0);
  });

  it('a body that is not JSON is 400 INVALID_JSON, one that is too large 413 (GraphQL error shape, after the key)', async () => {
    const invalidJson = {
      errors: [
        { message: 'request body must be a valid JSON document', extensions: { code: 'INVALID_JSON' } },
      ],
    };
    for (const payload of ['{"query": "{ currencies }"', '', 'query { currencies }', '{"query":']) {
      const r = await post(payload);
      expect(r.status).toBe(400);
      expect(r.json).toEqual(invalidJson);
      expect(r.headers['x-api-plan']).toBe('keyless');
    }
    const large = await post({ query: `{ currencies } # ${'x'.repeat(1_100_000)}` });
    expect(large.status).toBe(413);
    expect(large.json).toEqual({
      errors: [{ message: 'request body must be at most 1 MiB', extensions: { code: 'PAYLOAD_TOO_LARGE' } }],
    });
  });

  it('a body that is not an object is 400', async () => {
    for (const payload of ['5', '"{ currencies }"', 'null', 'true', '{}']) {
      const r = await post(payload);
      expect(r.status).toBe(400);
      expect(r.json).toEqual({
        errors: [
          {
            message: 'POST body missing, invalid Content-Type, or JSON object has no keys.',
            extensions: { code: 'BAD_REQUEST' },
          },
        ],
      });
    }
    const variables = await post({ query: Q, variables: '{"a":1}' });
    expect(variables.status).toBe(400);
    expect(codes(variables.json as GqlBody)).toEqual(['BAD_REQUEST']);
  });

  it('an operation that cannot be chosen, or a subscription, is a 400 (not a gateway 500)', async () => {
    const two = 'query A { currencies } query B { coin(id: "bitcoin") { id } }';
    const noName = await post({ query: two });
    expect(noName.status).toBe(400);
    expect(noName.json).toEqual({
      errors: [
        {
          message: 'Must provide operation name if query contains multiple operations.',
          extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
        },
      ],
    });
    const unknown = await post({ query: two, operationName: 'C' });
    expect(unknown.status).toBe(400);
    expect((unknown.json as GqlBody).errors?.[0]?.message).toBe('Unknown operation named "C".');
    const named = await post({ query: two, operationName: 'B' });
    expect((named.json as GqlBody).data).toEqual({ coin: { id: 'bitcoin' } });
    const sub = await post({ query: 'subscription { currencies }' });
    expect(sub.status).toBe(400);
    expect(codes(sub.json as GqlBody)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });

  // The cost estimate reads variable values; it must not follow them deeper than their type (it once did,
  // recursively: a stack overflow, so a 500).
  it('deeply nested variable values are a client error, not a 500', async () => {
    const nestedArrays = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    for (const payload of [
      `{"query":"query ($ids: [ID!]) { coins(ids: $ids) { totalCount } }","variables":{"ids":${nestedArrays}}}`,
      `{"query":"query ($c: String!) { coin(id: \\"bitcoin\\") { price(currency: $c) } }","variables":{"c":${nestedArrays}}}`,
    ]) {
      const r = await post(payload);
      expect(r.status).toBe(400);
      expect(codes(r.json as GqlBody)).toEqual(['BAD_USER_INPUT']);
    }
  });

  it('batches answer an array, one result per operation, with the summed cost', async () => {
    const r = await post([
      { query: Q },
      { query: '{ nope }' },
      { query: '{ coins(first: 2) { totalCount } }' },
    ]);
    expect(r.status).toBe(200);
    const results = r.json as GqlBody[];
    expect(results).toHaveLength(3);
    expect(results[0]?.data).toEqual({ coin: { id: 'bitcoin' } });
    expect(codes(results[1]!)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(results[2]?.extensions).toEqual({ cost: { estimated: 1, max: 500, plan: 'keyless' } });
    expect(r.headers['x-query-cost']).toBe('2');
  });

  it('health: 200 {status: UP} while running, 503 DOWN once stopped', async () => {
    const h = await g.inject({ method: 'GET', url: '/graphql/health' });
    expect(h.status).toBe(200);
    expect(h.json).toEqual({ status: 'UP' });
    const router = await createRouter({ subgraphs: { kind: 'in-process', subgraphs: g.subgraphs } });
    const app = Fastify();
    await mountRouter(app, router);
    await router.stop();
    const down = await app.inject({ method: 'GET', url: '/graphql/health' });
    expect(down.statusCode).toBe(503);
    expect(JSON.parse(down.body)).toEqual({ status: 'DOWN' });
    await app.close();
  });
});

/** mulberry32: a small seeded PRNG, so a failing body can be reproduced. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('fuzz', () => {
  it('200 random or malformed requests: never a 5xx, never an internal detail', async () => {
    const rnd = prng(20261121);
    const int = (n: number): number => Math.floor(rnd() * n);
    const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
    const chars = '{}()[]:,."$@!#=&|\\ \n\tabcxyz019_-éü\u0000\ud83d';
    const junk = (n: number): string => Array.from({ length: n }, () => pick([...chars])).join('');
    const value = (depth = 0): unknown => {
      switch (int(depth > 2 ? 6 : 9)) {
        case 0:
          return null;
        case 1:
          return rnd() < 0.5;
        case 2:
          return pick([0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, 251, 1e9]);
        case 3:
          return junk(int(40));
        case 4:
          return 'x'.repeat(pick([0, 1, 100, 10_000, 200_000]));
        case 5:
          return pick(['{ currencies }', '{ coin(id: "bitcoin") { id } }', 'mutation { x }', '']);
        case 6:
          return Array.from({ length: int(4) }, () => value(depth + 1));
        default:
          return Object.fromEntries(
            Array.from({ length: int(4) }, () => [
              pick([
                'query',
                'variables',
                'extensions',
                'operationName',
                'documentId',
                'persistedQuery',
                junk(5),
              ]),
              value(depth + 1),
            ]),
          );
      }
    };
    const QUERIES = [
      'query ($id: ID!) { coin(id: $id) { id name } }',
      'query ($n: Int) { coins(first: $n) { edges { node { id } } } }',
      'query ($c: String!) { coin(id: "bitcoin") { price(currency: $c) } }',
      'query ($q: String!) { search(query: $q) { coins { id } } }',
      'query ($n: String!, $a: String!) { resolveName(name: $n, asset: $a) { address } }',
      'query ($d: Int!) { coin(id: "bitcoin") { chart(days: $d) { points { price } } } }',
      '{ coin(id: "bitcoin") { nope } }',
      '{ nope { nope } }',
      '{ __type(name: "Coin") { fields { name } } }',
      'fragment F on Query { currencies } query { ...F ...G }',
      `{ coin(id: "${'b'.repeat(50_000)}") { id } }`,
      'query A { currencies } query B { coin(id: "bitcoin") { id } }',
      'subscription { currencies }',
      `{ search(query: "${junk(200).replace(/[^a-z0-9 ]/g, '')}") { coins { id } } }`,
    ];
    const bodies: {
      method: 'GET' | 'POST';
      url: string;
      headers: Record<string, string>;
      payload?: string;
    }[] = [];
    for (let i = 0; i < 200; i++) {
      const kind = i % 8;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (rnd() < 0.1)
        headers['x-sp-api-key'] = pick(['', 'cw_live_x', junk(10).replace(/[^\x20-\x7e]/g, '')]);
      if (rnd() < 0.1)
        headers['accept'] = pick(['application/graphql-response+json', 'text/html', '*/*', junk(8)]);
      if (kind === 0)
        bodies.push({ method: 'POST', url: '/graphql', headers, payload: JSON.stringify(value()) });
      else if (kind === 1) bodies.push({ method: 'POST', url: '/graphql', headers, payload: junk(int(300)) });
      else if (kind === 2 || kind === 3) {
        const variables = Object.fromEntries(['id', 'n', 'c', 'q', 'a', 'd'].map((k) => [k, value(1)]));
        bodies.push({
          method: 'POST',
          url: '/graphql',
          headers,
          payload: JSON.stringify({ query: pick(QUERIES), variables: rnd() < 0.9 ? variables : value() }),
        });
      } else if (kind === 4)
        bodies.push({
          method: 'POST',
          url: '/graphql',
          headers,
          payload: JSON.stringify(
            Array.from({ length: int(13) }, () => (rnd() < 0.5 ? { query: pick(QUERIES) } : value())),
          ),
        });
      else if (kind === 5) {
        const params = new URLSearchParams();
        for (const k of ['query', 'variables', 'extensions', 'operationName', 'documentId', 'x_sp_api_key'])
          if (rnd() < 0.6) params.append(k, rnd() < 0.5 ? pick(QUERIES) : junk(int(60)));
        bodies.push({
          method: 'GET',
          url: `/graphql?${params.toString()}`,
          headers: { 'apollo-require-preflight': 'true' },
        });
      } else if (kind === 6)
        bodies.push({
          method: 'POST',
          url: '/graphql',
          headers: {
            ...headers,
            'content-type': pick(['text/plain', 'application/graphql', 'multipart/form-data', junk(6)]),
          },
          payload: pick(QUERIES),
        });
      else
        bodies.push({
          method: 'POST',
          url: '/graphql',
          headers,
          payload: JSON.stringify({
            query: pick(QUERIES).replace(/\{/g, () => (rnd() < 0.2 ? '{ __typename ' : '{')),
            extensions: value(),
            operationName: value(),
            documentId: value(),
          }),
        });
    }
    const statuses = new Map<number, number>();
    for (const [i, b] of bodies.entries()) {
      const r = await g.inject({
        method: b.method,
        url: b.url,
        headers: b.headers,
        ...(b.payload !== undefined ? { payload: b.payload } : {}),
      });
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.status >= 500 || /SECRET|stacktrace|node_modules/.test(r.text))
        throw new Error(
          `request ${i} → ${r.status}: ${JSON.stringify(b).slice(0, 500)} → ${r.text.slice(0, 500)}`,
        );
    }
    // The fuzz reached the executor as well as the refusals.
    expect(statuses.get(200)).toBeGreaterThan(20);
    expect(statuses.get(400)).toBeGreaterThan(20);
  }, 120_000);
});
