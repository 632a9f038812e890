/**
 * The federated graph scaled out, as real processes: the four subgraphs each in its own `coinwallet serve --only
 * subgraph:<name>`, two routers (`serve --only router`) over the same `SUBGRAPH_URLS`, one PostgreSQL schema and one
 * Redis shared by all. Keys are made and revoked with the CLI directly on the store (as an operator would with no
 * server up); the routers learn of it through the Redis key revision.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createSDK } from '../../src/kit/index.ts';
import type { LivePrices } from '../../src/kit/index.ts';
import { openDb } from '../../src/store/open.ts';
import { openSse } from '../graph/support/streams.ts';
import type { ServeProcess } from '../support/process.ts';
import { startServe, waitForStatus } from '../support/process.ts';
import type { TempRedis } from '../support/redis.ts';
import { startTempRedis } from '../support/redis.ts';
import { startNginx } from '../support/nginx.ts';
import { CLIENT, SERVER, startOtlpReceiver } from '../support/otlp.ts';
import type { OtlpReceiver } from '../support/otlp.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const NAMES = ['markets', 'identity', 'bridge', 'accounts'] as const;
type Name = (typeof NAMES)[number];

let root: string;
let redis: TempRedis | undefined;
/** Where every process sends its spans (OTLP/HTTP JSON). */
let otlp: OtlpReceiver;
/** nginx in front of the two routers (deploy/nginx.conf). */
let lb: { url: string; stop(): Promise<void> };
let env: Record<string, string>;
/** Every process started, for afterAll (a restarted subgraph too). */
const started: ServeProcess[] = [];
const subgraphs = {} as Record<Name, ServeProcess>;
let routers: [ServeProcess, ServeProcess];
/** The routers' `SUBGRAPH_URLS`. */
let subgraphUrls = '';
/** burst: spent by the budget test; revoked: revoked by its test; drain: the SIGTERM test's; other: everything else. */
const keys: Record<'burst' | 'revoked' | 'drain' | 'other', { id: string; key: string }> = {} as never;
const timings: Record<string, number> = {};
/** True until beforeAll has finished, and after any failed test: afterAll then prints the processes' output. */
let failed = true;

async function serve(name: string, extra: Record<string, string>, args: string[]): Promise<ServeProcess> {
  const dataDir = join(root, name);
  mkdirSync(dataDir, { recursive: true });
  const p = await startServe({ ...env, ...extra, DATA_DIR: dataDir }, 60_000, [], args);
  started.push(p);
  return p;
}
const startSubgraph = (name: Name, extra: Record<string, string> = {}) =>
  serve(`subgraph-${name}`, extra, ['--only', `subgraph:${name}`]);

async function cli(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(
    process.execPath,
    // With DATABASE_URL and no --url, the CLI works on the PostgreSQL store itself.
    [join(ROOT, 'bin', 'coinwallet.js'), ...args],
    {
      env: { ...process.env, ...env, DATA_DIR: join(root, 'cli') },
    },
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}

async function createKey(): Promise<{ id: string; key: string }> {
  const r = await cli('keys', 'create', '--plan', 'free', '--approve');
  expect(r).toMatchObject({ plan: 'free', limitPerMinute: 600, status: 'approved' });
  return { id: r.id as string, key: r.key as string };
}

interface GqlResult {
  status: number;
  headers: Headers;
  text: string;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; path?: unknown[]; extensions?: Record<string, unknown> }[];
    extensions?: Record<string, unknown>;
  };
}

/** A router, or nginx in front of both. */
type Endpoint = Pick<ServeProcess, 'url'>;

async function gql(router: Endpoint, key: string, query: string): Promise<GqlResult> {
  return post(router, key, { query });
}

