/**
 * The markets subgraph's `Subscription` fields in process: executed as an operation (one event from the current
 * snapshot, how the router computes every event) they carry the queries' figures and nulls; subscribed to with
 * graphql's `subscribe` they yield the current event, then one per snapshot the market publishes.
 */
import { createRequire } from 'node:module';
import type * as GraphQL from 'graphql';
import type { ExecutionResult } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineConfig } from '../../src/start/wiring.ts';
import { createMarketsSubgraph } from '../../subgraphs/markets/index.ts';
import type { MarketsSubgraph } from '../../subgraphs/markets/index.ts';
import { createTestMarket, TEST_NOW } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';
import { movePrice } from '../support/price-move.ts';

// The CommonJS build of graphql, the one @apollo/subgraph builds the schema with (see markets.test.ts).
const { graphql, parse, subscribe } = createRequire(import.meta.url)('graphql') as typeof GraphQL;

let tm: TestMarket;
let sg: MarketsSubgraph;
let clock = TEST_NOW;

beforeAll(async () => {
  tm = await createTestMarket({ days: 10, now: () => clock });
  sg = createMarketsSubgraph({ market: tm.market, engine: engineConfig({ staleAfterMs: 900_000 }) });
}, 120_000);
afterAll(async () => {
  await tm?.close();
});

const run = async (source: string, variables?: Record<string, unknown>): Promise<ExecutionResult> =>
  graphql({ schema: sg.schema, source, variableValues: variables ?? null, contextValue: sg.contextFor() });

const codes = (r: ExecutionResult) => r.errors?.map((e) => e.extensions['code']);

describe('Subscription.prices executed once', () => {
  it('gives each tracked coin of ids once, in order, with the figures of the queries and REST', async () => {
    const r = await run(`subscription {
      prices(ids: ["dogecoin", "no-such-coin", "litecoin", "dogecoin"], currency: "eur") {
        id symbol currency price change24h confidence updatedAt
      }
    }`);
    expect(r.errors).toBeUndefined();
    const rows = (r.data as { prices: Record<string, unknown>[] }).prices;
    expect(rows.map((x) => x.id)).toEqual(['dogecoin', 'litecoin']);
    const q = await run(`{ coins(ids: ["dogecoin", "litecoin"], order: ID_ASC) { edges { node {
      id symbol price(currency: "eur") confidence lastUpdated } } } }`);
    const nodes = (q.data as { coins: { edges: { node: Record<string, unknown> }[] } }).coins.edges.map(
      (e) => e.node,
    );
    for (const row of rows) {
      const node = nodes.find((n) => n.id === row.id) as Record<string, unknown>;
      expect(row).toMatchObject({
        symbol: node.symbol,
        currency: 'eur',
        price: node.price,
        confidence: node.confidence,
        updatedAt: node.lastUpdated,
      });
    }
    // The 24-hour change in EUR is REST's eur_24h_change.
    const rest = await tm.app.inject({
      url: '/v1/agg/simple/price?ids=litecoin,dogecoin&vs_currencies=eur&include_24hr_change=true',
    });
    const body = JSON.parse(rest.body) as Record<string, { eur_24h_change: number | null }>;
    expect(rows.find((x) => x.id === 'litecoin')?.change24h).toBe(body.litecoin?.eur_24h_change);
    expect(rows.find((x) => x.id === 'dogecoin')?.change24h).toBe(body.dogecoin?.eur_24h_change);
    expect(typeof rows[0]?.change24h).toBe('number');
  });

  it('refuses bad arguments with the queries codes', async () => {
    const q = (ids: string, currency = 'usd') =>
      run(`subscription { prices(ids: ${ids}, currency: "${currency}") { id } }`);
    expect(codes(await q('["litecoin"]', 'xyz'))).toEqual(['INVALID_CURRENCY']);
    expect(codes(await q('["Not An Id!"]'))).toEqual(['INVALID_COIN_ID']);
    expect(codes(await q('[]'))).toEqual(['INVALID_PARAMETER']);
    const many = JSON.stringify(Array.from({ length: 251 }, (_, i) => `coin-${i}`));
    const r = await q(many);
    expect(codes(r)).toEqual(['INVALID_PARAMETER']);
    expect(r.errors?.[0]?.message).toContain('1 to 250 coin ids');
  });
});

describe('Subscription.markets executed once', () => {
  it('ranks as coins does, with positions, ranks and the same figures', async () => {
    const r = await run(`subscription { markets(first: 5, order: VOLUME_DESC, currency: "usd") {
      position rank id name price marketCap volume24h change24h confidence updatedAt } }`);
    expect(r.errors).toBeUndefined();
    const rows = (r.data as { markets: Record<string, unknown>[] }).markets;
    const q = await run(`{ coins(first: 5, order: VOLUME_DESC) { edges { node {
      id rank name price marketCap volume24h changes { h24 } confidence lastUpdated } } } }`);
    const nodes = (q.data as { coins: { edges: { node: Record<string, unknown> }[] } }).coins.edges.map(
      (e) => e.node,
    );
    expect(rows.map((x) => x.position)).toEqual([1, 2, 3, 4, 5]);
    expect(rows).toEqual(
      nodes.map((n, i) => ({
        position: i + 1,
        rank: n.rank,
        id: n.id,
        name: n.name,
        price: n.price,
        marketCap: n.marketCap,
        volume24h: n.volume24h,
        change24h: (n.changes as { h24: number | null }).h24,
        confidence: n.confidence,
        updatedAt: n.lastUpdated,
      })),
    );
  });

  it('refuses a first outside 1–250', async () => {
    const r = await run('subscription { markets(first: 0) { id } }');
    expect(codes(r)).toEqual(['INVALID_PARAMETER']);
    expect(codes(await run('subscription { markets(first: 251) { id } }'))).toEqual(['INVALID_PARAMETER']);
  });
});

describe('Subscription.prices subscribed to', () => {
  it('yields the current event, then one per published snapshot, and stops on return', async () => {
    const it = (await subscribe({
      schema: sg.schema,
      document: parse('subscription { prices(ids: ["litecoin"], currency: "usd") { id price } }'),
      contextValue: sg.contextFor(),
    })) as AsyncGenerator<ExecutionResult>;
    const first = await it.next();
    const before = (first.value as { data: { prices: { price: number }[] } }).data.prices[0]?.price as number;
    clock += 60_000;
    await movePrice(tm.market, 'litecoin', 1.05);
    const second = await it.next();
    const after = (second.value as { data: { prices: { price: number }[] } }).data.prices[0]?.price as number;
    expect(after / before).toBeCloseTo(1.05, 2);
    await it.return(undefined);
    expect((await it.next()).done).toBe(true);
  });
});
