/**
 * The router as an HTTP service, part three: GraphQL over HTTP (GET, media types, CSRF prevention, bodies it cannot
 * read, batches, health), and a small fuzz that must never produce a 5xx. Built over the embedded graph of
 * `support/router-http.ts`, whose keyless budget is large enough for the fuzz.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../router/index.ts';
import { mountRouter } from '../../router/http.ts';
import type { GqlBody, GraphHarness } from './router-harness.ts';
import { codes, graphPost, httpGraphHarness } from './support/router-http.ts';
import { mulberry32 as prng } from '../../src/demo/random.ts';

let g: GraphHarness;

beforeAll(async () => {
  g = await httpGraphHarness();
}, 120_000);

afterAll(async () => {
  await g?.close();
});

const post = graphPost(() => g);

describe('GraphQL over HTTP', () => {
  const Q = '{ coin(id: "bitcoin") { id } }';
  const getUrl = (query: string): string => `/graphql?query=${encodeURIComponent(query)}`;

  it('GET runs a query with a preflight header, or without one when no cookie rides on it', async () => {
    const r = await g.inject({
      method: 'GET',
      url: getUrl(Q),
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      data: { coin: { id: 'bitcoin' } },
      extensions: { cost: expect.objectContaining({ estimated: 1, max: 2500, plan: 'keyless' }) },
    });
    const key = await g.makeKey('free');
    const withKey = await g.inject({ method: 'GET', url: getUrl(Q), headers: { 'x-sp-api-key': key.key } });
    expect((withKey.json as GqlBody).data).toEqual({ coin: { id: 'bitcoin' } });
    // A plain GET, as clients send queries by default (urql, graphql-request's GET mode): no credential rides on it
    // but what it names itself, so it runs.
    const plain = await g.inject({ method: 'GET', url: getUrl(Q) });
    expect(plain.status).toBe(200);
    expect((plain.json as GqlBody).data).toEqual({ coin: { id: 'bitcoin' } });
    // A "simple" GET carrying a cookie (an ambient credential a browser adds cross-site) is refused (CSRF prevention)
    // before it runs, unless a preflight header shows it is no cross-site request.
    g.resetCounts();
    const withCookie = await g.inject({ method: 'GET', url: getUrl(Q), headers: { cookie: 'session=abc' } });
    expect(withCookie.status).toBe(400);
    expect(codes(withCookie.json as GqlBody)).toEqual(['BAD_REQUEST']);
    expect((withCookie.json as GqlBody).errors?.[0]?.message).toMatch(
      /^This operation has been blocked as a potential Cross-Site Request Forgery/,
    );
    expect(g.counts.contexts.markets).toBe(0);
    const preflighted = await g.inject({
      method: 'GET',
      url: getUrl(Q),
      headers: { cookie: 'session=abc', 'apollo-require-preflight': 'true' },
    });
    expect((preflighted.json as GqlBody).data).toEqual({ coin: { id: 'bitcoin' } });
  });

  it('GET cannot run a mutation, with a preflight header or without: 405 with Allow: POST', async () => {
    for (const headers of [{ 'apollo-require-preflight': 'true' }, {}]) {
      const r = await g.inject({
        method: 'GET',
        url: getUrl('mutation { registerName(name: "get.coin") { name } }'),
        headers,
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
    }
  });

  it('application/graphql-response+json when accepted (400 for a validation error), else application/json (200)', async () => {
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
    // A request error under application/json: 200 without data (GraphQL over HTTP's SHOULD), as Hive Gateway answers.
    const plainInvalid = await post({ query: '{ nope }' });
    expect(plainInvalid.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plainInvalid.status).toBe(200);
    expect(plainInvalid.json).toEqual({
      errors: [
        {
          message: 'Cannot query field "nope" on type "Query". Did you mean "name"?',
          locations: [{ line: 1, column: 3 }],
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        },
      ],
    });
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
    const tooLarge = (limit: string) => ({
      errors: [
        { message: `request body must be at most ${limit}`, extensions: { code: 'PAYLOAD_TOO_LARGE' } },
      ],
    });
    // Without a key: at most 64 KiB (GRAPH_BODY_LIMITS), refused from the declared length.
    const padded = (bytes: number) => ({ query: '{ currencies }', variables: { pad: 'x'.repeat(bytes) } });
    const keyless = await post(padded(70_000));
    expect(keyless.status).toBe(413);
    expect(keyless.json).toEqual(tooLarge('64 KiB'));
    expect(keyless.headers['x-api-plan']).toBe('keyless');
    expect((await post(padded(60_000))).status).toBe(200);
    // A pro key: the server's 1 MiB.
    const pro = { 'x-sp-api-key': (await g.makeKey('pro')).key };
    expect((await post(padded(70_000), pro)).status).toBe(200);
    const large = await post(padded(1_100_000), pro);
    expect(large.status).toBe(413);
    expect(large.json).toEqual(tooLarge('1 MiB'));
  });

  it('invalid UTF-8 in a JSON body is 400 INVALID_JSON, both JSON media types (never decoded with U+FFFD)', async () => {
    g.resetCounts();
    const payload = Buffer.concat([
      Buffer.from('{"query":"{ coin(id: \\"bit'),
      Buffer.from([0xff]),
      Buffer.from('coin\\") { id } }"}'),
    ]);
    for (const type of ['application/json', 'application/graphql+json']) {
      const r = await g.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': type, 'apollo-require-preflight': 'true' },
        payload,
      });
      expect([type, r.status]).toEqual([type, 400]);
      expect(r.json).toEqual({
        errors: [
          {
            message:
              'request body must be valid UTF-8 (JSON text is UTF-8, RFC 8259): it holds bytes that are not',
            extensions: { code: 'INVALID_JSON' },
          },
        ],
      });
      expect(r.headers['x-api-plan']).toBe('keyless');
    }
    expect(g.counts.contexts.markets).toBe(0);
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
    // A valid subscription over plain HTTP: a stream is needed (SSE or WebSocket, docs/graph.md).
    const sub = await post({ query: 'subscription { prices(ids: ["litecoin"], currency: "usd") { id } }' });
    expect(sub.status).toBe(400);
    expect(codes(sub.json as GqlBody)).toEqual(['SUBSCRIPTION_NEEDS_STREAM']);
  });

  // The cost estimate reads variable values; it must not follow them deeper than their type (it once did,
  // recursively: a stack overflow, so a 500).
  it('deeply nested variable values are a client error, not a 500', async () => {
    const nestedArrays = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    // 200 KB: over what a caller without a key may send (64 KiB).
    const pro = { 'x-sp-api-key': (await g.makeKey('pro')).key };
    for (const payload of [
      `{"query":"query ($ids: [ID!]) { coins(ids: $ids) { totalCount } }","variables":{"ids":${nestedArrays}}}`,
      `{"query":"query ($c: String!) { coin(id: \\"bitcoin\\") { price(currency: $c) } }","variables":{"c":${nestedArrays}}}`,
    ]) {
      // A variable coercion failure: no data, 200 under application/json and 400 under graphql-response+json.
      const r = await post(payload, pro);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({
        errors: [
          {
            message: 'variables are nested deeper than any input type',
            extensions: { code: 'BAD_USER_INPUT' },
          },
        ],
      });
      const strict = await post(payload, { ...pro, accept: 'application/graphql-response+json' });
      expect(strict.status).toBe(400);
      expect(codes(strict.json as GqlBody)).toEqual(['BAD_USER_INPUT']);
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
    expect(results[2]?.extensions).toMatchObject({ cost: { estimated: 1, max: 2500, plan: 'keyless' } });
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
