/**
 * A process's Prometheus metrics (prom-client), served on their own port (`METRICS_PORT`: an operator's network,
 * never the public one): HTTP requests by route, method and status with their duration; GraphQL operations by name,
 * plan and outcome; query cost; refusals by reason; Node's default metrics (event-loop lag, heap, GC, CPU). Labels are
 * bounded: a route is its pattern (`unmatched` otherwise), and at most {@link MAX_OPERATION_NAMES} operation names are
 * told apart (the rest count as `other`).
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { HotCounter, HotHistogram } from './hot-metrics.ts';
import type { SourceHealth } from '../market/source-health.ts';
import { readCacheLookups } from '../store/read-cache.ts';
import type { LoadShedder } from '../access/overload.ts';
import type { Router } from '../../router/index.ts';

/** Distinct operation names a process labels; a client choosing names at random cannot grow the series past this. */
export const MAX_OPERATION_NAMES = 200;

/** What the metrics read of the market (`MarketService`). */
export interface WatchedMarket {
  sources: ReadonlyMap<string, SourceHealth>;
  lastTick: { at: number; ms: number } | null;
  rejects: { bySource(): ReadonlyMap<string, number> };
}

/** What one answered request says (the access line's fields, `src/start/process.ts`). */
export interface AnsweredRequest {
  method: string;
  /** The route's pattern; undefined when no route matched. */
  route: string | undefined;
  status: number;
  ms: number;
  plan?: unknown;
  operation?: string | undefined;
  cost?: number | undefined;
  /** The refusal's code, when the request gate or a router plugin refused it. */
  refused?: string | undefined;
}