async function post(
  router: Endpoint,
  key: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<GqlResult> {
  const r = await fetch(`${router.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sp-api-key': key, ...headers },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, body: JSON.parse(text) as GqlResult['body'] };
}

const since = (t: number) => Date.now() - t;

/** A router's Prometheus metrics (METRICS_PORT), as text. */
async function scrape(router: ServeProcess): Promise<string> {
  const url = /coinwallet: metrics at (\S+)/.exec(router.output())?.[1] ?? '';
  return (await fetch(url)).text();
}

/** The sum of a metric's series whose labels include every one of `labels`. */
function total(text: string, metric: string, labels: Record<string, string>): number {
  let sum = 0;
  for (const m of text.matchAll(new RegExp(`^${metric}\\{([^}]*)\\} (\\S+)$`, 'gm')))
    if (Object.entries(labels).every(([k, v]) => m[1]?.includes(`${k}="${v}"`))) sum += Number(m[2]);
  return sum;
}

/** What each router answered of a kind while `work` ran (so that both routers behind nginx can be seen working). */
async function perRouter(
  metric: string,
  labels: Record<string, string>,
  work: () => Promise<void>,
): Promise<number[]> {
  const before = await Promise.all(routers.map(scrape));
  await work();
  const after = await Promise.all(routers.map(scrape));
  return routers.map(
    (_, i) => total(after[i] ?? '', metric, labels) - total(before[i] ?? '', metric, labels),
  );
}

beforeAll(async () => {
  const t0 = Date.now();
  root = mkdtempSync(join(tmpdir(), 'cw-graph-scale-'));
  mkdirSync(join(root, 'cli'));
  const schema = `graph_scale_${Date.now().toString(36)}`;
  otlp = await startOtlpReceiver();
  const [r] = await Promise.all([
    startTempRedis(),
    (async () => {
      const admin = await openDb({ databaseUrl: inject('databaseUrl') });
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.close();
    })(),
  ]);
  redis = r;
  const url = new URL(inject('databaseUrl'));
  url.searchParams.set('options', `-c search_path=${schema}`);
  env = {
    DATABASE_URL: url.toString(),
    REDIS_URL: redis.url,
    API_KEY_PEPPER: 'graph-scale-out-pepper-0123456789',
    ADMIN_TOKEN: 'graph-scale-out-admin-token-0123456789',
    // Scale-out generates no attestation key: the bridge subgraph signs its demo snapshot with this seed.
    BRIDGE_ATTESTATION_KEY: 'a5'.repeat(32),
    DEMO_DAYS: '3',
    // Access lines (JSON) from every process, and spans to the receiver within 100 ms.
    LOG_LEVEL: 'info',
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };

  // markets first: it is listening once the schema is migrated (the others then find it done) and generates the
  // demo data into the store while the rest start.
  // A tick every 10 s (not 60): the live subscriptions test waits for one.
  subgraphs.markets = await startSubgraph('markets', { TICK_INTERVAL_MS: '10000' });
  timings.marketsListening = since(t0);
  // Then the other three, the routers once their URLs are known, and the keys (the CLI on the store) meanwhile.
  await Promise.all([
    (async () => {
      const rest = await Promise.all(NAMES.slice(1).map((n) => startSubgraph(n)));
      NAMES.slice(1).forEach((n, i) => (subgraphs[n] = rest[i] as ServeProcess));
      timings.subgraphsListening = since(t0);
      const SUBGRAPH_URLS = NAMES.map((n) => `${n}=${subgraphs[n].url}/graphql`).join(',');
      subgraphUrls = SUBGRAPH_URLS;
      const [a, b] = await Promise.all(
        [0, 1].map((i) => serve(`router-${i}`, { SUBGRAPH_URLS, METRICS_PORT: '0' }, ['--only', 'router'])),
      );
      routers = [a as ServeProcess, b as ServeProcess];
      timings.routersListening = since(t0);
    })(),
    (async () => {
      [keys.burst, keys.revoked, keys.drain, keys.other] = await Promise.all([
        createKey(),
        createKey(),
        createKey(),
        createKey(),
      ]);
      timings.keysCreated = since(t0);
    })(),
  ]);
  timings.allListening = since(t0);
  await Promise.all(started.map((p) => waitForStatus(`${p.url}/healthz`, 200, 150_000)));
  timings.allReady = since(t0);
  lb = await startNginx(
    join(root, 'nginx'),
    routers.map((r) => r.url),
  );
  failed = false;
}, 180_000);

beforeEach(({ onTestFailed }) => onTestFailed(() => void (failed = true)));

async function until(cond: () => boolean, what: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** SIGTERM, and SIGKILL if it has not exited 10 s later. */
async function stop(p: ServeProcess): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 10_000)));
  const r = await Promise.race([p.stop('SIGTERM'), late]);
  clearTimeout(timer);
  if (r === 'late') await p.stop('SIGKILL');
}

afterAll(async () => {
  // On a failure, what the processes said (without the access lines).
  if (failed)
    for (const p of started)
      console.log(
        `--- ${p.url} (${p.child.spawnargs.slice(3).join(' ')})\n${p
          .output()
          .split('\n')
          .filter((l) => !l.includes('"msg":"request"'))
          .join('\n')}`,
      );
  await lb?.stop();
  await Promise.all(started.map(stop));
  await otlp?.close();
  await redis?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
  console.log('graph-scale-out timings (ms):', timings);
});

describe('the graph scaled out: four subgraph processes, two routers, one PostgreSQL, one Redis', () => {
  it('shares one budget per key between the routers behind nginx exactly: 650 requests in one window → 600 admitted, 50 refused', async () => {
    const { key } = keys.burst;
    const query = '{ coin(id: "bitcoin") { id price } }';
    const t0 = Date.now();
    // The key's first request opens its 60-second window; the other 649 follow through nginx, 10 in flight.
    const results: GqlResult[] = [];
    const admitted = await perRouter(
      'graphql_operations_total',
      { plan: 'free', outcome: 'ok' },
      async () => {
        results.push(await gql(lb, key, query));
        for (let i = 1; i < 650; i += 10)
          results.push(
            ...(await Promise.all(Array.from({ length: Math.min(10, 650 - i) }, () => gql(lb, key, query)))),
          );
      },
    );
    const elapsed = since(t0);
    timings.burst650 = elapsed;
    // Sent well inside the window that the first request opened, or the count below would span two windows.
    expect(elapsed, 'the 650 requests must finish within one rate-limit window').toBeLessThan(50_000);

    expect(results).toHaveLength(650);
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(600);
    expect(refused).toHaveLength(50);
    // nginx spread them: both routers admitted part of the budget, and neither counts on its own.
    expect(admitted[0]! + admitted[1]!).toBe(600);
    for (const n of admitted) expect(n).toBeGreaterThan(0);
    for (const r of ok) {
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data).toEqual({ coin: { id: 'bitcoin', price: expect.any(Number) } });
      expect(r.headers.get('x-ratelimit-limit')).toBe('600');
    }
    for (const r of refused) {
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(r.body.data ?? null).toBeNull();
      expect(r.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    }
    // Batches go one after the other: every batch before the one holding the 601st request is admitted whole, every
    // batch after it refused whole (within a batch the arrival order is the network's).
    const codes = results.map((r) => r.status);
    expect(codes.slice(0, 591).every((c) => c === 200)).toBe(true);
    expect(codes.slice(591, 601).filter((c) => c === 200)).toHaveLength(9);
    expect(codes.slice(601).every((c) => c === 429)).toBe(true);
  });

  it('refuses a revoked key on both routers behind nginx from the very next request', async () => {
    const { id, key } = keys.revoked;
    const query = '{ global { activeCryptocurrencies } }';
    // Both routers now hold the key in their lookup caches.
    const warmed = await perRouter('graphql_operations_total', { plan: 'free', outcome: 'ok' }, async () => {
      for (let i = 0; i < 6; i++) expect((await gql(lb, key, query)).status).toBe(200);
    });
    for (const n of warmed) expect(n).toBeGreaterThan(0);
    const revoked = await cli('keys', 'revoke', id);
    expect(revoked.status).toBe('revoked');
    const refused = await perRouter('http_requests_refused_total', { reason: 'auth' }, async () => {
      for (let i = 0; i < 6; i++) {
        const r = await gql(lb, key, query);
        expect(r.status).toBe(401);
        expect(r.body.data ?? null).toBeNull();
        expect(r.body.errors?.[0]?.extensions?.code).toBe('API_KEY_REVOKED');
      }
    });
    for (const n of refused) expect(n).toBeGreaterThan(0);
  });

  it('reports the query cost on every response and refuses a too-expensive query on both routers', async () => {
    const { key } = keys.other;
    for (const router of routers) {
      const r = await gql(router, key, '{ coins(first: 3) { edges { node { id price } } } }');
      expect(r.status).toBe(200);
      expect(r.body.errors).toBeUndefined();
      const cost = r.body.extensions?.['cost'] as { estimated: number; max: number; plan: string };
      expect(cost).toMatchObject({ estimated: expect.any(Number), max: 5_000, plan: 'free' });
      expect(cost.estimated).toBeGreaterThan(0);
      expect(r.headers.get('x-query-cost')).toBe(String(cost.estimated));
      expect(r.headers.get('x-query-cost-limit')).toBe('5000');
    }
    for (const router of routers) {
      const r = await gql(
        router,
        key,
        '{ coins(first: 100) { edges { node { id chart(days: 1) { points { price } } } } } }',
      );
      expect(r.status).toBe(400);
      expect(r.body.data ?? null).toBeNull();
      const err = r.body.errors?.[0];
      expect(err?.extensions?.code).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
      const cost = err?.extensions?.['cost'] as { estimated: number; max: number; plan: string };
      expect(cost).toMatchObject({ max: 5_000, plan: 'free' });
      expect(cost.estimated).toBeGreaterThan(1_000);
      expect(r.headers.get('x-query-cost')).toBe(String(cost.estimated));
    }
  });

  it("serves a router's Prometheus metrics on METRICS_PORT: they move with what it answered", async () => {
    const [a] = routers;
    const fetches = [
      'subgraph_fetch_duration_seconds_count',
      { subgraph: 'markets', outcome: 'ok' },
    ] as const;
    const ops = ['graphql_operations_total', { operation: 'Metered', plan: 'free', outcome: 'ok' }] as const;
    const count = (text: string, [metric, labels]: readonly [string, Record<string, string>]) =>
      total(text, metric, labels);
    const before = await scrape(a);
    for (let i = 0; i < 3; i++) {
      const r = await post(a, keys.other.key, {
        query: 'query Metered { coin(id: "litecoin") { id price } }',
        operationName: 'Metered',
      });
      expect(r.status).toBe(200);
    }
    const after = await scrape(a);
    expect(count(after, ops) - count(before, ops)).toBe(3);
    expect(count(after, fetches) - count(before, fetches)).toBeGreaterThanOrEqual(3);
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds\{part="router"\} /m);
  });

  it('joins one graph request across the processes: one connected trace, one request id in every access line', async () => {
    const [a] = routers;
    const traceId = randomBytes(16).toString('hex');
    const clientSpan = randomBytes(8).toString('hex');
    const requestId = `join-${traceId.slice(0, 12)}`;
    const r = await post(
      a,
      keys.other.key,
      {
        query: 'query Joined { coin(id: "bitcoin") { id price } name(name: "alice.coin") { name } }',
        operationName: 'Joined',
      },
      { traceparent: `00-${traceId}-${clientSpan}-01`, 'x-request-id': requestId },
    );
    expect(r.status).toBe(200);
    expect(r.headers.get('x-request-id')).toBe(requestId);

    // The spans of all three processes arrive at the receiver with the client's trace id.
    const serverOf = (service: string) => (s: { service: string; kind: number }) =>
      s.service === service && s.kind === SERVER;
    const spans = await otlp.trace(
      traceId,
      (t) =>
        ['coinwallet-router', 'coinwallet-subgraph-markets', 'coinwallet-subgraph-identity'].every((svc) =>
          t.some(serverOf(svc)),
        ) && t.some((s) => s.service === 'coinwallet-subgraph-identity' && s.name.startsWith('db.query')),
    );
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const router = spans.find(serverOf('coinwallet-router'));
    expect(router).toMatchObject({ name: 'POST /graphql', parentSpanId: clientSpan });
    expect(router?.attributes).toMatchObject({
      'http.response.status_code': 200,
      'coinwallet.plan': 'free',
      'coinwallet.operation': 'Joined',
      'coinwallet.key': keys.other.id.slice(0, 8),
      'coinwallet.request_id': requestId,
    });
    // One tree: every span's parent is a span of the trace, but the router's, whose parent is the client's.
    for (const s of spans)
      if (s !== router) expect(byId.has(s.parentSpanId), `${s.service} ${s.name}`).toBe(true);
    const parentOf = (name: string) => byId.get(spans.find((s) => s.name === name)?.parentSpanId ?? '')?.name;
    // The router's phases: the key, the budget, the limits and the cost beneath the request; the plan beneath the
    // execution, beside the subgraph fetches.
    for (const phase of [
      'router.api-key',
      'router.rate-limit',
      'router.limits',
      'router.query-cost',
      'router.execute',
    ])
      expect(parentOf(phase), phase).toBe('POST /graphql');
    expect(parentOf('router.plan')).toBe('router.execute');
    for (const subgraph of ['markets', 'identity']) {
      const fetch = spans.find((s) => s.name === `subgraph ${subgraph}`);
      expect(fetch).toMatchObject({ kind: CLIENT, service: 'coinwallet-router' });
      expect(byId.get(fetch?.parentSpanId ?? '')?.name).toBe('router.execute');
      // The subgraph process's request is the child of the router's fetch (W3C trace context over HTTP).
      const served = spans.find(serverOf(`coinwallet-subgraph-${subgraph}`));
      expect(served?.parentSpanId).toBe(fetch?.spanId);
    }
    const query = spans.find(
      (s) => s.service === 'coinwallet-subgraph-identity' && s.name.startsWith('db.query'),
    );
    expect(query?.attributes['db.system.name']).toBe('postgresql');

    // The access lines of the router and of both subgraph processes carry the one request id.
    const lines = (p: ServeProcess) =>
      p
        .output()
        .split('\n')
        .filter((l) => l.includes(`"reqId":"${requestId}"`))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines(a)).toEqual([
      expect.objectContaining({
        msg: 'request',
        method: 'POST',
        route: '/graphql',
        status: 200,
        plan: 'free',
        key: keys.other.id.slice(0, 8),
        operation: 'Joined',
        cost: expect.any(Number),
      }),
    ]);
    for (const name of ['markets', 'identity'] as const)
      expect(lines(subgraphs[name])).toEqual([
        expect.objectContaining({ msg: 'request', method: 'POST', route: '/graphql', status: 200 }),
      ]);
    expect(a.output()).not.toContain(keys.other.key);
  });

  it('resolves the markets Coin entity of a bridge coin over HTTP', async () => {
    for (const router of routers) {
      const r = await gql(router, keys.other.key, '{ bridge { coins { ticker coin { id price } } } }');
      expect(r.status).toBe(200);
      expect(r.body.errors).toBeUndefined();
      const coins = (r.body.data?.['bridge'] as { coins: { ticker: string; coin: unknown }[] }).coins;
      expect(coins.length).toBeGreaterThan(0);
      expect(coins).toContainEqual({ ticker: 'DOGE', coin: { id: 'dogecoin', price: expect.any(Number) } });
      for (const c of coins) expect(c.coin).toEqual({ id: expect.any(String), price: expect.any(Number) });
    }
  });

  it('pushes one snapshot to subscribers on both routers (Redis pub/sub); the kit resumes after its router restarts', async () => {
    const { key } = keys.other;
    const query =
      'subscription { prices(ids: ["bitcoin", "litecoin"], currency: "usd") { id price updatedAt } }';
    const t0 = Date.now();
    const streams = await Promise.all(
      routers.map((r) => openSse(`${r.url}/graphql`, { query }, { 'x-sp-api-key': key })),
    );
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    const pushed: string[][] = [[], []];
    const pull = async (i: number, ms?: number) => {
      const prices = (await streams[i]!.next(ms)).data?.data?.['prices'];
      expect(prices).toHaveLength(2);
      pushed[i]!.push(JSON.stringify(prices));
    };
    await Promise.all([pull(0), pull(1)]);
    // The next snapshot (the markets process ticks every 10 s) reaches both routers through Redis: both push the
    // same figures, computed from the markets subgraph over HTTP. The two streams may open on either side of a tick,
    // so one of them may be a snapshot ahead: read on until both have pushed one snapshot after their first.
    const shared = () => pushed[0]!.slice(1).find((p) => pushed[1]!.slice(1).includes(p));
    for (let round = 0; round < 3 && shared() === undefined; round++) {
      await Promise.all([pull(0, 40_000), pull(1, 40_000)]);
    }
    timings.snapshotToBothRouters = since(t0);
    expect(shared()).toBeDefined();
    expect(shared()).not.toEqual(pushed[0]![0]);
    for (const s of streams) s.close();

    // The kit on router 1, which is then restarted on its port: the kit reconnects and gets every coin again.
    const updates: LivePrices<'bitcoin'>[] = [];
    const retries: number[] = [];
    const sdk = createSDK({ baseUrl: routers[1].url, apiKey: key });
    const off = sdk.subscribePrices(['bitcoin'], 'usd', (u) => updates.push(u), {
      onRetry: (ms) => retries.push(ms),
      minRetryMs: 200,
      maxRetryMs: 1_000,
    });
    try {
      await until(() => updates.length >= 1, 'the kit’s first event', 20_000);
      const port = new URL(routers[1].url).port;
      const t1 = Date.now();
      await stop(routers[1]);
      routers[1] = await serve('router-1', { SUBGRAPH_URLS: subgraphUrls, METRICS_PORT: '0', PORT: port }, [
        '--only',
        'router',
      ]);
      await waitForStatus(`${routers[1].url}/healthz`, 200, 60_000);
      const seen = updates.length;
      await until(() => updates.length > seen, 'the kit’s first event after the restart', 30_000);
      timings.routerRestartResumed = since(t1);
      expect(retries.length).toBeGreaterThan(0);
      expect(updates.at(-1)?.changed).toEqual(['bitcoin']);
      expect(updates.at(-1)?.prices.bitcoin?.price).toEqual(expect.any(Number));
    } finally {
      off();
    }
  });

  it('keeps automatic persisted queries in Redis: registered through one router, found by hash through the other', async () => {
    const [a, b] = routers;
    const { key } = keys.other;
    const query = '{ coin(id: "litecoin") { id } }';
    const apq = {
      persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') },
    };
    const miss = await post(b, key, { extensions: apq });
    expect(miss.body.errors?.map((e) => e.extensions?.code)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    expect((await post(a, key, { query, extensions: apq })).body.data).toEqual({ coin: { id: 'litecoin' } });
    expect((await post(b, key, { extensions: apq })).body.data).toEqual({ coin: { id: 'litecoin' } });
  });

  it('answers with partial results when a subgraph process dies, naming it and nothing internal, and recovers', async () => {
    const { key } = keys.other;
    const query =
      '{ coin(id: "bitcoin") { id price } name(name: "alice.coin") { name } resolveName(name: "alice.coin", asset: "LTC") { address } }';
    const before = await gql(routers[0], key, query);
    expect(before.status).toBe(200);
    expect(before.body.errors).toBeUndefined();
    expect(before.body.data).toEqual({
      coin: { id: 'bitcoin', price: expect.any(Number) },
      name: null,
      resolveName: null,
    });

    const identity = subgraphs.identity;
    const port = new URL(identity.url).port;
    await identity.stop('SIGKILL');
    // The routers are not ready while a subgraph is not (READY_REQUIRES_SUBGRAPHS, default true); still live.
    for (const router of routers) {
      const ready = await fetch(`${router.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'waiting', missing: ['identity'] });
      expect((await fetch(`${router.url}/livez`)).status).toBe(200);
    }
    for (const router of routers) {
      const r = await gql(router, key, query);
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({
        coin: { id: 'bitcoin', price: expect.any(Number) },
        name: null,
        resolveName: null,
      });
      expect(r.body.errors).toHaveLength(1);
      const err = r.body.errors?.[0];
      expect(err?.extensions?.code).toBe('SUBGRAPH_UNAVAILABLE');
      expect(err?.extensions?.['subgraph']).toBe('identity');
      expect(err?.message).toContain('identity');
      expect(r.text).not.toMatch(
        /ECONNREFUSED|fetch failed|127\.0\.0\.1|localhost|https?:\/\/|stack|\bat \S+ \(/i,
      );
      expect(r.text).not.toContain(port);
    }

    // The same subgraph started again on the same port: the routers use it at once, without a restart.
    const t0 = Date.now();
    subgraphs.identity = await startSubgraph('identity', { PORT: port });
    await waitForStatus(`${subgraphs.identity.url}/healthz`, 200, 60_000);
    timings.identityRestart = since(t0);
    for (const router of routers) await waitForStatus(`${router.url}/readyz`, 200, 10_000);
    for (const router of routers) {
      const r = await gql(router, key, query);
      expect(r.status).toBe(200);
      expect(r.body.errors).toBeUndefined();
      // (The price may have moved meanwhile: the markets process ticks every 10 s here.)
      expect(r.body.data).toEqual({
        coin: { id: 'bitcoin', price: expect.any(Number) },
        name: null,
        resolveName: null,
      });
    }
  });

  it('takes a Redis outage as cache misses: a hash alone is not found, the query with its text is answered', async () => {
    const { key } = keys.other;
    const query = '{ coin(id: "dogecoin") { id } }';
    const apq = {
      persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') },
    };
    await redis?.stop();
    for (const router of routers) {
      const t0 = Date.now();
      const miss = await post(router, key, { extensions: apq });
      expect(miss.body.errors?.map((e) => e.extensions?.code)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
      const full = await post(router, key, { query, extensions: apq });
      expect(full.status).toBe(200);
      expect(full.body.data).toEqual({ coin: { id: 'dogecoin' } });
      expect(since(t0), 'no request waits for Redis to come back').toBeLessThan(5_000);
    }
  });

  it('behind nginx (deploy/nginx.conf): a router SIGTERMed under load drops no request and exits 0', async () => {
    const { key } = keys.drain;
    const url = `${lb.url}/graphql?query=${encodeURIComponent('{ coin(id: "bitcoin") { id } }')}`;
    const one = () =>
      fetch(url, { headers: { 'x-sp-api-key': key } }).then(
        async (r) =>
          r.status === 200 ? (((await r.json()) as GqlResult['body']).data?.['coin'] ?? r.status) : r.status,
        (e: unknown) => `failed: ${String(e)}`,
      );
    const results: unknown[] = [];
    let stopped: Promise<number | null> | null = null;
    // Batches of 8: a free key's places in flight (CONCURRENCY_LIMITS), even once one router takes them all.
    for (let i = 0; i < 200; i += 8) {
      const batch = Promise.all(Array.from({ length: 8 }, one));
      // Mid-batch: some of these are in flight at the router as it drains, some arrive after it has closed.
      if (i === 80) stopped = routers[1].stop('SIGTERM');
      results.push(...(await batch));
    }
    expect(results.filter((r) => JSON.stringify(r) !== '{"id":"bitcoin"}')).toEqual([]);
    expect(await stopped).toBe(0);
  });

  it('a subgraph process SIGTERMed with requests in flight answers every one of them, then exits 0', async () => {
    const [a] = routers;
    const identity = subgraphs.identity;
    const db = await openDb({ databaseUrl: env.DATABASE_URL });
    try {
      // The names table locked: each lookup the identity process makes waits in PostgreSQL, its request in flight.
      const answers = await db.transaction(async (tx) => {
        await tx.query('LOCK TABLE names IN ACCESS EXCLUSIVE MODE');
        const inFlight = Array.from({ length: 5 }, (_, i) =>
          gql(a, keys.other.key, `{ coin(id: "litecoin") { id } name(name: "inflight${i}.coin") { name } }`),
        );
        const waiting = async () =>
          (
            await db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND query LIKE 'SELECT % FROM names WHERE label = %'`,
            )
          ).rows[0]?.n;
        for (const end = Date.now() + 15_000; (await waiting()) !== 5;) {
          if (Date.now() > end) throw new Error(`lookups waiting on the lock: ${await waiting()}, not 5`);
          await new Promise((r) => setTimeout(r, 20));
        }
        const stopped = identity.stop('SIGTERM');
        // It stops accepting at once (the router's next fetch would be refused), with the five still in flight.
        for (const end = Date.now() + 10_000; ;) {
          const refused = await fetch(`${identity.url}/livez`).then(
            () => false,
            () => true,
          );
          if (refused) break;
          if (Date.now() > end) throw new Error('the identity process kept accepting connections');
          await new Promise((r) => setTimeout(r, 20));
        }
        return { inFlight, stopped };
      });
      // The lock released (the transaction committed): the five are answered whole, and the process exits 0.
      for (const r of await Promise.all(answers.inFlight)) {
        expect(r.status).toBe(200);
        expect(r.body.errors).toBeUndefined();
        expect(r.body.data).toEqual({ coin: { id: 'litecoin' }, name: null });
      }
      expect(await answers.stopped).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('drains and exits 0 on SIGTERM, every process, even with Redis gone; every answered request counted', async () => {
    const t0 = Date.now();
    const codes = await Promise.all(
      [...routers, ...NAMES.map((n) => subgraphs[n])].map((p) => p.stop('SIGTERM')),
    );
    timings.sigtermAll = since(t0);
    expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
    // The usage statistics hold all 200 requests of the drain test: the counts of the router stopped under load and
    // of the other were written on their way out.
    const db = await openDb({ databaseUrl: env.DATABASE_URL });
    try {
      const r = await db.query<{ n: number }>(
        'SELECT coalesce(sum(admitted), 0)::int AS n FROM usage_key_minutes WHERE key_id = $1',
        [keys.drain.id],
      );
      expect(r.rows[0]?.n).toBe(200);
    } finally {
      await db.close();
    }
  });
});
