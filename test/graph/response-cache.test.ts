/**
 * The embedded router's response cache (`router/response-cache.ts`): a query answered only from the market snapshot
 * is executed once per snapshot; the key, the budget, the safelist, the limits and the cost still run per request;
 * anything that reads more than the snapshot (history, the clock, another subgraph) or fails is executed every time.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccess } from '../../src/access/access.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import { createRouter } from '../../router/index.ts';
import type { Router, RouterResponse } from '../../router/index.ts';
import { ADMIN_TOKEN, call } from '../accounts/harness.ts';
import { graphHarness } from './router-harness.ts';
import type { GqlBody, GraphHarness } from './router-harness.ts';

let g: GraphHarness;
beforeAll(async () => {
  g = await graphHarness();
}, 120_000);
afterAll(async () => {
  await g?.close();
});

let ipCount = 0;
const freshIp = (): string => `10.9.0.${++ipCount}`;
const codes = (b: GqlBody): unknown[] => (b.errors ?? []).map((e) => e.extensions?.['code']);

const LIST = '{ coins(first: 5) { edges { node { id symbol price marketCap changes { h24 } } } } }';

/** A router of its own over the harness's subgraphs (and so the same market snapshot). */
async function routerWith(opts: Parameters<typeof createRouter>[0] extends infer O ? Partial<O> : never) {
  return createRouter({
    access: createAccess({ keys: g.rest.keys, limiter: createMemoryLimiter() }),
    subgraphs: { kind: 'in-process', subgraphs: g.subgraphs },
    ...opts,
  });
}

async function ask(
  r: Router,
  query: string,
  o: { key?: string; variables?: Record<string, unknown> } = {},
): Promise<{ status: number; headers: Record<string, string>; json: GqlBody; raw: RouterResponse }> {
  const res = await r.handle({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(o.key ? { 'x-sp-api-key': o.key } : {}) },
    search: '',
    body: { query, ...(o.variables ? { variables: o.variables } : {}) },
    socketIp: freshIp(),
  });
  return { status: res.status, headers: res.headers, json: JSON.parse(res.body) as GqlBody, raw: res };
}

