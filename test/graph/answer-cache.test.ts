/**
 * The per-snapshot answer caches of subgraph fetches (`subgraphs/shared/answer-cache.ts`): over HTTP (`mountSubgraph`)
 * and in-process (`InProcessSource`) a fetch answered from one market snapshot is executed once per snapshot, its
 * kept answer is byte for byte what executing again gives, and the next snapshot is seen by the very next request —
 * by the graph and the price API alike.
 */
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerCache } from '../../subgraphs/shared/answer-cache.ts';
import { figures } from '../../src/market/present/figures.ts';
import { mountSubgraph } from '../../subgraphs/shared/http.ts';
import type { MountedSubgraph } from '../../subgraphs/shared/http.ts';
import { InProcessSource } from '../../router/sources/in-process.ts';
import type { SourceContext } from '../../router/sources/source.ts';
import { TEST_NOW } from '../support/price-app.ts';
import { movePrice } from '../support/price-move.ts';
import { graphHarness } from './router-harness.ts';
import type { GraphHarness } from './router-harness.ts';

const silent = { warn: () => {} };

describe('figures per snapshot (src/market/present/figures.ts)', () => {
  it('one row per coin and currency while the snapshot is current; a newer snapshot replaces them', async () => {
    const snap = g.tm.market.snapshot;
    const ltc = snap?.markets.get('litecoin');
    if (!snap || !ltc) throw new Error('no snapshot');
    const row = figures.in(snap, 'eur').of(ltc);
    expect(figures.in(snap, 'eur').of(ltc)).toBe(row);
    expect(row.price).toBe(await restEur());
    await tick(1.5);
    const next = g.tm.market.snapshot;
    const ltc2 = next?.markets.get('litecoin');
    if (!next || !ltc2) throw new Error('no snapshot');
    expect(figures.in(next, 'eur').of(ltc2).price).not.toBe(row.price);
    expect(figures.in(next, 'eur').of(ltc2).price).toBe(await restEur());
    // A request still on the old snapshot gets its own figures, not kept, and does not drop the new ones.
    expect(figures.in(snap, 'eur').of(ltc)).toEqual(row);
    const kept = figures.in(next, 'eur').of(ltc2);
    expect(figures.in(next, 'eur').of(ltc2)).toBe(kept);
  });
});

describe('AnswerCache', () => {
  it('serves only the current version, drops everything when it changes, and keeps within its bytes', () => {
    let current: object | null = { v: 1 };
    const c = new AnswerCache<{ size: number; body: string }>(() => current, { maxBytes: 800 });
    const one = current;
    expect(c.get(one, 'a')).toBeUndefined();
    c.set(one, 'a', { size: 10, body: 'A' });
    expect(c.get(one, 'a')?.body).toBe('A');
    // Over an eighth of the bound: served by the caller, never kept.
    c.set(one, 'big', { size: 200, body: 'B' });
    expect(c.get(one, 'big')).toBeUndefined();

    current = { v: 2 };
    const two = current;
    // A request still reading the old version misses, and an answer it computed is not kept.
    expect(c.get(one, 'a')).toBeUndefined();
    c.set(one, 'a', { size: 10, body: 'old' });
    expect(c.get(two, 'a')).toBeUndefined();
    c.set(two, 'a', { size: 10, body: 'new' });
    expect(c.get(two, 'a')?.body).toBe('new');

    for (let i = 0; i < 50; i++) c.set(two, `k${i}`, { size: 90, body: String(i) });
    expect(c.stats().bytes).toBeLessThanOrEqual(800);
    expect(c.stats()).toMatchObject({ hits: 2 });
  });
});

let clock = TEST_NOW;
let g: GraphHarness;
let app: FastifyInstance;
let cached: MountedSubgraph;
beforeAll(async () => {
  g = await graphHarness({ now: () => clock });
  app = Fastify();
  const markets = g.subgraphs.find((s) => s.name === 'markets');
  if (!markets) throw new Error('no markets subgraph');
  cached = await mountSubgraph(app, markets, '/cached');
  await mountSubgraph(app, markets, '/plain', false);
  await app.ready();
}, 120_000);
afterAll(async () => {
  await app?.close();
  await g?.close();
});

/** The next engine tick: litecoin's venues move by `factor` a minute later. */
async function tick(factor: number): Promise<void> {
  clock += 60_000;
  await movePrice(g.tm.market, 'litecoin', factor);
}

const post = async (path: string, query: string, variables: Record<string, unknown>): Promise<string> => {
  const r = await app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    payload: JSON.stringify({ query, variables }),
  });
  expect(r.statusCode).toBe(200);
  return r.body;
};

const COIN =
  'query ($c: String!) { coin(id: "litecoin") { id price(currency: $c) volume24h(currency: $c) } }';
const ENTITIES =
  'query ($r: [_Any!]!) { _entities(representations: $r) { ... on Coin { id price marketCap changes { h24 } } } }';

/**
 * litecoin's price in EUR as the price API serves it (its own per-snapshot response cache on), by `/simple/price` and
 * by `/coins/markets` (whose rows come from the per-snapshot figures the graph reads too): both must agree.
 */
