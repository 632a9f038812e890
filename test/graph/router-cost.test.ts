/**
 * The router's cost and shape rules over the embedded graph (`support/router.ts`): the query cost and its per-plan
 * ceilings, and the limits on depth, aliases, directives, tokens, batches and fields.
 */
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccess } from '../../src/access/access.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import { LoadShedder, overloaded } from '../../src/access/overload.ts';
import { createRouter } from '../../router/index.ts';
import type { Router } from '../../router/index.ts';
import type { GqlBody, GraphHarness } from './router-harness.ts';
import { CHEAP, codes, freshIp, routerRequests, startRouterGraph } from './support/router.ts';
import type { RouterGraph } from './support/router.ts';

let t: RouterGraph;
let g: GraphHarness;
let small: Router;
beforeAll(async () => {
  t = await startRouterGraph();
  ({ g, small } = t);
}, 120_000);
afterAll(async () => {
  await t?.close();
});
const { post, get, viaSmall } = routerRequests(() => t);

/** One POST of `query` to the router `r` itself (no HTTP server), from `ip`. */
const ask = (r: Router, query: string, ip = freshIp()) =>
  r.handle({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    search: '',
    body: { query },
    socketIp: ip,
  });

/** A query whose cost grows with `first`: 1 + first × (edges 1 + node 1 + supply 1 [+ ath 1]). */
const coinsQuery = (first: number, ath = false): string =>
  `{ coins(first: ${first}) { edges { node { id supply { circulating } ${ath ? 'ath { value }' : ''} } } } }`;