export class ProcessMetrics {
  readonly registry = new Registry();
  // The series every request touches are kept by hand (`hot-metrics.ts`); the rest are prom-client's own.
  private readonly requests: HotHistogram<'method' | 'route' | 'status'>;
  private readonly operations: HotCounter<'operation' | 'plan' | 'outcome'>;
  private readonly cost: HotHistogram<'plan'>;
  private readonly refused: HotCounter<'reason' | 'code'>;
  private readonly fetches: HotHistogram<'subgraph' | 'outcome'>;
  private readonly names = new Set<string>();
  private part: Record<string, string> = {};

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    const part = () => this.part;
    this.requests = new HotHistogram(
      this.registry,
      {
        name: 'http_request_duration_seconds',
        help: 'HTTP requests answered, by method, route pattern and status, with their duration',
        labelNames: ['method', 'route', 'status'],
        buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      },
      part,
    );
    this.operations = new HotCounter(
      this.registry,
      {
        name: 'graphql_operations_total',
        help: 'GraphQL operations answered, by operation name, plan and outcome (ok, error: a 4xx/5xx status)',
        labelNames: ['operation', 'plan', 'outcome'],
      },
      part,
    );
    this.cost = new HotHistogram(
      this.registry,
      {
        name: 'graphql_query_cost',
        help: 'Estimated cost of the GraphQL operations answered, by plan',
        labelNames: ['plan'],
        buckets: [1, 5, 10, 50, 100, 500, 1_000, 5_000, 20_000],
      },
      part,
    );
    this.refused = new HotCounter(
      this.registry,
      {
        name: 'http_requests_refused_total',
        help: 'Requests (or graph operations) refused before any work, by reason (auth 401, forbidden 403, rate_limit 429, limits: a query over a cost, depth or batch limit) and error code',
        labelNames: ['reason', 'code'],
      },
      part,
    );
    new Gauge({
      name: 'store_read_cache_lookups',
      help: "Reads of rarely written rows answered from the embedded store's memory (hit) or read (miss), by domain, since start",
      labelNames: ['domain', 'result'],
      registers,
      collect() {
        for (const [domain, n] of Object.entries(readCacheLookups())) {
          this.set({ domain, result: 'hit' }, n.hit);
          this.set({ domain, result: 'miss' }, n.miss);
        }
      },
    });
    this.fetches = new HotHistogram(
      this.registry,
      {
        name: 'subgraph_fetch_duration_seconds',
        help: 'Fetches of the router from its subgraphs, by subgraph and outcome (ok, timeout, unavailable, error)',
        labelNames: ['subgraph', 'outcome'],
        buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      },
      part,
    );
  }

  /** The `part` label of every series (`product`, `router`, `subgraph:markets`, …). */
  label(part: string): void {
    this.part = { part };
    this.registry.setDefaultLabels(this.part);
  }

  observeFetch(subgraph: string, ms: number, outcome: string): void {
    this.fetches.observe([subgraph, outcome], ms / 1000);
  }

  /** The load shedder's figures, read at each scrape: work refused since start, work under way, the loop's lag. */
  watchLoad(shedder: Pick<LoadShedder, 'stats'>): void {
    const registers = [this.registry];
    new Gauge({
      name: 'load_shed_total',
      help: 'Expensive work (graph executions, price API builds) refused with 503 OVERLOADED since start',
      registers,
      collect() {
        this.set(shedder.stats().shed);
      },
    });
    new Gauge({
      name: 'load_work_in_flight',
      help: 'Expensive work under way now (what SHED_MAX_IN_FLIGHT bounds)',
      registers,
      collect() {
        this.set(shedder.stats().inFlight);
      },
    });
    new Gauge({
      name: 'load_event_loop_lag_seconds',
      help: 'Lag the event loop has kept up over its last three samples, 50 ms apart (what SHED_LAG_MS bounds)',
      registers,
      collect() {
        this.set(shedder.stats().lagMs / 1000);
      },
    });
  }

  /** The router's own counts, read at each scrape: response-cache hits and misses, shared and direct answers. */
  watchRouter(
    router: Pick<Router, 'responseCacheStats' | 'dedupedOperations' | 'directExecutions' | 'parsedDocuments'>,
  ): void {
    const registers = [this.registry];
    new Gauge({
      name: 'router_response_cache_lookups',
      help: 'Lookups of the embedded response cache since start, by result (hit, miss); absent when it is off',
      labelNames: ['result'],
      registers,
      collect() {
        const s = router.responseCacheStats();
        if (!s) return;
        this.set({ result: 'hit' }, s.hits);
        this.set({ result: 'miss' }, s.misses);
      },
    });
    new Gauge({
      name: 'router_operations_shared',
      help: 'Operations since start answered without their own execution, by how (inflight: joined an identical one; direct: one in-process subgraph)',
      labelNames: ['how'],
      registers,
      collect() {
        this.set({ how: 'inflight' }, router.dedupedOperations());
        this.set({ how: 'direct' }, router.directExecutions());
      },
    });
    new Gauge({
      name: 'router_parsed_documents_bytes',
      help: 'Estimated heap weight of the parsed operation documents the router keeps (bounded: 32 MiB)',
      registers,
      collect() {
        this.set(router.parsedDocuments().bytes);
      },
    });
  }

  /**
   * The rate limiter, read at each scrape: whether it is degraded (Redis away: each process admits its share of every
   * budget) and how many processes the budgets are divided among then.
   */
  watchLimiter(limiter: { state(): string; processes(): number }): void {
    const registers = [this.registry];
    new Gauge({
      name: 'rate_limiter_degraded',
      help: 'Whether this process counts rate limits and budgets alone, its share of each, because Redis is unreachable (1) or not (0)',
      registers,
      collect() {
        this.set(limiter.state() === 'degraded' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'rate_limiter_processes',
      help: 'Processes each budget is divided among while Redis is unreachable (ROUTER_PROCESSES, or as learned from Redis)',
      registers,
      collect() {
        this.set(limiter.processes());
      },
    });
  }

  /**
   * The market, read at each scrape: its sources' age of newest data, last poll's duration, failures by reason and
   * rejected records; the engine's last tick (duration and time).
   */
  watchMarket(market: () => WatchedMarket): void {
    const registers = [this.registry];
    const sources = () => market().sources;
    new Gauge({
      name: 'source_rejected_records',
      help: 'Records of each source rejected by validation since start (absurd, stale, malformed…)',
      labelNames: ['source'],
      registers,
      collect() {
        this.reset();
        for (const [source, n] of market().rejects.bySource()) this.set({ source }, n);
      },
    });
    new Gauge({
      name: 'engine_last_tick_seconds',
      help: "Duration of the engine's last tick: ingest what the sources delivered, aggregate, publish (absent before the first)",
      registers,
      collect() {
        this.reset();
        const t = market().lastTick;
        if (t) this.set(t.ms / 1000);
      },
    });
    new Gauge({
      name: 'engine_last_tick_timestamp_seconds',
      help: "When the engine's last tick ran, UNIX seconds: alert when it falls behind by several TICK_INTERVAL_MS",
      registers,
      collect() {
        this.reset();
        const t = market().lastTick;
        if (t) this.set(t.at / 1000);
      },
    });
    new Gauge({
      name: 'source_data_age_seconds',
      help: 'Age of the newest record each source delivered (absent until it delivered one)',
      labelNames: ['source'],
      registers,
      collect() {
        this.reset();
        const now = Date.now();
        for (const [source, h] of sources())
          if (h.dataAsOf !== null) this.set({ source }, (now - h.dataAsOf) / 1000);
      },
    });
    new Gauge({
      name: 'source_poll_seconds',
      help: 'Duration of the last poll of each source',
      labelNames: ['source'],
      registers,
      collect() {
        this.reset();
        for (const [source, h] of sources()) if (h.lastMs !== null) this.set({ source }, h.lastMs / 1000);
      },
    });
    new Gauge({
      name: 'source_failures',
      help: 'Failed polls (and failed parts of polls) of each source since start, by reason',
      labelNames: ['source', 'reason'],
      registers,
      collect() {
        this.reset();
        for (const [source, h] of sources())
          for (const [reason, n] of Object.entries(h.failures)) this.set({ source, reason }, n);
      },
    });
  }

  observe(r: AnsweredRequest): void {
    this.requests.observe([r.method, r.route ?? 'unmatched', String(r.status)], r.ms / 1000);
    const reason =
      r.status === 401
        ? 'auth'
        : r.status === 403
          ? 'forbidden'
          : r.status === 429
            ? 'rate_limit'
            : r.status === 503 && r.refused !== undefined
              ? 'overload'
              : r.refused !== undefined
                ? 'limits'
                : null;
    if (reason) this.refused.inc([reason, r.refused ?? 'other']);
    if (r.route?.endsWith('/graphql') || r.cost !== undefined) {
      const plan = typeof r.plan === 'string' ? r.plan : 'none';
      this.operations.inc([this.operationLabel(r.operation), plan, r.status < 400 ? 'ok' : 'error']);
      if (r.cost !== undefined && Number.isFinite(r.cost)) this.cost.observe([plan], r.cost);
    }
  }

  private operationLabel(name: string | undefined): string {
    if (name === undefined) return 'anonymous';
    if (this.names.has(name)) return name;
    if (this.names.size >= MAX_OPERATION_NAMES) return 'other';
    this.names.add(name);
    return name;
  }
}

/** `GET /metrics` (Prometheus text format) on its own listener; anything else is 404. */
export async function serveMetrics(
  metrics: ProcessMetrics,
  host: string,
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    res.setHeader('x-content-type-options', 'nosniff');
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('metrics are at GET /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be collected\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
