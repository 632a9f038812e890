/**
 * Live subscriptions through the embedded router, over real HTTP on loopback: GraphQL over SSE and over WebSocket,
 * fed by the test market's own snapshots (each price move is an engine tick on the market's clock, advanced by hand).
 * Key checks at connect, caps per plan, revocation closing streams within one tick, and the budgets charged per
 * delivered event.
 */
import Fastify from 'fastify';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccess } from '../../src/access/access.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import { createRouter } from '../../router/index.ts';
import { mountRouter } from '../../router/http.ts';
import { ADMIN_TOKEN, call } from '../accounts/harness.ts';
import { TEST_NOW } from '../support/price-app.ts';
import { movePrice } from '../support/price-move.ts';
import { graphHarness } from './router-harness.ts';
import type { GraphHarness } from './router-harness.ts';
import { openSse, openWs } from './support/streams.ts';
import type { StreamEvent } from './support/streams.ts';

let clock = TEST_NOW;
let g: GraphHarness;
let base: string;
let wsUrl: string;
let key: { key: string; id: string };

const PRICES =
  'subscription ($ids: [ID!]!, $c: String!) { prices(ids: $ids, currency: $c) { id price change24h confidence updatedAt } }';
const MARKETS = 'subscription { markets(first: 3, order: ID_ASC) { position id price } }';

/** An engine tick that moves one coin's price. */
async function tick(coin: string, factor: number): Promise<void> {
  clock += 60_000;
  await movePrice(g.tm.market, coin, factor);
  // The feed started the hub's tick; this waits for it (and computes once more, changing nothing).
  await g.router.subscriptions.tick();
}

const prices = (e: StreamEvent) => (e.data?.data?.['prices'] ?? []) as Record<string, unknown>[];
const code = (e: StreamEvent | { errors?: { extensions?: Record<string, unknown> }[] } | null) =>
  ((e && 'event' in e ? e.data : e)?.errors ?? []).map((x) => x.extensions?.['code']);

async function until(cond: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  g = await graphHarness({ now: () => clock, liveSubscriptions: true });
  base = await g.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `${base.replace('http', 'ws')}/graphql`;
  key = await g.makeKey('free');
}, 180_000);
afterAll(async () => {
  await g?.close();
});