describe('query cost', () => {
  it('every response carries extensions.cost and the X-Query-Cost headers', async () => {
    const r = await g.gql(CHEAP, { ip: freshIp() });
    expect(r.body.extensions).toMatchObject({ cost: { estimated: 1, max: 2500, plan: 'keyless' } });
    expect(r.headers['x-query-cost']).toBe('1');
    expect(r.headers['x-query-cost-limit']).toBe('2500');
    const q = await g.gql(coinsQuery(3), { ip: freshIp() });
    expect(q.body.extensions).toMatchObject({ cost: { estimated: 10, max: 2500, plan: 'keyless' } });
    expect(q.headers['x-query-cost']).toBe('10');
    // GET too, and an operation that fails at a subgraph still reports its cost.
    const viaGet = await get({ query: '{ coin(id: "litecoin") { chart(days: 1) { points { price } } } }' });
    // coin 1 + chart 20 + a day of 5-minute points and the current one (289)
    expect((viaGet.json as GqlBody).extensions).toMatchObject({
      cost: { estimated: 310, max: 2500, plan: 'keyless' },
    });
    const failing = await g.gql('{ coin(id: "bitcoin") { price(currency: "nope") } }', { ip: freshIp() });
    expect(codes(failing.body)).toEqual(['INVALID_CURRENCY']);
    expect(failing.body.extensions).toMatchObject({ cost: { estimated: 1, max: 2500, plan: 'keyless' } });
  });

  it('over the ceiling: COST_ESTIMATED_TOO_EXPENSIVE, no data, and nothing executed', async () => {
    const heavy = '{ coins(first: 250) { edges { node { id chart(days: 30) { points { price } } } } } }';
    g.resetCounts();
    const r = await g.gql(heavy, { ip: freshIp() });
    expect(r.status).toBe(400);
    const cost = { estimated: 1 + 250 * (1 + 1 + 20 + 721), max: 2500, plan: 'keyless' };
    expect(r.body).toEqual({
      errors: [
        {
          message: `the operation's estimated cost ${cost.estimated} exceeds the keyless plan's limit of 2500: ask for fewer items (smaller first, fewer nested lists) or use a higher plan`,
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

  it('ceilings are per plan: keyless 2,500, free 5,000, pro 10,000', async () => {
    const free = await g.makeKey('free');
    const pro = await g.makeKey('pro');
    // 1 + n × (edge 1 + node 1 + chart 20 + 721 hourly points)
    const charts = (n: number) =>
      `{ coins(first: ${n}) { edges { node { id chart(days: 30) { points { price } } } } } }`;
    const keyless = await g.gql(charts(4), { ip: freshIp() });
    expect(codes(keyless.body)).toEqual(['COST_ESTIMATED_TOO_EXPENSIVE']);
    expect(keyless.body.extensions).toEqual({ cost: { estimated: 2_973, max: 2_500, plan: 'keyless' } });
    const asFree = await g.gql(charts(4), { headers: { 'x-sp-api-key': free.key } });
    expect(asFree.body.errors).toBeUndefined();
    expect(asFree.body.extensions).toMatchObject({ cost: { estimated: 2_973, max: 5_000, plan: 'free' } });
    expect((asFree.body.data as { coins: { edges: unknown[] } }).coins.edges).toHaveLength(4);
    const freeOver = await g.gql(charts(7), { headers: { 'x-sp-api-key': free.key } });
    expect(codes(freeOver.body)).toEqual(['COST_ESTIMATED_TOO_EXPENSIVE']);
    expect(freeOver.body.extensions).toEqual({ cost: { estimated: 5_202, max: 5_000, plan: 'free' } });
    const asPro = await g.gql(charts(7), { headers: { 'x-sp-api-key': pro.key } });
    expect(asPro.body.errors).toBeUndefined();
    expect(asPro.headers['x-query-cost-limit']).toBe('10000');
  });

  it('ceilings are configurable (costLimits)', async () => {
    // The small router also allows only 4 levels: `coins { edges { node { id } } }` costs 1 + 2 × first.
    const edges = (first: number): string => `{ coins(first: ${first}) { edges { node { id } } } }`;
    const ok = await viaSmall({ query: edges(4) }, '10.78.0.1');
    expect(ok.status).toBe(200);
    expect(ok.json.extensions).toMatchObject({ cost: { estimated: 9, max: 10, plan: 'keyless' } });
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
    expect(r.headers['x-query-cost-limit']).toBe('5000');
  });

  it('a mutation costs 10 more than its selection', async () => {
    const r = await g.gql('mutation { registerName(name: "cost-probe.coin") { name } }', { ip: freshIp() });
    expect(r.body.extensions).toMatchObject({ cost: { estimated: 11, max: 2500, plan: 'keyless' } });
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

describe('cost budgets per minute', () => {
  /** A router over the same subgraphs whose keyless callers have a cost budget of `budget` a minute. */
  async function budgeted(budget: number): Promise<Router> {
    return createRouter({
      access: createAccess({
        keys: g.rest.keys,
        limiter: createMemoryLimiter(),
        costBudgets: { keyless: budget },
      }),
      subgraphs: { kind: 'in-process', subgraphs: g.subgraphs },
    });
  }
  const json = (body: string) => JSON.parse(body) as GqlBody;

  it('each answer says what is left: charged at the estimate, corrected to the measured cost', async () => {
    const ip = freshIp();
    const cheap = await g.gql(CHEAP, { ip });
    expect(cheap.body.extensions).toEqual({
      cost: {
        estimated: 1,
        max: 2500,
        plan: 'keyless',
        actual: 1,
        budget: { limit: 5_000, remaining: 4_999 },
      },
    });
    expect(cheap.headers['x-cost-budget-limit']).toBe('5000');
    expect(cheap.headers['x-cost-budget-remaining']).toBe('4999');
    expect(Number(cheap.headers['x-cost-budget-reset'])).toBeGreaterThan(0);
    // A 30-day chart is estimated at 721 hourly points; the test market holds 10 days: the budget is charged what
    // was answered.
    const chart = await g.gql('{ coin(id: "litecoin") { chart(days: 30) { points { price } } } }', { ip });
    const cost = chart.body.extensions?.['cost'] as {
      estimated: number;
      actual: number;
      budget: { remaining: number };
    };
    const points = (chart.body.data as { coin: { chart: { points: unknown[] } } }).coin.chart.points.length;
    expect(cost.estimated).toBe(1 + 20 + 721);
    expect(points).toBeLessThan(721);
    expect(cost.actual).toBe(1 + 20 + points);
    expect(cost.budget.remaining).toBe(4_999 - cost.actual);
    expect(chart.headers['x-cost-budget-remaining']).toBe(String(4_999 - cost.actual));
  });

  it('over the budget: 429 COST_BUDGET_EXHAUSTED with Retry-After, nothing executed; a smaller operation still fits', async () => {
    const r = await budgeted(25);
    const ip = freshIp();
    const ten = '{ coins(first: 3) { edges { node { id supply { circulating } } } } }'; // 1 + 3 × 3
    for (let i = 0; i < 2; i++) expect((await ask(r, ten, ip)).status).toBe(200);
    g.resetCounts();
    const refused = await ask(r, ten, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['x-cost-budget-remaining']).toBe('5');
    const body = json(refused.body);
    expect(codes(body)).toEqual(['COST_BUDGET_EXHAUSTED']);
    expect(body.errors?.[0]?.message).toMatch(/this operation costs 10 and 5 is left; retry after \d+ s/);
    expect(body.data).toBeUndefined();
    expect(g.counts.contexts.markets).toBe(0);
    // The refused charge is not kept: five operations of cost 1 still fit, the sixth does not.
    for (let i = 0; i < 5; i++) expect((await ask(r, CHEAP, ip)).status).toBe(200);
    expect((await ask(r, CHEAP, ip)).status).toBe(429);
    // Another caller has a budget of its own.
    expect((await ask(r, ten, freshIp())).status).toBe(200);
    await r.stop();
  });

  it('a request that joins an identical one in flight pays its own charge', async () => {
    const r = await budgeted(15);
    const ip = freshIp();
    const ten = '{ coins(first: 3) { edges { node { id supply { circulating } } } } }';
    // Sent together, the second joins the first's execution (in-flight deduplication): 10 + 10 > 15.
    const [a, b] = await Promise.all([ask(r, ten, ip), ask(r, ten, ip)]);
    expect([a.status, b.status].sort()).toEqual([200, 429]);
    expect(codes(json((a.status === 429 ? a : b).body))).toEqual(['COST_BUDGET_EXHAUSTED']);
    expect(r.dedupedOperations()).toBe(1);
    // Two callers sharing one execution each see their own budget.
    const [c, d] = await Promise.all([ask(r, ten, freshIp()), ask(r, ten, freshIp())]);
    for (const x of [c, d]) {
      expect(x.headers['x-cost-budget-remaining']).toBe('5');
      expect((json(x.body).extensions?.['cost'] as { budget: unknown }).budget).toEqual({
        limit: 15,
        remaining: 5,
      });
    }
    await r.stop();
  });
});

describe('load shedding', () => {
  it('while the process is overloaded, an operation that would execute is 503 OVERLOADED and not charged; cached answers go on', async () => {
    let overloadedNow = false;
    let admitted = 0;
    const r = await createRouter({
      access: createAccess({ keys: g.rest.keys, limiter: createMemoryLimiter() }),
      subgraphs: { kind: 'in-process', subgraphs: g.subgraphs },
      shedder: {
        begin: () => (overloadedNow ? overloaded(1) : (admitted++, () => undefined)),
        heavyTurn: () => null,
      },
    });
    const ip = freshIp();
    const asked = (query: string) => ask(r, query, ip);
    expect((await asked(CHEAP)).status).toBe(200); // executed, and kept by the response cache
    expect(admitted).toBe(1);
    overloadedNow = true;
    const cached = await asked(CHEAP);
    expect(cached.status).toBe(200);
    expect(cached.headers['x-cost-budget-remaining']).toBe('4998');
    g.resetCounts();
    const refused = await asked('{ coin(id: "litecoin") { id name } }');
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    const body = JSON.parse(refused.body) as GqlBody;
    expect(codes(body)).toEqual(['OVERLOADED']);
    expect(body.extensions?.['cost']).toEqual({
      estimated: 1,
      max: 2500,
      plan: 'keyless',
      budget: { limit: 5_000, remaining: 4_998 },
    });
    expect(g.counts.contexts.markets).toBe(0);
    overloadedNow = false;
    expect((await asked('{ coin(id: "litecoin") { id name } }')).headers['x-cost-budget-remaining']).toBe(
      '4997',
    );
    await r.stop();
  });
});

describe('heavy operations', () => {
  it('wait for their turn on the shedder (one at a time), answered from the response cache too; light ones do not', async () => {
    const shedder = new LoadShedder({ heavyCost: 10 });
    const r = await createRouter({
      access: createAccess({ keys: g.rest.keys, limiter: createMemoryLimiter() }),
      subgraphs: { kind: 'in-process', subgraphs: g.subgraphs },
      shedder,
    });
    /** `query` (cost 10: heavy) asked while someone else's heavy work holds the lane: answered only after it ends. */
    const waitsForTurn = async (query: string) => {
      const endOther = await (shedder.heavyTurn(10) as Promise<() => void>);
      let done = false;
      const heavy = ask(r, query).then((res) => ((done = true), res));
      expect((await ask(r, CHEAP)).status).toBe(200); // cost 1: not held up
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(done).toBe(false);
      endOther();
      expect((await heavy).status).toBe(200);
    };
    await waitsForTurn(coinsQuery(3)); // executed
    g.resetCounts();
    await waitsForTurn(coinsQuery(3)); // from the response cache (and the light query too, this time)
    expect(g.counts.contexts.markets).toBe(0);
    // Its turn ended with its answer: the lane is free.
    let started = false;
    void (shedder.heavyTurn(10) as Promise<() => void>).then(() => (started = true));
    await Promise.resolve();
    expect(started).toBe(true);
    await r.stop();
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
      extensions: { cost: expect.objectContaining({ estimated: 3, max: 10, plan: 'keyless' }) },
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

  it('query text: at most 32,768 characters, comments included, before anything parses or keeps it', async () => {
    const padded = (n: number): string => '{ currencies } #'.padEnd(n, 'x');
    const ok = await g.gql(padded(32_768), { ip: freshIp() });
    expect(ok.status).toBe(200);
    expect(ok.body.errors).toBeUndefined();
    // 60,000 characters of comment are one token: only the length stops it (each distinct text would be kept by the
    // parse caches). Longer bodies than 64 KiB without a key are refused before they are read (router-graphql-http).
    for (const n of [32_769, 60_000]) {
      const over = await g.gql(padded(n), { ip: freshIp() });
      expect(over.status).toBe(400);
      expect(over.body).toEqual({
        errors: [
          {
            message: `the document is ${n} characters long: at most 32768 are allowed (send a smaller document, or a persisted query)`,
            extensions: { code: 'MAX_QUERY_LENGTH_EXCEEDED' },
          },
        ],
      });
    }
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
    expect(r.body.extensions).toMatchObject({ cost: { estimated: 50, max: 2500, plan: 'keyless' } });
    expect(r.headers['x-query-cost']).toBe('50');
    // Introspection counts as one level of depth, but cycles through `fields { type { fields … } }` (whose answer
    // grows exponentially) are refused by validation (a request error: 200 under application/json, docs/graph.md).
    const cyclic = await g.gql(
      '{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }',
      { ip: freshIp() },
    );
    expect(cyclic.status).toBe(200);
    expect(cyclic.body.data).toBeUndefined();
    expect(cyclic.body.errors).toEqual([
      {
        message: 'Maximum introspection depth exceeded',
        locations: [{ line: 1, column: 3 }],
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      },
    ]);
  });
});
