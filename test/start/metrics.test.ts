/**
 * A process's Prometheus metrics (src/start/metrics.ts) on their own port: scraped before and after requests, the
 * series move; labels stay bounded (route patterns, at most MAX_OPERATION_NAMES operation names).
 */
import { get } from 'node:http';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceHealth } from '../../src/market/source-health.ts';
import { MAX_OPERATION_NAMES, ProcessMetrics } from '../../src/start/metrics.ts';
import { ProcessRun } from '../../src/start/process.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { cachedRead } from '../../src/store/read-cache.ts';
import { ObservedSource } from '../../router/sources/source.ts';

let run: ProcessRun;
let url: string;

beforeAll(async () => {
  run = new ProcessRun({ logLevel: 'silent', host: '127.0.0.1', port: 0, metricsPort: 0 }, {}, 'router');
  const app = Fastify(run.fastifyOptions);
  // Stands in for the router's answers: the plan and cost headers it sets, the operation name the client sent.
  app.post('/graphql', async (req, reply) => {
    const { operationName, refuse } = req.body as { operationName?: string; refuse?: boolean };
    void reply.header('x-api-plan', 'pro');
    if (refuse) return reply.code(429).send({ errors: [{ message: 'rate limited' }] });
    void reply.header('x-query-cost', '42');
    return { data: { operationName } };
  });
  run.instrument(app);
  url = await run.listen(app);
  await run.warmUp(async () => {});
});
afterAll(() => run.close());

async function scrape(): Promise<string> {
  const r = await fetch(run.metricsUrl ?? '');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toContain('text/plain');
  return r.text();
}

