/**
 * The router's access, budget, cost and shape rules, and every surface of the graph reached through it, over the
 * embedded graph (`router-harness.ts`: test market, accounts REST API, the four subgraphs in process, the router on
 * Fastify). Keyless requests use their own client address per test (`remoteAddress`), so each starts with a fresh
 * keyless budget and the `x-ratelimit-remaining` values are exact.
 */
import { createPublicKey, verify } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { getIntrospectionQuery } from 'graphql';
import { accountErrors } from '../../src/accounts/errors.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccess } from '../../src/access/access.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import { latestSnapshot } from '../../src/bridge/snapshots.ts';
import { accessHook } from '../../src/rest/access-hook.ts';
import { createRouter } from '../../router/index.ts';
import type { Router } from '../../router/index.ts';
import { ADMIN_TOKEN, call, signIn, wallet } from '../accounts/harness.ts';
import { linkName } from '../kit/support.ts';
import { graphHarness } from './router-harness.ts';
import type { GqlBody, GraphHarness, RawResponse } from './router-harness.ts';

let g: GraphHarness;
/** A REST service guarded by the same access layer (the price API's `onRequest` hook), sharing the budgets. */
let rest: FastifyInstance;
/** A second router over the same subgraphs: keyless budget 2 a minute, keyless cost ceiling 10, depth 4. */
let small: Router;

beforeAll(async () => {
  g = await graphHarness();
  rest = Fastify();
  accessHook(g.access, { prefixes: ['/v1'] })(rest);
  rest.get('/v1/ping', async () => ({ ok: true }));
  await rest.ready();
  small = await createRouter({
    access: createAccess({ keys: g.rest.keys, limiter: createMemoryLimiter(), keylessPerMinute: 2 }),
    costLimits: { keyless: 10 },
    limits: { maxDepth: 4 },
    subgraphs: { kind: 'in-process', subgraphs: g.subgraphs },
  });
}, 120_000);
afterAll(async () => {
  await small?.stop();
  await rest?.close();
  await g?.close();
});

let ipCount = 0;
/** A client address of its own: a fresh keyless budget. */
const freshIp = (): string => {
  ipCount++;
  return `10.1.${Math.floor(ipCount / 200)}.${(ipCount % 200) + 1}`;
};

const codes = (b: GqlBody): unknown[] => (b.errors ?? []).map((e) => e.extensions?.['code']);