describe('GraphQL over SSE', () => {
  it('sends the current prices, then only the coins that moved, each event charged and costed', async () => {
    // Only id and price: the 24-hour change and the confidence of every coin move with the clock.
    const s = await openSse(
      `${base}/graphql`,
      {
        query: 'subscription ($ids: [ID!]!) { prices(ids: $ids, currency: "usd") { id price } }',
        variables: { ids: ['litecoin', 'dogecoin'] },
      },
      { 'x-sp-api-key': key.key },
    );
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(s.headers.get('x-api-plan')).toBe('free');
    const first = await s.next();
    expect(first.event).toBe('next');
    expect(prices(first).map((p) => p.id)).toEqual(['litecoin', 'dogecoin']);
    expect(first.data?.extensions?.['cost']).toMatchObject({
      estimated: 100,
      actual: 2,
      max: 5_000,
      plan: 'free',
    });
    const before = prices(first)[0]?.price as number;

    await tick('litecoin', 1.02);
    const second = await s.next();
    expect(prices(second).map((p) => p.id)).toEqual(['litecoin']);
    expect((prices(second)[0]?.price as number) / before).toBeCloseTo(1.02, 3);
    const cost = second.data?.extensions?.['cost'] as {
      actual: number;
      budget: { limit: number; remaining: number };
    };
    expect(cost.actual).toBe(1);
    expect(cost.budget.limit).toBe(20_000);

    // A tick that moves no coin of the stream sends nothing.
    await tick('bitcoin', 1.05);
    await new Promise((r) => setTimeout(r, 200));
    expect(s.pending()).toBe(0);
    s.close();
    await until(() => g.router.subscriptions.stats().streams === 0, 'the stream to end');
  });

  it('works with the graphql-sse client (distinct connections mode)', async () => {
    const client = createSseClient({
      url: `${base}/graphql`,
      headers: { 'x-sp-api-key': key.key },
      retryAttempts: 0,
    });
    const it = client.iterate<{ prices: { id: string; price: number }[] }>({
      query: 'subscription { prices(ids: ["litecoin"], currency: "eur") { id price } }',
    });
    const first = await it.next();
    expect(first.value?.data?.prices[0]?.id).toBe('litecoin');
    await it.return?.();
    client.dispose();
  });

  it('answers a query sent as a stream with one event, and refuses bad input before the stream starts', async () => {
    const q = await openSse(`${base}/graphql`, { query: '{ coin(id: "litecoin") { id } }' });
    expect((await q.next()).data?.data).toEqual({ coin: { id: 'litecoin' } });
    expect((await q.next()).event).toBe('complete');
    const invalid = await openSse(`${base}/graphql`, { query: 'subscription { nope }' });
    expect(invalid.status).toBe(400);
    expect(code(invalid.refusal)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    const currency = await openSse(`${base}/graphql`, {
      query: 'subscription { prices(ids: ["litecoin"], currency: "xyz") { id } }',
    });
    expect(currency.status).toBe(400);
    expect(code(currency.refusal)).toEqual(['INVALID_CURRENCY']);
    const vars = await openSse(`${base}/graphql`, { query: PRICES, variables: { ids: 'litecoin' } });
    expect(vars.status).toBe(400);
    expect(code(vars.refusal)).toEqual(['BAD_USER_INPUT']);
    // Over plain HTTP a subscription has nowhere to stream: a client error naming the transports.
    const plain = await g.gql('subscription { prices(ids: ["litecoin"], currency: "usd") { id } }');
    expect(plain.status).toBe(400);
    expect(plain.body.errors?.[0]?.extensions?.['code']).toBe('SUBSCRIPTION_NEEDS_STREAM');
    await until(() => g.router.subscriptions.stats().streams === 0, 'no stream left');
  });
});

describe('GraphQL over WebSocket', () => {
  it('streams markets whole and prices by coin, with the key in the connection params', async () => {
    const ws = openWs(wsUrl, { 'x-sp-api-key': key.key });
    expect(await ws.ready).toEqual({ ack: true });
    ws.send({ id: 'm', type: 'subscribe', payload: { query: MARKETS } });
    const first = await ws.next();
    expect(first).toMatchObject({ id: 'm', type: 'next' });
    const rows = (first.payload as { data: { markets: { position: number; id: string }[] } }).data.markets;
    expect(rows.map((r) => r.position)).toEqual([1, 2, 3]);
    await tick(rows[1]?.id as string, 1.03);
    const second = await ws.next();
    expect((second.payload as { data: { markets: unknown[] } }).data.markets).toHaveLength(3);
    ws.send({ id: 'm', type: 'complete' });
    ws.close();
    await ws.closed;
    await until(() => g.router.subscriptions.stats().streams === 0, 'the stream to end');
  });

  it('works with the graphql-ws client', async () => {
    const client = createWsClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { 'x-sp-api-key': key.key },
      retryAttempts: 0,
    });
    const it = client.iterate<{ prices: { id: string }[] }>({
      query: 'subscription { prices(ids: ["dogecoin"], currency: "usd") { id } }',
    });
    expect((await it.next()).value?.data?.prices[0]?.id).toBe('dogecoin');
    await it.return?.();
    await client.dispose();
  });
});