/** The value of one series (`name{a="x",…}`, its labels in any order), 0 when absent. */
function value(text: string, series: string): number {
  const m = /^([^{]+)\{(.*)\}$/.exec(series);
  const name = m?.[1] ?? series;
  const want = new Set((m?.[2] ?? '').split(',').filter(Boolean));
  for (const line of text.split('\n')) {
    const l = /^([^{ ]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!l || l[1] !== name) continue;
    const labels = new Set((l[2] ?? '').split(',').filter(Boolean));
    if (labels.size === want.size && [...want].every((w) => labels.has(w))) return Number(l[3]);
  }
  return 0;
}

const gql = (body: Record<string, unknown>) =>
  fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('Prometheus metrics on METRICS_PORT', () => {
  it('counts requests by route and status, operations by name, plan and outcome, cost, refusals; Node defaults', async () => {
    const before = await scrape();
    const livez =
      'http_request_duration_seconds_count{part="router",method="GET",route="/livez",status="200"}';
    const ok = 'graphql_operations_total{part="router",operation="Prices",plan="pro",outcome="ok"}';
    const refusedOp = 'graphql_operations_total{part="router",operation="Prices",plan="pro",outcome="error"}';
    const refused = 'http_requests_refused_total{part="router",reason="rate_limit",code="other"}';
    const cost = 'graphql_query_cost_sum{part="router",plan="pro"}';

    for (let i = 0; i < 3; i++) expect((await fetch(`${url}/livez`)).status).toBe(200);
    expect((await gql({ query: '{ x }', operationName: 'Prices' })).status).toBe(200);
    expect((await gql({ query: '{ x }', operationName: 'Prices' })).status).toBe(200);
    expect((await gql({ query: '{ x }', operationName: 'Prices', refuse: true })).status).toBe(429);
    expect((await fetch(`${url}/no/such/${'x'.repeat(20)}`)).status).toBe(404);

    const after = await scrape();
    expect(value(after, livez) - value(before, livez)).toBe(3);
    expect(value(after, ok) - value(before, ok)).toBe(2);
    expect(value(after, refusedOp) - value(before, refusedOp)).toBe(1);
    expect(value(after, refused) - value(before, refused)).toBe(1);
    expect(value(after, cost) - value(before, cost)).toBe(84);
    // An unmatched path is one label, never the path itself.
    expect(after).toContain('route="unmatched",status="404"');
    expect(after).not.toContain('/no/such/');
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds\{part="router"\} /m);
    expect(after).toMatch(/^process_cpu_seconds_total\{part="router"\} /m);
  });

  it('tells at most MAX_OPERATION_NAMES operation names apart; the rest are "other"', () => {
    const m = new ProcessMetrics();
    m.label('router');
    for (let i = 0; i < MAX_OPERATION_NAMES + 50; i++)
      m.observe({ method: 'POST', route: '/graphql', status: 200, ms: 1, plan: 'free', operation: `Op${i}` });
    return m.registry.getSingleMetricAsString('graphql_operations_total').then((text) => {
      const series = text.split('\n').filter((l) => l.startsWith('graphql_operations_total{'));
      expect(series).toHaveLength(MAX_OPERATION_NAMES + 1);
      expect(
        value(text, 'graphql_operations_total{part="router",operation="other",plan="free",outcome="ok"}'),
      ).toBe(50);
    });
  });

  it('counts refusals by the code the gate or a router plugin noted; a noted refusal of another status is "limits"', async () => {
    const m = new ProcessMetrics();
    m.label('router');
    const base = { method: 'POST', route: '/graphql', ms: 1, plan: 'free' } as const;
    m.observe({ ...base, status: 401, refused: 'API_KEY_REVOKED' });
    m.observe({ ...base, status: 429, refused: 'RATE_LIMITED' });
    m.observe({ ...base, status: 400, refused: 'COST_ESTIMATED_TOO_EXPENSIVE' });
    m.observe({ ...base, status: 400 });
    const text = await m.registry.getSingleMetricAsString('http_requests_refused_total');
    const refused = (reason: string, code: string) =>
      value(text, `http_requests_refused_total{part="router",reason="${reason}",code="${code}"}`);
    expect(refused('auth', 'API_KEY_REVOKED')).toBe(1);
    expect(refused('rate_limit', 'RATE_LIMITED')).toBe(1);
    expect(refused('limits', 'COST_ESTIMATED_TOO_EXPENSIVE')).toBe(1);
    expect(text.split('\n').filter((l) => l.startsWith('http_requests_refused_total{'))).toHaveLength(3);
  });

  it("counts the embedded store's read-cache hits and misses by domain", async () => {
    const m = new ProcessMetrics();
    m.label('product');
    const db = await openMemoryDb();
    const series = (result: string) =>
      m.registry
        .getSingleMetricAsString('store_read_cache_lookups')
        .then((t) => value(t, `store_read_cache_lookups{part="product",domain="names",result="${result}"}`));
    const [hits, misses] = [await series('hit'), await series('miss')];
    const read = () => cachedRead(db, 'names', 'alice.coin', async () => 1);
    await read();
    await read();
    await read();
    expect(await series('miss')).toBe(misses + 1);
    expect(await series('hit')).toBe(hits + 2);
    await db.close();
  });

  it("times subgraph fetches by outcome and reads the router's and the market's figures at each scrape", async () => {
    const m = new ProcessMetrics();
    m.label('router');
    const observe = m.observeFetch.bind(m);
    const ok = new ObservedSource('markets', { process: async () => ({ data: { x: 1 } }) }, observe);
    const down = new ObservedSource(
      'identity',
      {
        process: async () => ({
          errors: [{ message: 'down', extensions: { code: 'SUBGRAPH_UNAVAILABLE' } }],
        }),
      },
      observe,
    );
    for (const s of [ok, ok, down]) await s.process({ query: '{ x }', variables: {} }, {});
    let hits = 3;
    m.watchRouter({
      responseCacheStats: () => ({ hits, misses: 1, stored: 1, entries: 1, size: 10 }),
      dedupedOperations: () => 2,
      directExecutions: () => 5,
      parsedDocuments: () => ({ documents: 3, bytes: 33_000, replacedYoga: true }),
    });
    const tickAt = Date.now() - 5_000;
    m.watchMarket(() => ({
      sources: new Map([
        [
          'node:ltc',
          {
            dataAsOf: Date.now() - 30_000,
            lastMs: 120,
            failures: { timeout: 2 },
          } as unknown as SourceHealth,
        ],
      ]),
      lastTick: { at: tickAt, ms: 250 },
      rejects: { bySource: () => new Map([['ccxt:kraken', 4]]) },
    }));
    let text = await m.registry.metrics();
    expect(value(text, 'router_parsed_documents_bytes{part="router"}')).toBe(33_000);
    expect(
      value(text, 'subgraph_fetch_duration_seconds_count{part="router",subgraph="markets",outcome="ok"}'),
    ).toBe(2);
    expect(
      value(
        text,
        'subgraph_fetch_duration_seconds_count{part="router",subgraph="identity",outcome="unavailable"}',
      ),
    ).toBe(1);
    expect(value(text, 'router_response_cache_lookups{part="router",result="hit"}')).toBe(3);
    expect(value(text, 'router_operations_shared{part="router",how="inflight"}')).toBe(2);
    expect(value(text, 'source_failures{part="router",source="node:ltc",reason="timeout"}')).toBe(2);
    expect(value(text, 'source_poll_seconds{part="router",source="node:ltc"}')).toBe(0.12);
    expect(value(text, 'source_data_age_seconds{part="router",source="node:ltc"}')).toBeGreaterThanOrEqual(
      30,
    );
    expect(value(text, 'source_rejected_records{part="router",source="ccxt:kraken"}')).toBe(4);
    expect(value(text, 'engine_last_tick_seconds{part="router"}')).toBe(0.25);
    expect(value(text, 'engine_last_tick_timestamp_seconds{part="router"}')).toBe(tickAt / 1000);
    hits = 7;
    text = await m.registry.metrics();
    expect(value(text, 'router_response_cache_lookups{part="router",result="hit"}')).toBe(7);
  });

  it('answers 404 for anything but GET /metrics, and nothing of it on the public port', async () => {
    // A new connection each (fetch would reuse one a test before may have left idle past the server's keep-alive).
    const status = (u: string) =>
      new Promise<number | undefined>((resolve, reject) =>
        get(u, { agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode);
        }).once('error', reject),
      );
    expect(await status((run.metricsUrl ?? '').replace('/metrics', '/other'))).toBe(404);
    expect(await status(`${url}/metrics`)).toBe(404);
  });
});