async function restEur(): Promise<number> {
  const r = await g.tm.app.inject('/v1/agg/simple/price?ids=litecoin&vs_currencies=eur');
  expect(r.statusCode).toBe(200);
  const simple = (JSON.parse(r.body) as { litecoin: { eur: number } }).litecoin.eur;
  const m = await g.tm.app.inject('/v1/agg/coins/markets?vs_currency=eur&ids=litecoin');
  expect(m.statusCode).toBe(200);
  expect((JSON.parse(m.body) as { current_price: number }[])[0]?.current_price).toBe(simple);
  return simple;
}

describe('over HTTP (mountSubgraph)', () => {
  it('a snapshot-only fetch executes once per snapshot, answers byte for byte, and sees the next tick at once', async () => {
    const vars = { c: 'eur' };
    const reps = {
      r: [
        { __typename: 'Coin', id: 'litecoin' },
        { __typename: 'Coin', id: 'dogecoin' },
      ],
    };
    const s0 = cached.answerStats();
    const first = await post('/cached', COIN, vars);
    const second = await post('/cached', COIN, vars);
    const ents = [await post('/cached', ENTITIES, reps), await post('/cached', ENTITIES, reps)];
    const s1 = cached.answerStats();
    expect(s1 && s0 && s1.hits - s0.hits).toBe(2);
    expect(second).toBe(first);
    expect(first).toBe(await post('/plain', COIN, vars));
    expect(ents[1]).toBe(await post('/plain', ENTITIES, reps));
    // Another currency is another fetch.
    expect(await post('/cached', COIN, { c: 'usd' })).toBe(await post('/plain', COIN, { c: 'usd' }));

    const before = JSON.parse(first) as { data: { coin: { price: number } } };
    await tick(1.25);
    const after = await post('/cached', COIN, vars);
    expect(after).toBe(await post('/plain', COIN, vars));
    const moved = (JSON.parse(after) as { data: { coin: { price: number } } }).data.coin.price;
    expect(moved).not.toBe(before.data.coin.price);
    // The graph and the price API agree on the new figure, each from its cache.
    expect(await restEur()).toBe(moved);
    expect(await post('/cached', ENTITIES, reps)).toBe(await post('/plain', ENTITIES, reps));
  });

  it('never keeps what reads more than the snapshot (the clock, the sources), nor another subgraph', async () => {
    const q = 'query ($n: ID!) { marketHealth { computedAt sources { name } } coin(id: $n) { id } }';
    const s0 = cached.answerStats();
    await post('/cached', q, { n: 'litecoin' });
    await post('/cached', q, { n: 'litecoin' });
    const s1 = cached.answerStats();
    expect(s1 && s0 && [s1.hits - s0.hits, s1.stored - s0.stored]).toEqual([0, 0]);
    const identity = g.subgraphs.find((s) => s.name === 'identity');
    const other = Fastify();
    try {
      const m = identity && (await mountSubgraph(other, identity, '/identity'));
      expect(m?.answerStats()).toBeNull();
    } finally {
      await other.close();
    }
  });
});

describe('in-process (InProcessSource) and the embedded router', () => {
  const ctx = (): SourceContext => ({ headers: {}, subgraphContexts: new Map() });

  it('a fetch is executed once per snapshot; every fetch of a request reads the snapshot it pinned', async () => {
    const markets = g.subgraphs.find((s) => s.name === 'markets');
    if (!markets) throw new Error('no markets subgraph');
    const source = new InProcessSource(markets, 5_000, silent);
    const fetch = { query: COIN, variables: { c: 'eur' } };
    const a = await source.process(fetch, ctx());
    const b = await source.process(fetch, ctx());
    expect(source.answerStats()).toMatchObject({ hits: 1, stored: 1 });
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    // A hit is a copy: what the gateway merges into one answer never reaches the next.
    (b.data as { coin: { id: string } }).coin.id = 'changed';
    expect(JSON.stringify(await source.process(fetch, ctx()))).toBe(JSON.stringify(a));

    // A request that pinned the old snapshot keeps reading it after the tick; the next request sees the new one.
    const old = ctx();
    await source.process({ query: '{ coin(id: "bitcoin") { id } }', variables: {} }, old);
    await tick(0.8);
    const stale = await source.process(fetch, old);
    expect(JSON.stringify(stale)).toBe(JSON.stringify(a));
    const fresh = await source.process(fetch, ctx());
    expect((fresh.data as { coin: { price: number } }).coin.price).not.toBe(
      (a.data as { coin: { price: number } }).coin.price,
    );
    expect((fresh.data as { coin: { price: number } }).coin.price).toBe(await restEur());
  });

  it('the embedded router sees the next snapshot on the next request (answer and response caches on)', async () => {
    const q = `{ coin(id: "litecoin") { id price(currency: "eur") } bridge { coins { ticker coin { id price } } } }`;
    const price = async (): Promise<number> => {
      const r = await g.gql(q, { ip: '10.8.0.1' });
      expect(r.status).toBe(200);
      return (r.body.data as { coin: { price: number } }).coin.price;
    };
    const p0 = await price();
    expect(await price()).toBe(p0);
    await tick(1.1);
    const p1 = await price();
    expect(p1).not.toBe(p0);
    expect(p1).toBe(await restEur());
    expect(await price()).toBe(p1);
  });
});