describe('keys, caps and revocation', () => {
  it('checks the key at connect: SSE answers 401, WebSocket closes 4403 with the code', async () => {
    const bad = await openSse(`${base}/graphql`, { query: MARKETS }, { 'x-sp-api-key': 'cw_live_nope' });
    expect(bad.status).toBe(401);
    expect(code(bad.refusal)).toEqual(['API_KEY_UNKNOWN']);
    const pending = await g.makeKey('free', { approve: false });
    const p = await openSse(`${base}/graphql`, { query: MARKETS }, { 'x-sp-api-key': pending.key });
    expect([p.status, code(p.refusal)]).toEqual([401, ['API_KEY_PENDING']]);
    const ws = openWs(wsUrl, { 'x-sp-api-key': pending.key });
    expect(await ws.ready).toEqual({ code: 4403, reason: 'API_KEY_PENDING' });
    // The key in the URL's query works for browsers too.
    const byQuery = openWs(`${wsUrl}?x_sp_api_key=${key.key}`);
    expect(await byQuery.ready).toEqual({ ack: true });
    byQuery.close();
  });

  it('caps open streams and coins per stream by plan', async () => {
    const one = await openSse(`${base}/graphql`, { query: MARKETS });
    const two = await openSse(`${base}/graphql`, { query: MARKETS });
    expect([one.status, two.status]).toEqual([200, 200]);
    const three = await openSse(`${base}/graphql`, { query: MARKETS });
    expect(three.status).toBe(429);
    expect(three.headers.get('retry-after')).toBe('1');
    expect(code(three.refusal)).toEqual(['TOO_MANY_SUBSCRIPTIONS']);
    one.close();
    await until(() => g.router.subscriptions.stats().streams === 1, 'one stream to end');
    const again = await openSse(`${base}/graphql`, { query: MARKETS });
    expect(again.status).toBe(200);
    const ids = Array.from({ length: 26 }, (_, i) => `coin-${i}`);
    const many = await openSse(`${base}/graphql`, { query: PRICES, variables: { ids, c: 'usd' } });
    expect(many.status).toBe(400);
    expect(code(many.refusal)).toEqual(['TOO_MANY_SUBSCRIPTION_IDS']);
    // A free key may ask for 100 coins.
    const keyed = await openSse(
      `${base}/graphql`,
      { query: PRICES, variables: { ids, c: 'usd' } },
      {
        'x-sp-api-key': key.key,
      },
    );
    expect(keyed.status).toBe(200);
    for (const s of [two, again, keyed]) s.close();
    await until(() => g.router.subscriptions.stats().streams === 0, 'no stream left');
  });

  it('ends a revoked key’s streams within one tick: a coded error, then complete; the socket closes 4403', async () => {
    const k = await g.makeKey('pro');
    const sse = await openSse(
      `${base}/graphql`,
      { query: PRICES, variables: { ids: ['litecoin'], c: 'usd' } },
      {
        'x-sp-api-key': k.key,
      },
    );
    await sse.next();
    const ws = openWs(wsUrl, { 'x-sp-api-key': k.key });
    await ws.ready;
    ws.send({ id: '1', type: 'subscribe', payload: { query: MARKETS } });
    await ws.next();
    const r = await call(g.rest, 'POST', `/api/admin/api-keys/${k.id}/revoke`, { token: ADMIN_TOKEN });
    expect(r.status).toBe(200);
    // The next tick moves no coin of either stream: the key is checked all the same.
    await tick('bitcoin', 1.01);
    const last = await sse.next();
    expect(code(last)).toEqual(['API_KEY_REVOKED']);
    expect((await sse.next()).event).toBe('complete');
    expect(await sse.ended).toEqual({ cut: false });
    const wsLast = await ws.next();
    expect(wsLast.type).toBe('next');
    expect(
      code({ errors: (wsLast.payload as { errors: { extensions: Record<string, unknown> }[] }).errors }),
    ).toEqual(['API_KEY_REVOKED']);
    expect((await ws.next()).type).toBe('complete');
    expect(await ws.closed).toEqual({ code: 4403, reason: 'API_KEY_REVOKED' });
  });
});

describe('budgets per event', () => {
  it('charges each delivered event one request and its cost; past the budget the stream ends with RATE_LIMITED', async () => {
    const access = createAccess({
      keys: g.rest.keys,
      limiter: createMemoryLimiter(),
      keylessPerMinute: 3,
    });
    const router = await createRouter({
      access,
      subgraphs: { kind: 'in-process', subgraphs: g.subgraphs },
      snapshots: (t) => g.tm.market.onSnapshot(() => t()),
    });
    const app = Fastify();
    await mountRouter(app, router);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const s = await openSse(`${url}/graphql`, {
        query: PRICES,
        variables: { ids: ['litecoin'], c: 'usd' },
      });
      expect(s.headers.get('x-ratelimit-remaining')).toBe('2');
      const first = await s.next();
      const left = (e: StreamEvent) =>
        (e.data?.extensions?.['cost'] as { budget: { remaining: number } }).budget.remaining;
      const start = left(first);
      await tick('litecoin', 1.01);
      const second = await s.next();
      expect(start - left(second)).toBe(1);
      await tick('litecoin', 1.01);
      await s.next();
      // The fourth request of the minute: the budget of 3 is spent.
      await tick('litecoin', 1.01);
      const over = await s.next();
      expect(code(over)).toEqual(['RATE_LIMITED']);
      expect(over.data?.errors?.[0]?.extensions?.['retryAfter']).toBeGreaterThan(0);
      expect((await s.next()).event).toBe('complete');
    } finally {
      await app.close();
      await router.stop();
    }
  });
});

describe('shutdown', () => {
  it('cuts SSE streams without complete and closes sockets with 1001, so clients reconnect elsewhere', async () => {
    const s = await openSse(`${base}/graphql`, { query: MARKETS }, { 'x-sp-api-key': key.key });
    await s.next();
    const ws = openWs(wsUrl, { 'x-sp-api-key': key.key });
    await ws.ready;
    // The drain: streams are cut at once; then whatever is left is closed (the process does so after
    // SHUTDOWN_TIMEOUT_MS; the test's own idle fetch connections would otherwise keep it waiting).
    const closing = g.app.close();
    expect(await s.ended).toEqual({ cut: true });
    expect((await ws.closed).code).toBe(1001);
    g.app.server.closeAllConnections();
    await closing;
  });
});
