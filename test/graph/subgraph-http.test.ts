/**
 * The subgraphs as a gateway sees them over HTTP (`mountSubgraph`, what `coinwallet serve --only subgraph:<name>`
 * serves): every response that carries `data` (partial or null) is HTTP 200 under either media type, whatever its
 * errors; errors keep `extensions.code` and never carry `extensions.http` (nor its headers on the response); only a
 * request that never executed gets a 4xx. A stock gateway reads a non-2xx answer as a failed fetch and an
 * `extensions.http` as its own client's status (docs/gateways.md).
 */
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountSubgraph } from '../../subgraphs/shared/http.ts';
import type { MountedSubgraph } from '../../subgraphs/shared/http.ts';
import { graphHarness } from './router-harness.ts';
import type { GraphHarness } from './router-harness.ts';

let g: GraphHarness;
let app: FastifyInstance;
const mounted: MountedSubgraph[] = [];

beforeAll(async () => {
  g = await graphHarness();
  app = Fastify();
  for (const s of g.subgraphs) mounted.push(await mountSubgraph(app, s, `/${s.name}`));
  await app.ready();
}, 120_000);

afterAll(async () => {
  for (const m of mounted) await m.stop();
  await app?.close();
  await g?.close();
});

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: {
    data?: unknown;
    errors?: { message: string; path?: unknown[]; extensions?: Record<string, unknown> }[];
  };
}

const JSON_ONLY = 'application/json';
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

async function post(
  subgraph: string,
  query: string,
  o: { accept?: string; headers?: Record<string, string>; variables?: Record<string, unknown> } = {},
): Promise<Answer> {
  const r = await app.inject({
    method: 'POST',
    url: `/${subgraph}`,
    headers: { 'content-type': 'application/json', accept: o.accept ?? JSON_ONLY, ...o.headers },
    payload: JSON.stringify({ query, ...(o.variables ? { variables: o.variables } : {}) }),
  });
  return { status: r.statusCode, headers: r.headers, body: JSON.parse(r.body) as Answer['body'] };
}

/** Each error as a gateway gets it: message aside, its path and its whole `extensions`. */
const errorsOf = (a: Answer) =>
  (a.body.errors ?? []).map((e) => ({ path: e.path, extensions: e.extensions }));

describe('a subgraph over HTTP answers every executed operation with 200', () => {
  const executed: {
    name: string;
    subgraph: string;
    query: string;
    headers?: Record<string, string>;
    data: unknown;
    errors: { path?: unknown[]; extensions: Record<string, unknown> }[];
  }[] = [
    {
      name: 'an unknown currency: the field is null beside the rest (INVALID_CURRENCY)',
      subgraph: 'markets',
      query: '{ coin(id: "bitcoin") { id price(currency: "xxx") } }',
      data: { coin: { id: 'bitcoin', price: null } },
      errors: [{ path: ['coin', 'price'], extensions: { code: 'INVALID_CURRENCY' } }],
    },
    {
      name: 'an argument out of range on a non-null root field: data null (INVALID_PARAMETER)',
      subgraph: 'markets',
      query: '{ coins(first: 500) { totalCount } }',
      data: null,
      errors: [{ path: ['coins'], extensions: { code: 'INVALID_PARAMETER' } }],
    },
    {
      name: 'a malformed coin id (INVALID_COIN_ID)',
      subgraph: 'markets',
      query: '{ coin(id: "Not An Id!") { id } currencies }',
      data: { coin: null, currencies: expect.arrayContaining(['usd', 'eur']) },
      errors: [{ path: ['coin'], extensions: { code: 'INVALID_COIN_ID' } }],
    },
    {
      name: 'accounts without a session (AUTH_REQUIRED: REST sends www-authenticate with its 401)',
      subgraph: 'accounts',
      query: 'mutation { signOut }',
      data: null,
      errors: [{ path: ['signOut'], extensions: { code: 'AUTH_REQUIRED' } }],
    },
    {
      name: 'accounts with a session token that is no session (INVALID_SESSION)',
      subgraph: 'accounts',
      query: '{ me { id } dappAccess(origin: "https://nowhere.example") { allowed } }',
      headers: { authorization: 'Bearer cws_not-a-session' },
      data: { me: null, dappAccess: { allowed: false } },
      errors: [{ path: ['me'], extensions: { code: 'INVALID_SESSION' } }],
    },
    {
      name: 'identity: a malformed name (INVALID_NAME)',
      subgraph: 'identity',
      query: '{ name(name: "no suffix") { name } }',
      data: { name: null },
      errors: [{ path: ['name'], extensions: { code: 'INVALID_NAME' } }],
    },
  ];

  for (const c of executed)
    it(c.name, async () => {
      for (const accept of [JSON_ONLY, GRAPHQL_RESPONSE]) {
        const a = await post(c.subgraph, c.query, { accept, ...(c.headers ? { headers: c.headers } : {}) });
        expect({ accept, status: a.status }).toEqual({ accept, status: 200 });
        expect(a.body.data).toEqual(c.data);
        expect(errorsOf(a)).toEqual(c.errors);
        // Nothing of the REST answer's head reaches the gateway: no status, no header.
        expect(a.headers['www-authenticate']).toBeUndefined();
        expect(a.headers['retry-after']).toBeUndefined();
      }
    });
});

describe('a subgraph answers a request that never executed with a 4xx', () => {
  it('unparsable, invalid, or variables that do not coerce: 400 without data', async () => {
    for (const [query, variables, code] of [
      ['{ coin(id: ', undefined, 'GRAPHQL_PARSE_FAILED'],
      ['{ coin(id: "bitcoin") { nope } }', undefined, 'GRAPHQL_VALIDATION_FAILED'],
      ['query ($n: Int) { coins(first: $n) { totalCount } }', { n: 'ten' }, 'BAD_USER_INPUT'],
    ] as const) {
      const a = await post('markets', query, variables ? { variables } : {});
      expect(a.status).toBe(400);
      expect('data' in a.body).toBe(false);
      expect(a.body.errors?.map((e) => e.extensions?.['code'])).toEqual([code]);
    }
  });

  it('a mutation by GET: 405; a body of a media type a browser sends cross-site: 400', async () => {
    const get = await app.inject({
      method: 'GET',
      url: `/accounts?query=${encodeURIComponent('mutation { signOut }')}`,
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(get.statusCode).toBe(405);
    const simple = await app.inject({
      method: 'POST',
      url: '/markets',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ query: '{ currencies }' }),
    });
    expect(simple.statusCode).toBe(400);
    expect(simple.body).not.toContain('"data"');
  });
});