describe('response cache (embedded router)', () => {
  it('a snapshot-only query executes once per snapshot; each caller still gets its own plan, cost and budget', async () => {
    const pro = await g.makeKey('pro');
    g.resetCounts();
    const before = g.router.responseCacheStats();
    const first = await g.gql(LIST, { ip: freshIp() });
    const second = await g.gql(LIST, { headers: { 'x-sp-api-key': pro.key } });
    const third = await g.gql(LIST, { headers: { 'x-sp-api-key': pro.key } });
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect(g.counts.contexts.markets).toBe(1);
    const after = g.router.responseCacheStats();
    expect(after && before && after.hits - before.hits).toBe(2);
    expect(second.body.data).toEqual(first.body.data);
    expect(third.body.data).toEqual(first.body.data);
    expect((first.body.data as { coins: { edges: unknown[] } }).coins.edges).toHaveLength(5);
    // Per request: the plan, the budget and the cost.
    expect(first.headers['x-api-plan']).toBe('keyless');
    expect(second.headers['x-api-plan']).toBe('pro');
    expect(first.body.extensions?.['cost']).toMatchObject({ plan: 'keyless', max: 2500 });
    expect(second.body.extensions?.['cost']).toMatchObject({ plan: 'pro', max: 10000 });
    expect(second.headers['x-query-cost']).toBe(first.headers['x-query-cost']);
    expect(
      Number(second.headers['x-ratelimit-remaining']) - Number(third.headers['x-ratelimit-remaining']),
    ).toBe(1);

    // The next tick publishes a new snapshot: executed again, then cached again.
    await g.tm.market.ingest([]);
    await g.gql(LIST, { ip: freshIp() });
    await g.gql(LIST, { ip: freshIp() });
    expect(g.counts.contexts.markets).toBe(2);
  });

  it('answers exactly what executing would (compared with a router without the cache)', async () => {
    const plain = await routerWith({ responseCache: false });
    try {
      expect(plain.responseCacheStats()).toBeNull();
      const q = `{ a: coins(first: 20, order: VOLUME_DESC) { edges { cursor node { id name price(currency: "eur")
        volume24h(currency: "btc") sparkline7d } } pageInfo { hasNextPage endCursor } }
        global { totalMarketCap(currency: "usd") verifiedCoins updatedAt } categories { id name }
        trending { coin { id } score } search(query: "doge") { coins { id } } currencies }`;
      const cached1 = await ask(g.router, q);
      const cached2 = await ask(g.router, q);
      const executed = await ask(plain, q);
      expect(codes(cached1.json)).toEqual([]);
      expect(cached2.json.data).toEqual(executed.json.data);
      expect(JSON.stringify(cached2.json.data)).toBe(JSON.stringify(executed.json.data));
    } finally {
      await plain.stop();
    }
  });

  it('variables are part of the key', async () => {
    g.resetCounts();
    const q = 'query ($id: ID!) { coin(id: $id) { id name } }';
    const btc = await g.gql(q, { variables: { id: 'bitcoin' }, ip: freshIp() });
    const ltc = await g.gql(q, { variables: { id: 'litecoin' }, ip: freshIp() });
    const btc2 = await g.gql(q, { variables: { id: 'bitcoin' }, ip: freshIp() });
    expect(btc.body.data).toEqual({ coin: { id: 'bitcoin', name: 'Bitcoin' } });
    expect(ltc.body.data).toEqual({ coin: { id: 'litecoin', name: 'Litecoin' } });
    expect(btc2.body.data).toEqual(btc.body.data);
    expect(g.counts.contexts.markets).toBe(2);
  });

  it('reads of history or the clock, other subgraphs and errors are executed every time', async () => {
    g.resetCounts();
    const chart = '{ coin(id: "bitcoin") { id chart(days: 1) { points { time price } } } }';
    const health = '{ marketHealth { sources { name } } }';
    const nested = '{ coin(id: "bitcoin") { id } bridge { network } }';
    const failing = '{ coin(id: "bitcoin") { price(currency: "zzz") } }';
    for (let i = 0; i < 2; i++) {
      expect(codes((await g.gql(chart, { ip: freshIp() })).body)).toEqual([]);
      expect(codes((await g.gql(health, { ip: freshIp() })).body)).toEqual([]);
      expect(codes((await g.gql(nested, { ip: freshIp() })).body)).toEqual([]);
      expect(codes((await g.gql(failing, { ip: freshIp() })).body)).not.toEqual([]);
    }
    expect(g.counts.contexts.markets).toBe(8);
    expect(g.counts.contexts.bridge).toBe(2);
    // Executed both times, but the chart itself is built once per snapshot (src/market/charts.ts): one history read.
    expect(g.counts.barReads).toBe(1);
  });

  it('a chart is an answer of its snapshot once built: the request that builds it executes, later ones are kept', async () => {
    const q = '{ coin(id: "dogecoin") { id chart(days: 3) { points { time price } } } }';
    const seen: [number, number][] = [];
    for (let i = 0; i < 3; i++) {
      g.resetCounts();
      const before = g.router.responseCacheStats()?.hits ?? 0;
      expect((await g.gql(q, { ip: freshIp() })).status).toBe(200);
      seen.push([g.counts.barReads, (g.router.responseCacheStats()?.hits ?? 0) - before]);
    }
    // [history reads, response-cache hits]: built (reads history), answered from the built chart (kept), kept.
    expect(seen).toEqual([
      [1, 0],
      [0, 0],
      [0, 1],
    ]);
  });

  it('a cached answer is still refused to a caller over its cost ceiling or with a revoked key', async () => {
    const tight = await routerWith({ costLimits: { keyless: 10 } });
    try {
      const key = await g.makeKey('enterprise');
      g.resetCounts();
      const ok = await ask(tight, LIST, { key: key.key });
      expect(ok.status).toBe(200);
      expect((await ask(tight, LIST, { key: key.key })).status).toBe(200);
      const refused = await ask(tight, LIST);
      expect(refused.status).toBe(400);
      expect(codes(refused.json)).toEqual(['COST_ESTIMATED_TOO_EXPENSIVE']);
      expect(refused.json.data).toBeUndefined();

      const rv = await call(g.rest, 'POST', `/api/admin/api-keys/${key.id}/revoke`, {
        token: ADMIN_TOKEN,
        body: { reason: 'leaked' },
      });
      expect(rv.status).toBe(200);
      const revoked = await ask(tight, LIST, { key: key.key });
      expect(revoked.status).toBe(401);
      expect(codes(revoked.json)).toEqual(['API_KEY_REVOKED']);
      expect(g.counts.contexts.markets).toBe(1);
      expect(tight.responseCacheStats()).toMatchObject({ hits: 1, stored: 1 });
    } finally {
      await tight.stop();
    }
  });

  it('memory is bounded by entries and by what the entries keep, key and data (oldest dropped first)', async () => {
    const q = 'query ($id: ID!) { coin(id: $id) { id name symbol } }';
    const ids = ['bitcoin', 'litecoin', 'dogecoin', 'ethereum'];
    // A lower bound of each entry: the variables' JSON (in the key) and the data's.
    const sizeOf = (id: string) => JSON.stringify({ id }).length + JSON.stringify({ coin: { id } }).length;
    const byCount = await routerWith({ responseCache: { maxEntries: 2 } });
    // An entry weighs its key (about 40 bytes) and its answer as sent: the bound holds eight of the largest.
    const ten = [
      'bitcoin',
      'litecoin',
      'dogecoin',
      'ethereum',
      'solana',
      'ripple',
      'cardano',
      'tron',
      'monero',
      'dash',
    ];
    const probe = await routerWith({});
    let largest = 0;
    for (const id of ten)
      largest = Math.max(largest, (await ask(probe, q, { variables: { id } })).raw.body.length);
    await probe.stop();
    const bound = 8 * (largest + 40);
    const bySize = await routerWith({ responseCache: { maxSize: bound } });
    try {
      for (const id of ids) await ask(byCount, q, { variables: { id } });
      expect(byCount.responseCacheStats()).toMatchObject({ stored: 4, entries: 2 });
      g.resetCounts();
      await ask(byCount, q, { variables: { id: 'ethereum' } }); // kept: the newest
      await ask(byCount, q, { variables: { id: 'bitcoin' } }); // dropped: the oldest
      expect(g.counts.contexts.markets).toBe(1);

      // Ten entries against a bound of eight: the oldest go.
      for (const id of ten) expect((await ask(bySize, q, { variables: { id } })).status).toBe(200);
      const st = bySize.responseCacheStats();
      expect(st?.stored).toBe(10);
      expect(st?.size).toBeLessThanOrEqual(bound);
      expect(st?.entries).toBeLessThan(10);
      expect(st?.size).toBeGreaterThan(sizeOf('bitcoin') * (st?.entries ?? 0));
      g.resetCounts();
      await ask(bySize, q, { variables: { id: 'dash' } }); // the newest: kept
      expect(g.counts.contexts.markets).toBe(0);
      await ask(bySize, q, { variables: { id: 'bitcoin' } }); // the oldest: dropped
      expect(g.counts.contexts.markets).toBe(1);
      // A response larger than an eighth of the bound is never kept.
      const big = await routerWith({ responseCache: { maxSize: bound } });
      try {
        await ask(big, LIST);
        expect(big.responseCacheStats()).toMatchObject({ stored: 0, entries: 0, size: 0 });
      } finally {
        await big.stop();
      }
    } finally {
      await byCount.stop();
      await bySize.stop();
    }
  });

  it('variables the operation does not declare are dropped before the key: junk in them makes no entries', async () => {
    const r = await routerWith({});
    try {
      const junk = (i: number) => `${i}:`.padEnd(100_000, 'x');
      const q = 'query ($id: ID!) { coin(id: $id) { id name } }';
      const plain = await ask(r, q, { variables: { id: 'bitcoin' } });
      expect(plain.status).toBe(200);
      for (let i = 0; i < 4; i++) {
        const res = await ask(r, q, { variables: { id: 'bitcoin', junk: junk(i) } });
        expect(res.status).toBe(200);
        expect(res.json).toEqual(plain.json);
      }
      // A query that declares none: likewise.
      for (let i = 0; i < 3; i++)
        expect((await ask(r, '{ global { verifiedCoins } }', { variables: { junk: junk(i) } })).status).toBe(
          200,
        );
      const st = r.responseCacheStats();
      expect(st).toMatchObject({ stored: 2, hits: 6, misses: 2, entries: 2 });
      expect(st?.size).toBeLessThan(10_000);
    } finally {
      await r.stop();
    }
  });

  it('the bound holds against many distinct 1 MB variables from a keyless caller: memory stays bounded', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const MB = 1024 * 1024;
    const r = await routerWith({}); // the defaults: 500 entries, 16 MiB
    try {
      gc();
      const before = process.memoryUsage().heapUsed;
      // Each request a distinct megabyte in a declared variable (10,000 unknown coin ids: skipped, so the answer is
      // cacheable; kept in the key, so counted) and in an undeclared one (dropped), 60 requests from keyless callers:
      // unbounded, that would pin 60 MB or more.
      const q = 'query ($ids: [ID!]) { coins(first: 1, ids: $ids) { edges { node { id } } } }';
      for (let i = 0; i < 60; i++) {
        const ids = Array.from({ length: 10_000 }, (_, j) => `${i}-${j}-`.padEnd(100, 'x'));
        const res = await ask(r, q, { variables: { ids, junk: `${i}:`.padEnd(MB, 'x') } });
        expect(res.status).toBe(200);
        expect(res.json.errors).toBeUndefined();
      }
      gc();
      const grown = process.memoryUsage().heapUsed - before;
      const st = r.responseCacheStats();
      expect(st?.stored).toBe(60);
      expect(st?.size).toBeLessThanOrEqual(16 * MB);
      expect(st?.entries).toBeLessThanOrEqual(16);
      expect(grown).toBeLessThan(40 * MB);
    } finally {
      await r.stop();
    }
  });
});