async function post(
  payload: unknown,
  o: { headers?: Record<string, string>; ip?: string; url?: string } = {},
): Promise<RawResponse> {
  return g.inject({
    method: 'POST',
    url: o.url ?? '/graphql',
    headers: { 'content-type': 'application/json', ...o.headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    remoteAddress: o.ip ?? freshIp(),
  });
}

async function get(
  params: Record<string, string>,
  o: { headers?: Record<string, string>; ip?: string } = {},
): Promise<RawResponse> {
  return g.inject({
    method: 'GET',
    url: `/graphql?${new URLSearchParams(params).toString()}`,
    headers: { 'apollo-require-preflight': 'true', ...o.headers },
    remoteAddress: o.ip ?? freshIp(),
  });
}

/** One request to the REST service behind the access hook. */
async function restPing(
  key: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: unknown }> {
  const r = await rest.inject({ method: 'GET', url: '/v1/ping', headers: { 'x-sp-api-key': key } });
  return { status: r.statusCode, headers: r.headers, body: JSON.parse(r.body) as unknown };
}

/** A request to the `small` router, transport-free. */
async function viaSmall(
  body: unknown,
  ip: string,
): Promise<{ status: number; headers: Record<string, string>; json: GqlBody }> {
  const r = await small.handle({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    search: '',
    body,
    socketIp: ip,
  });
  return { status: r.status, headers: r.headers, json: JSON.parse(r.body) as GqlBody };
}

const CHEAP = '{ coin(id: "bitcoin") { id name } }';
const UNKNOWN_KEY = `cw_live_${'Z'.repeat(40)}`;

describe('API key, before parsing', () => {
  it('no key: the keyless plan and its budget headers', async () => {
    const r = await g.gql(CHEAP, { ip: freshIp() });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ coin: { id: 'bitcoin', name: 'Bitcoin' } });
    expect(r.headers['x-api-plan']).toBe('keyless');
    expect(r.headers['x-ratelimit-limit']).toBe('240');
    expect(r.headers['x-ratelimit-remaining']).toBe('239');
    expect(r.headers['x-ratelimit-reset']).toBe('60');
  });

  it('an unknown key is 401 API_KEY_UNKNOWN with the REST message, and counts nothing', async () => {
    const restAnswer = await restPing(UNKNOWN_KEY);
    expect(restAnswer.status).toBe(401);
    const r = await g.gql(CHEAP, { headers: { 'x-sp-api-key': UNKNOWN_KEY } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      errors: [
        {
          message: (restAnswer.body as { error: { message: string } }).error.message,
          extensions: { code: 'API_KEY_UNKNOWN' },
        },
      ],
    });
    expect(r.headers['x-ratelimit-limit']).toBeUndefined();
    expect(r.headers['x-api-plan']).toBeUndefined();
  });

  it('pending, rejected and revoked keys are 401 with their codes and REST messages', async () => {
    const pending = await g.makeKey('free', { approve: false });
    const rejected = await g.makeKey('free', { approve: false });
    const rj = await call(g.rest, 'POST', `/api/admin/api-keys/${rejected.id}/reject`, {
      token: ADMIN_TOKEN,
      body: { reason: 'not a real project' },
    });
    expect(rj.status).toBe(200);
    const revoked = await g.makeKey('pro');
    // Used once while approved (the lookup cache must not keep it usable after the revocation).
    expect((await g.gql(CHEAP, { headers: { 'x-sp-api-key': revoked.key } })).status).toBe(200);
    const rv = await call(g.rest, 'POST', `/api/admin/api-keys/${revoked.id}/revoke`, {
      token: ADMIN_TOKEN,
      body: { reason: 'leaked' },
    });
    expect(rv.status).toBe(200);
    for (const [k, code] of [
      [pending.key, 'API_KEY_PENDING'],
      [rejected.key, 'API_KEY_REJECTED'],
      [revoked.key, 'API_KEY_REVOKED'],
    ] as const) {
      const viaRest = await restPing(k);
      expect(viaRest.status).toBe(401);
      const r = await g.gql(CHEAP, { headers: { 'x-sp-api-key': k } });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({
        errors: [
          { message: (viaRest.body as { error: { message: string } }).error.message, extensions: { code } },
        ],
      });
    }
  });

  it('two different keys are 400 API_KEY_CONFLICT (header and query, or a repeated query parameter)', async () => {
    const a = await g.makeKey('free');
    const b = await g.makeKey('free');
    const both = await post(
      { query: CHEAP },
      { url: `/graphql?x_sp_api_key=${b.key}`, headers: { 'x-sp-api-key': a.key } },
    );
    expect(both.status).toBe(400);
    expect(codes(both.json as GqlBody)).toEqual(['API_KEY_CONFLICT']);
    const twice = await get({ query: CHEAP }, {});
    expect(twice.status).toBe(200);
    const repeated = await g.inject({
      method: 'GET',
      url: `/graphql?query=${encodeURIComponent(CHEAP)}&x_sp_api_key=${a.key}&x_sp_api_key=${b.key}`,
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(repeated.status).toBe(400);
    expect(codes(repeated.json as GqlBody)).toEqual(['API_KEY_CONFLICT']);
    // The same key in two places is one key.
    const same = await post(
      { query: CHEAP },
      { url: `/graphql?x_sp_api_key=${a.key}`, headers: { 'x-sp-api-key': a.key } },
    );
    expect(same.status).toBe(200);
    expect(same.headers['x-api-plan']).toBe('free');
  });

  it('a key in the x-sp-api-key header, the x_sp_api_key query parameter (GET) or a CoinGecko alias', async () => {
    const k = await g.makeKey('pro');
    const byHeader = await g.gql(CHEAP, { headers: { 'x-sp-api-key': k.key } });
    expect(byHeader.status).toBe(200);
    expect(byHeader.headers['x-api-plan']).toBe('pro');
    expect(byHeader.headers['x-ratelimit-limit']).toBe('3000');
    expect(byHeader.headers['x-ratelimit-remaining']).toBe('2999');
    const byQuery = await get({ query: CHEAP, x_sp_api_key: k.key });
    expect(byQuery.status).toBe(200);
    expect((byQuery.json as GqlBody).data).toEqual({ coin: { id: 'bitcoin', name: 'Bitcoin' } });
    expect(byQuery.headers['x-api-plan']).toBe('pro');
    expect(byQuery.headers['x-ratelimit-remaining']).toBe('2998');
    const byAlias = await g.gql(CHEAP, { headers: { 'x-cg-pro-api-key': k.key } });
    expect(byAlias.headers['x-api-plan']).toBe('pro');
    expect(byAlias.headers['x-ratelimit-remaining']).toBe('2997');
  });

  it('is checked before anything is parsed: a bad key wins over a broken query, tokens, JSON or batch', async () => {
    const bad = { 'x-sp-api-key': UNKNOWN_KEY };
    const cases: RawResponse[] = [
      await post({ query: '{ coin(id: ' }, { headers: bad }),
      await post({ query: `{ ${'a '.repeat(5_000)}` }, { headers: bad }),
      await post('{"query": "{ currencies }"', { headers: bad }),
      await post([], { headers: bad }),
      await post(
        Array.from({ length: 11 }, () => ({ query: '{ currencies }' })),
        { headers: bad },
      ),
      await get({ query: '{{{' }, { headers: bad }),
    ];
    for (const r of cases) {
      expect(r.status).toBe(401);
      expect(codes(r.json as GqlBody)).toEqual(['API_KEY_UNKNOWN']);
    }
    // Without the key the same broken query is a parse error (so the 401 above was not one by accident).
    const parse = await post({ query: '{ coin(id: ' });
    expect(parse.status).toBe(400);
    expect(codes(parse.json as GqlBody)).toEqual(['GRAPHQL_PARSE_FAILED']);
  });
});

describe('rate limit: the budgets of REST', () => {
  it('one budget per key across REST and GraphQL', async () => {
    const k = await g.makeKey('free');
    for (let i = 0; i < 5; i++) expect((await restPing(k.key)).status).toBe(200);
    expect((await restPing(k.key)).headers['x-ratelimit-remaining']).toBe('594');
    // `access.check` is exactly what the REST hook calls.
    const d = await g.access.check({ headers: { 'x-sp-api-key': k.key }, query: {}, socketIp: '10.9.0.1' });
    expect(d.ok && d.headers['x-ratelimit-remaining']).toBe('593');
    const r = await g.gql(CHEAP, { headers: { 'x-sp-api-key': k.key } });
    expect(r.status).toBe(200);
    expect(r.headers['x-ratelimit-limit']).toBe('600');
    expect(r.headers['x-ratelimit-remaining']).toBe('592');
    expect((await restPing(k.key)).headers['x-ratelimit-remaining']).toBe('591');
  });

  it('a spent budget is 429 RATE_LIMITED with retry-after, and nothing runs', async () => {
    const k = await g.makeKey('enterprise', { limitPerMinute: 3 });
    const h = { 'x-sp-api-key': k.key };
    for (const left of ['2', '1', '0']) {
      const ok = await g.gql(CHEAP, { headers: h });
      expect(ok.status).toBe(200);
      expect(ok.headers['x-ratelimit-remaining']).toBe(left);
    }
    g.resetCounts();
    const r = await g.gql(CHEAP, { headers: h });
    expect(r.status).toBe(429);
    const retry = Number(r.headers['retry-after']);
    expect(Number.isInteger(retry) && retry >= 1 && retry <= 60).toBe(true);
    expect(r.headers['x-ratelimit-limit']).toBe('3');
    expect(r.headers['x-ratelimit-remaining']).toBe('0');
    expect(r.headers['x-api-plan']).toBe('enterprise');
    expect(r.body).toEqual({
      errors: [
        {
          message: `rate limit of 3 requests per minute reached for this API key (enterprise plan): retry after ${retry} s`,
          extensions: { code: 'RATE_LIMITED' },
        },
      ],
    });
    expect(g.counts.contexts).toEqual({ markets: 0, identity: 0, bridge: 0, accounts: 0 });
    // REST sees the same spent budget.
    expect((await restPing(k.key)).status).toBe(429);
  });

  it('keyless callers are limited per address (keylessPerMinute), with a hint to send a key', async () => {
    const ip = '10.77.0.1';
    expect((await viaSmall({ query: '{ currencies }' }, ip)).headers['x-ratelimit-remaining']).toBe('1');
    expect((await viaSmall({ query: '{ currencies }' }, ip)).headers['x-ratelimit-remaining']).toBe('0');
    const r = await viaSmall({ query: '{ currencies }' }, ip);
    expect(r.status).toBe(429);
    const retry = Number(r.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(r.json).toEqual({
      errors: [
        {
          message: `rate limit of 2 requests per minute reached for requests without an API key from this address: retry after ${retry} s, or send an API key for a higher limit`,
          extensions: { code: 'RATE_LIMITED' },
        },
      ],
    });
    // Another address has its own budget.
    expect((await viaSmall({ query: '{ currencies }' }, '10.77.0.2')).status).toBe(200);
  });

  it('a batch of N operations consumes N; a refused batch consumes one', async () => {
    const k = await g.makeKey('free');
    const h = { 'x-sp-api-key': k.key };
    const three = await post([{ query: CHEAP }, { query: '{ currencies }' }, { query: CHEAP }], {
      headers: h,
    });
    expect(three.status).toBe(200);
    expect((three.json as GqlBody[]).map((b) => Object.keys(b.data ?? {}))).toEqual([
      ['coin'],
      ['currencies'],
      ['coin'],
    ]);
    expect(three.headers['x-ratelimit-remaining']).toBe('597');
    expect((await g.gql(CHEAP, { headers: h })).headers['x-ratelimit-remaining']).toBe('596');
    const tooMany = await post(
      Array.from({ length: 11 }, () => ({ query: CHEAP })),
      { headers: h },
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.headers['x-ratelimit-remaining']).toBe('595');
    const empty = await post([], { headers: h });
    expect(empty.status).toBe(400);
    expect(empty.headers['x-ratelimit-remaining']).toBe('594');
  });

  it('a batch larger than what is left of the budget is refused whole', async () => {
    const k = await g.makeKey('enterprise', { limitPerMinute: 4 });
    const h = { 'x-sp-api-key': k.key };
    expect((await post([{ query: CHEAP }, { query: CHEAP }], { headers: h })).status).toBe(200);
    g.resetCounts();
    const r = await post([{ query: CHEAP }, { query: CHEAP }, { query: CHEAP }], { headers: h });
    expect(r.status).toBe(429);
    expect(codes(r.json as GqlBody)).toEqual(['RATE_LIMITED']);
    expect(g.counts.contexts.markets).toBe(0);
  });
});

/** A query whose cost grows with `first`: 1 + first × (edges 1 + node 1 + supply 1 [+ ath 1]). */
const coinsQuery = (first: number, ath = false): string =>
  `{ coins(first: ${first}) { edges { node { id supply { circulating } ${ath ? 'ath { value }' : ''} } } } }`;

describe('query cost', () => {
  it('every response carries extensions.cost and the X-Query-Cost headers', async () => {
    const r = await g.gql(CHEAP, { ip: freshIp() });
    expect(r.body.extensions).toEqual({ cost: { estimated: 1, max: 500, plan: 'keyless' } });
    expect(r.headers['x-query-cost']).toBe('1');
    expect(r.headers['x-query-cost-limit']).toBe('500');
    const q = await g.gql(coinsQuery(3), { ip: freshIp() });
    expect(q.body.extensions).toEqual({ cost: { estimated: 10, max: 500, plan: 'keyless' } });
    expect(q.headers['x-query-cost']).toBe('10');
    // GET too, and an operation that fails at a subgraph still reports its cost.
    const viaGet = await get({ query: '{ coin(id: "litecoin") { chart(days: 1) { points { price } } } }' });
    expect((viaGet.json as GqlBody).extensions).toEqual({
      cost: { estimated: 386, max: 500, plan: 'keyless' },
    });
    const failing = await g.gql('{ coin(id: "bitcoin") { price(currency: "nope") } }', { ip: freshIp() });
    expect(codes(failing.body)).toEqual(['INVALID_CURRENCY']);
    expect(failing.body.extensions).toEqual({ cost: { estimated: 1, max: 500, plan: 'keyless' } });
  });

  it('over the ceiling: COST_ESTIMATED_TOO_EXPENSIVE, no data, and nothing executed', async () => {
    const heavy = '{ coins(first: 250) { edges { node { id chart(days: 30) { points { price } } } } } }';
    g.resetCounts();
    const r = await g.gql(heavy, { ip: freshIp() });
    expect(r.status).toBe(400);
    const cost = { estimated: 1 + 250 * (1 + 1 + 20 + 365), max: 500, plan: 'keyless' };
    expect(r.body).toEqual({
      errors: [
        {
          message: `the operation's estimated cost ${cost.estimated} exceeds the keyless plan's limit of 500: ask for fewer items (smaller first, fewer nested lists) or use a higher plan`,
          extensions: { code: 'COST_ESTIMATED_TOO_EXPENSIVE', cost },
        },
      ],
      extensions: { cost },
    });
    expect('data' in r.body).toBe(false);
    expect(r.headers['x-query-cost']).toBe(String(cost.estimated));
    expect(g.counts).toEqual({ contexts: { markets: 0, identity: 0, bridge: 0, accounts: 0 }, barReads: 0 });
    // The counters do see work: the same shape under the ceiling reads history.
    const light = await g.gql(
      '{ coins(first: 1) { edges { node { id chart(days: 30) { points { price } } } } } }',
      {
        ip: freshIp(),
      },
    );
    expect(light.status).toBe(200);
    expect(g.counts.contexts.markets).toBe(1);
    expect(g.counts.barReads).toBeGreaterThan(0);
  });

  it('ceilings are per plan: keyless 500, free 1,000, pro 5,000', async () => {
    const free = await g.makeKey('free');
    const pro = await g.makeKey('pro');
    const q751 = coinsQuery(250);
    const keyless = await g.gql(q751, { ip: freshIp() });
    expect(codes(keyless.body)).toEqual(['COST_ESTIMATED_TOO_EXPENSIVE']);
    expect(keyless.body.extensions).toEqual({ cost: { estimated: 751, max: 500, plan: 'keyless' } });
    const asFree = await g.gql(q751, { headers: { 'x-sp-api-key': free.key } });
    expect(asFree.body.errors).toBeUndefined();
    expect(asFree.body.extensions).toEqual({ cost: { estimated: 751, max: 1000, plan: 'free' } });
    // Every coin of the catalog (fewer than 250).
    expect((asFree.body.data as { coins: { edges: unknown[] } }).coins.edges).toHaveLength(
      g.tm.market.snapshot!.markets.size,
    );
    const q1001 = coinsQuery(250, true);
    const freeOver = await g.gql(q1001, { headers: { 'x-sp-api-key': free.key } });
    expect(codes(freeOver.body)).toEqual(['COST_ESTIMATED_TOO_EXPENSIVE']);
    expect(freeOver.body.extensions).toEqual({ cost: { estimated: 1001, max: 1000, plan: 'free' } });
    const asPro = await g.gql(q1001, { headers: { 'x-sp-api-key': pro.key } });
    expect(asPro.body.errors).toBeUndefined();
    expect(asPro.headers['x-query-cost-limit']).toBe('5000');
  });

  it('ceilings are configurable (costLimits)', async () => {
    // The small router also allows only 4 levels: `coins { edges { node { id } } }` costs 1 + 2 × first.
    const edges = (first: number): string => `{ coins(first: ${first}) { edges { node { id } } } }`;
    const ok = await viaSmall({ query: edges(4) }, '10.78.0.1');
    expect(ok.status).toBe(200);
    expect(ok.json.extensions).toEqual({ cost: { estimated: 9, max: 10, plan: 'keyless' } });
    expect(ok.headers['x-query-cost-limit']).toBe('10');
    const over = await viaSmall({ query: edges(5) }, '10.78.0.2');
    expect(over.status).toBe(400);
    expect(codes(over.json)).toEqual(['COST_ESTIMATED_TOO_EXPENSIVE']);
    expect(over.json.extensions).toEqual({ cost: { estimated: 11, max: 10, plan: 'keyless' } });
    // Other plans keep their defaults.
    const k = await g.makeKey('free');
    const r = await small.handle({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sp-api-key': k.key },
      search: '',
      body: { query: edges(5) },
      socketIp: '10.78.0.3',
    });
    expect(r.status).toBe(200);
    expect(r.headers['x-query-cost-limit']).toBe('1000');
  });

  it('a mutation costs 10 more than its selection', async () => {
    const r = await g.gql('mutation { registerName(name: "cost-probe.coin") { name } }', { ip: freshIp() });
    expect(r.body.extensions).toEqual({ cost: { estimated: 11, max: 500, plan: 'keyless' } });
    // Under a ceiling of 10 even the cheapest mutation is refused before it runs.
    g.resetCounts();
    const refused = await viaSmall(
      { query: 'mutation { registerName(name: "cost-probe.coin") { name } }' },
      '10.78.0.9',
    );
    expect(refused.json.extensions).toEqual({ cost: { estimated: 11, max: 10, plan: 'keyless' } });
    expect(g.counts.contexts.identity).toBe(0);
  });
});

/** `me { apiKeys { owner { apiKeys { owner … id } } } }`, `depth` fields deep. */
function nested(depth: number): string {
  let q = 'id';
  for (let level = depth - 1; level >= 2; level--) q = `${level % 2 === 0 ? 'apiKeys' : 'owner'} { ${q} }`;
  return `{ me { ${q} } }`;
}
const aliased = (n: number, directive = ''): string =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: currencies${directive}`).join(' ')} }`;
/** A fragment chain where each fragment spreads the next twice: 2^levels fields once expanded. */
function bomb(levels: number): string {
  let q = 'query Bomb { ...F0 }\n';
  for (let i = 0; i < levels; i++) q += `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }\n`;
  return `${q}fragment F${levels} on Query { currencies }`;
}

describe('limits', () => {
  it('depth: at most 15 levels (deeper is MAX_DEPTH_EXCEEDED before the cost is even considered)', async () => {
    const deep = await g.gql(nested(16), { ip: freshIp() });
    expect(deep.status).toBe(400);
    expect(deep.body).toEqual({
      errors: [
        {
          message: 'the operation nests fields 16 deep: at most 15 levels are allowed',
          extensions: { code: 'MAX_DEPTH_EXCEEDED' },
        },
      ],
    });
    // 15 levels pass the depth limit (and are then far too expensive).
    expect(codes((await g.gql(nested(15), { ip: freshIp() })).body)).toEqual([
      'COST_ESTIMATED_TOO_EXPENSIVE',
    ]);
    // The limit is configurable: 4 on the small router.
    expect(
      (await viaSmall({ query: '{ bridge { config { attestation { pinned } } } }' }, '10.79.0.1')).json,
    ).toEqual({
      data: { bridge: { config: { attestation: { pinned: false } } } },
      extensions: { cost: { estimated: 3, max: 10, plan: 'keyless' } },
    });
    expect(codes((await viaSmall({ query: nested(5) }, '10.79.0.1')).json)).toEqual(['MAX_DEPTH_EXCEEDED']);
  });

  it('aliases: at most 30', async () => {
    const ok = await g.gql(aliased(30), { ip: freshIp() });
    expect(ok.body.errors).toBeUndefined();
    expect(Object.keys(ok.body.data ?? {})).toHaveLength(30);
    const over = await g.gql(aliased(31), { ip: freshIp() });
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual([
      {
        message: 'the operation uses 31 aliases: at most 30 are allowed',
        extensions: { code: 'MAX_ALIASES_EXCEEDED' },
      },
    ]);
  });

  it('directives: at most 20', async () => {
    const ok = await g.gql(aliased(20, ' @include(if: true)'), { ip: freshIp() });
    expect(ok.body.errors).toBeUndefined();
    const over = await g.gql(aliased(21, ' @include(if: true)'), { ip: freshIp() });
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual([
      {
        message: 'the operation applies 21 directives: at most 20 are allowed',
        extensions: { code: 'MAX_DIRECTIVES_EXCEEDED' },
      },
    ]);
  });

  it('tokens: at most 4,000, counted before parsing', async () => {
    // `{ coins ( ids : [` 6 tokens, the ids, `] ) { totalCount } }` 6 tokens.
    const withIds = (n: number): string =>
      `{ coins(ids: [${Array.from({ length: n }, (_, i) => `"c${i}"`).join(' ')}]) { totalCount } }`;
    const ok = await g.gql(withIds(3_988), { ip: freshIp() });
    expect(ok.body).toMatchObject({ data: { coins: { totalCount: 0 } } });
    const over = await g.gql(withIds(3_989), { ip: freshIp() });
    expect(over.status).toBe(400);
    const tooMany = {
      errors: [
        {
          message: 'the document has more than 4000 tokens: send a smaller document (or a persisted query)',
          extensions: { code: 'MAX_TOKENS_EXCEEDED' },
        },
      ],
    };
    expect(over.body).toEqual(tooMany);
    // Before parsing: a document that would not even parse is refused for its size.
    const broken = await g.gql(`{ ${'a '.repeat(5_000)}`, { ip: freshIp() });
    expect(broken.body).toEqual(tooMany);
  });

  it('batches: at most 10 operations', async () => {
    const ten = await post(Array.from({ length: 10 }, () => ({ query: '{ currencies }' })));
    expect(ten.status).toBe(200);
    expect(ten.json).toHaveLength(10);
    const eleven = await post(Array.from({ length: 11 }, () => ({ query: '{ currencies }' })));
    expect(eleven.status).toBe(400);
    expect(eleven.json).toEqual({
      errors: [
        {
          message: 'the batch holds 11 operations: send at most 10 operations per request',
          extensions: { code: 'BATCH_TOO_LARGE' },
        },
      ],
    });
    const empty = await post([]);
    expect(empty.status).toBe(400);
    expect(empty.json).toEqual({
      errors: [
        {
          message: 'a batched request must be a non-empty JSON array of operations',
          extensions: { code: 'BAD_REQUEST' },
        },
      ],
    });
  });

  it('fields once fragments are expanded: at most 2,000, counted without expanding (fragment bombs)', async () => {
    const ok = await g.gql(bomb(10), { ip: freshIp() });
    expect(ok.body.errors).toBeUndefined();
    expect((ok.body.data as { currencies: string[] }).currencies).toContain('usd');
    const over = await g.gql(bomb(11), { ip: freshIp() });
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual([
      {
        message:
          'the operation selects 2048 fields once its fragments are expanded: at most 2000 are allowed',
        extensions: { code: 'MAX_FIELDS_EXCEEDED' },
      },
    ]);
    // 2^40 and 2^200 fields from a few hundred tokens: refused at once (expanding them would never end).
    g.resetCounts();
    const t0 = Date.now();
    expect(codes((await g.gql(bomb(40), { ip: freshIp() })).body)).toEqual(['MAX_FIELDS_EXCEEDED']);
    const huge = await g.gql(bomb(200), { ip: freshIp() });
    expect(huge.body.errors?.[0]?.message).toBe(
      'the operation selects more than 2000 fields once its fragments are expanded: at most 2000 are allowed',
    );
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(g.counts.contexts.markets).toBe(0);
  });

  it('the standard introspection query is allowed keyless and costed', async () => {
    const r = await g.gql(getIntrospectionQuery(), { ip: freshIp() });
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    const schema = (r.body.data as { __schema: { queryType: { name: string }; types: { name: string }[] } })
      .__schema;
    expect(schema.queryType.name).toBe('Query');
    expect(schema.types.map((t) => t.name)).toContain('Coin');
    expect(r.body.extensions).toEqual({ cost: { estimated: 50, max: 500, plan: 'keyless' } });
    expect(r.headers['x-query-cost']).toBe('50');
    // Introspection counts as one level of depth, but cycles through `fields { type { fields … } }` (whose answer
    // grows exponentially) are refused by validation.
    const cyclic = await g.gql(
      '{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }',
      { ip: freshIp() },
    );
    expect(cyclic.status).toBe(400);
    expect(cyclic.body.errors).toEqual([
      {
        message: 'Maximum introspection depth exceeded',
        locations: [{ line: 1, column: 3 }],
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      },
    ]);
  });
});

describe('nulls for unverified figures', () => {
  it('a coin whose market cap is unverified has marketCap null, without an error', async () => {
    const unverified = [...g.tm.market.snapshot!.markets.values()].find((m) => m.marketCapUsd === null);
    expect(unverified).toBeDefined();
    const r = await g.gql(
      'query ($id: ID!) { coin(id: $id) { id marketCap marketCapEur: marketCap(currency: "eur") rank supply { circulating verified } } }',
      { variables: { id: unverified!.id }, ip: freshIp() },
    );
    expect(r.status).toBe(200);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data).toEqual({
      coin: {
        id: unverified!.id,
        marketCap: null,
        marketCapEur: null,
        rank: null,
        supply: { circulating: null, verified: false },
      },
    });
  });
});

describe('every surface through the router, with REST rules', () => {
  it('sign in through REST, then me, requestApiKey (used once approved), names and resolveName', async () => {
    const w = wallet();
    const token = await signIn(g.rest, w);
    const auth = { authorization: `Bearer ${token}` };
    const me = await g.gql('{ me { id address role } }', { headers: auth });
    const restMe = await call(g.rest, 'GET', '/api/account/me', { token });
    expect(me.body.data).toEqual({ me: { id: restMe.body['id'], address: w.address, role: 'USER' } });

    const req = await g.gql(
      'mutation { requestApiKey(plan: FREE, description: "my dapp") { key apiKey { id plan status owner { id } } } }',
      { headers: auth },
    );
    expect(req.body.errors).toBeUndefined();
    const created = (req.body.data as { requestApiKey: { key: string; apiKey: Record<string, unknown> } })
      .requestApiKey;
    expect(created.apiKey).toMatchObject({ plan: 'FREE', status: 'PENDING', owner: null });
    expect((await g.gql(CHEAP, { headers: { 'x-sp-api-key': created.key } })).status).toBe(401);
    const approved = await call(
      g.rest,
      'POST',
      `/api/admin/api-keys/${String(created.apiKey['id'])}/approve`,
      {
        token: ADMIN_TOKEN,
        body: {},
      },
    );
    expect(approved.status).toBe(200);
    const withKey = await g.gql('{ me { apiKeys { id status } } }', {
      headers: { ...auth, 'x-sp-api-key': created.key },
    });
    expect(withKey.headers['x-api-plan']).toBe('free');
    expect(withKey.body.data).toEqual({
      me: { apiKeys: [{ id: created.apiKey['id'], status: 'APPROVED' }] },
    });

    const name = `router-${Date.now().toString(36)}.coin`;
    const reg = await g.gql(
      'mutation ($n: String!) { registerName(name: $n) { name addresses { asset } } }',
      {
        variables: { n: name },
        headers: auth,
      },
    );
    expect(reg.body).toMatchObject({ data: { registerName: { name, addresses: [] } } });
    const ltc = wallet();
    const ch = await g.gql(
      'mutation ($n: String!, $a: String!) { requestAddressChallenge(name: $n, asset: "LTC", address: $a) { challenge nonce } }',
      { variables: { n: name, a: ltc.address }, headers: auth },
    );
    const { challenge, nonce } = (
      ch.body.data as { requestAddressChallenge: { challenge: string; nonce: string } }
    ).requestAddressChallenge;
    const linked = await g.gql(
      'mutation ($n: String!, $a: String!, $s: String!, $c: String!) { linkAddress(name: $n, asset: "LTC", address: $a, signature: $s, nonce: $c) { name } }',
      { variables: { n: name, a: ltc.address, s: ltc.sign(challenge), c: nonce }, headers: auth },
    );
    expect(linked.body.errors).toBeUndefined();
    // Anyone resolves it; the coin is the markets subgraph's entity.
    const resolved = await g.gql(
      'query ($n: String!) { resolveName(name: $n, asset: "LTC") { name asset address coin { id name } } }',
      { variables: { n: name }, ip: freshIp() },
    );
    expect(resolved.body).toEqual({
      data: {
        resolveName: { name, asset: 'LTC', address: ltc.address, coin: { id: 'litecoin', name: 'Litecoin' } },
      },
      extensions: { cost: { estimated: 2, max: 500, plan: 'keyless' } },
    });
  });

  it('nameResolution: each outcome a union member, the Coin from markets, a private name as a missing one', async () => {
    const owner = wallet();
    const stamp = Date.now().toString(36);
    const [name, hidden] = [`union-${stamp}.coin`, `union-hidden-${stamp}.coin`];
    await linkName(g, name, owner);
    await linkName(g, hidden, owner);
    const auth = { authorization: `Bearer ${await signIn(g.rest, owner)}` };
    const priv = await g.gql('mutation ($n: String!) { setNamePrivacy(name: $n, private: true) { name } }', {
      variables: { n: hidden },
      headers: auth,
    });
    expect(priv.body.errors).toBeUndefined();

    const r = await g.gql(
      `query ($n: String!, $h: String!) {
        found: nameResolution(name: $n, asset: "LTC") { ...R }
        unlinked: nameResolution(name: $n, asset: "DOGE") { ...R }
        missing: nameResolution(name: "nobody-router.coin", asset: "LTC") { ...R }
        hidden: nameResolution(name: $h, asset: "LTC") { ...R }
      }
      fragment R on NameResolutionResult {
        __typename
        ... on NameResolution { name address coin { id name } }
        ... on NameResolutionError { code message }
      }`,
      { variables: { n: name, h: hidden }, ip: freshIp() },
    );
    const notFound = (n: string) => ({
      __typename: 'NameNotFound',
      code: 'NAME_NOT_FOUND',
      message: `no public name "${n}" is registered`,
    });
    expect(r.body).toEqual({
      data: {
        found: {
          __typename: 'NameResolution',
          name,
          address: owner.address,
          coin: { id: 'litecoin', name: 'Litecoin' },
        },
        unlinked: {
          __typename: 'AddressNotLinked',
          code: 'ADDRESS_NOT_LINKED',
          message: `${name} has no DOGE address linked`,
        },
        missing: notFound('nobody-router.coin'),
        hidden: notFound(hidden),
      },
      // Per alias: the union field 1, plus its costliest member (NameResolution's coin reference, 1).
      extensions: { cost: { estimated: 8, max: 500, plan: 'keyless' } },
    });

    // The deprecated field still answers (old operations and old kits keep working), null for every miss.
    const old = await g.gql(
      `query ($n: String!) { a: resolveName(name: $n, asset: "LTC") { address } b: resolveName(name: $n, asset: "DOGE") { address }
        __type(name: "Query") { fields(includeDeprecated: true) { name isDeprecated } } }`,
      { variables: { n: name }, ip: freshIp() },
    );
    const data = old.body.data as {
      a: unknown;
      b: unknown;
      __type: { fields: { name: string; isDeprecated: boolean }[] };
    };
    expect([data.a, data.b]).toEqual([{ address: owner.address }, null]);
    expect(data.__type.fields.filter((f) => /^(resolveName|nameResolution)$/.test(f.name))).toEqual([
      { name: 'nameResolution', isDeprecated: false },
      { name: 'resolveName', isDeprecated: true },
    ]);
  });

  it('bridge proof of reserves: the stored snapshot, verifiable with the attestation key', async () => {
    const r = await g.gql(
      `{ bridge { config { attestation { publicKey } } proofOfReserves { snapshotId report { network assets { ticker coin { id } } } attestation { algorithm signature canonical } } } }`,
      { ip: freshIp() },
    );
    expect(r.body.errors).toBeUndefined();
    const b = (
      r.body.data as {
        bridge: {
          config: { attestation: { publicKey: string } };
          proofOfReserves: {
            snapshotId: number;
            report: { network: string; assets: { ticker: string; coin: { id: string } | null }[] };
            attestation: { algorithm: string; signature: string; canonical: string };
          };
        };
      }
    ).bridge;
    const stored = await latestSnapshot(g.tm.db, g.deployment);
    expect(b.proofOfReserves.snapshotId).toBe(stored?.id);
    expect(b.proofOfReserves.report.network).toBe('testnet');
    expect(b.proofOfReserves.report.assets.length).toBeGreaterThan(0);
    expect(b.proofOfReserves.attestation.algorithm).toBe('ed25519');
    const key = createPublicKey({
      key: {
        kty: 'OKP',
        crv: 'Ed25519',
        x: Buffer.from(b.config.attestation.publicKey, 'hex').toString('base64url'),
      },
      format: 'jwk',
    });
    const { canonical, signature } = b.proofOfReserves.attestation;
    expect(verify(null, Buffer.from(canonical, 'utf8'), key, Buffer.from(signature, 'hex'))).toBe(true);
  });

  it('a mutation without a session is AUTH_REQUIRED (REST code, the graph form of its message), no data', async () => {
    const r = await g.gql('mutation { requestApiKey(plan: FREE, description: "x") { key } }', {
      ip: freshIp(),
    });
    const viaRest = await call(g.rest, 'POST', '/api/account/api-keys', {
      body: { plan: 'free', description: 'x' },
    });
    expect(viaRest.status).toBe(401);
    expect(r.status).toBe(200);
    expect(r.body.data).toBeNull();
    expect((viaRest.body['error'] as { code: string }).code).toBe('AUTH_REQUIRED');
    expect(r.body.errors).toEqual([
      {
        message: accountErrors.authRequired().graphMessage,
        path: ['requestApiKey'],
        extensions: { code: 'AUTH_REQUIRED', serviceName: 'accounts' },
      },
    ]);
  });
});
