/**
 * What every process of the product does the same way, the embedded product and each scale-out part alike: one pino
 * for Fastify and the domain, listening before the warm-up (so `/healthz` answers 503 until it is done), the probes
 * (`/livez`, `/readyz`), and a shutdown that drains: not ready at once, no new connections, the requests in flight
 * finished (at most `SHUTDOWN_TIMEOUT_MS`), then what it opened closed in the reverse order.
 */
import type { IncomingMessage } from 'node:http';
import { LogController } from 'fastify';
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import { pino } from 'pino';
import type { Logger as Pino } from 'pino';
import { redactUrl } from '../access/request-key.ts';
import type { AppConfig } from '../config.ts';
import { createPino, infoLineWriter, LazyChildLogger, loggerOf, silentLogger } from '../core/log.ts';
import type { Logger } from '../core/log.ts';
import {
  extractTraceContext,
  failedWith,
  SpanKind,
  startSpan,
  tracingEnabled,
  withSpan,
} from '../core/trace.ts';
import type { Span } from '../core/trace.ts';
import type { DemoProgress } from './demo.ts';
import { LoadShedder } from '../access/overload.ts';
import { RefusalPace } from '../access/refusal-pace.ts';
import { ProcessMetrics, serveMetrics } from './metrics.ts';
import { accessLine, accessLineFields, routeOf } from './access-line.ts';
import { collectGarbage } from './collect-garbage.ts';
import { governHeap } from './heap-governor.ts';
import type { AccessLine } from './access-line.ts';
import { startTracing } from './tracing.ts';
import { listenError } from '../core/listen.ts';
import type { Db } from '../store/db.ts';
import { announceUrl } from '../store/lock.ts';
import { openDb } from '../store/open.ts';
import { storeAnswers } from '../store/unavailable.ts';

export interface ProcessIo {
  /** Where the domain logs; default the process's pino (nothing at `LOG_LEVEL=silent`). */
  log?: Logger;
  /** The demo generator's progress (the command line draws it). */
  progress?: DemoProgress;
}

/** `starting` until the warm-up is done, `ready`, then `draining` from the first shutdown signal on. */
export type ProcessState = 'starting' | 'ready' | 'draining';

/** What `/readyz` also waits for: each dependency's name → whether it can serve now. */
export type Dependencies = () => Promise<Record<string, boolean>>;

export class ProcessRun {
  readonly log: Logger;
  /**
   * Fastify's options every process shares: the process's pino (at `warn` when `LOG_LEVEL` is `info`, request URLs
   * redacted: keys may travel in query strings), no request lines of Fastify's own
   * (the access line of {@link instrument} replaces them). Request ids are the host's (`src/server/host.ts`).
   */
  readonly fastifyOptions: Pick<
    FastifyServerOptions,
    'loggerInstance' | 'logController' | 'childLoggerFactory'
  >;
  private readonly closers: (() => Promise<void> | void)[] = [];
  private current: ProcessState = 'starting';
  /** The data directory whose embedded store this process holds ({@link openStore}); null for none. */
  private storeDir: string | null = null;
  /** Whether the store {@link openStore} opened answers now (`/readyz`); null before it is open. */
  private storeAnswers: (() => Promise<boolean>) | null = null;
  private readonly observesRequests: boolean;
  /** Writes one access line (a no-op where no line goes: `LOG_LEVEL` above info). */
  private readonly writeAccessLine: (line: AccessLine) => void;
  /** Prometheus metrics of this process, when `METRICS_PORT` is set. */
  readonly metrics: ProcessMetrics | null = null;
  /** Where they are served (set by {@link listen}); null without `METRICS_PORT`. */
  metricsUrl: string | null = null;
  /**
   * Refuses new expensive work while the process is overloaded (`SHED_LAG_MS`, `SHED_MAX_IN_FLIGHT`): the router's
   * executions and the price API's builds; sampling from {@link listen} to {@link close}.
   */
  readonly shedder: LoadShedder;
  /** Holds the 429s of a caller who keeps asking before its `Retry-After` (`REFUSAL_HOLD_MS`). */
  readonly refusalPace: RefusalPace;

  constructor(
    private readonly cfg: Pick<AppConfig, 'logLevel' | 'host' | 'port'> &
      Partial<
        Pick<
          AppConfig,
          | 'shutdownTimeoutMs'
          | 'heapGovernor'
          | 'metricsPort'
          | 'logFormat'
          | 'tracing'
          | 'shedLagMs'
          | 'shedMaxInFlight'
          | 'refusalHoldMs'
          | 'trustedProxies'
          | 'dataDir'
          | 'databaseUrl'
        >
      >,
    io: ProcessIo,
    /** What this process is: `product`, `router`, `subgraph:markets`… (the metrics' `part`, the traces' service). */
    readonly part: string,
  ) {
    const root = cfg.logLevel === 'silent' ? null : createPino(cfg.logLevel, undefined, cfg.logFormat);
    this.log = io.log ?? (root ? loggerOf(root) : silentLogger);
    // Access lines are built only where they go somewhere: a logger at info (or one handed in), or the metrics.
    this.observesRequests = io.log !== undefined || cfg.logLevel === 'info' || cfg.metricsPort !== undefined;
    const fastifyLogger =
      root?.child(
        {},
        {
          level: cfg.logLevel === 'info' ? 'warn' : cfg.logLevel,
          serializers: {
            req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url) }),
            res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            err: pino.stdSerializers.err,
          },
        },
      ) ?? null;
    const write = io.log ? null : root && infoLineWriter(root, 'request', accessLineFields);
    const log = this.log;
    this.writeAccessLine =
      write ??
      ((line) => {
        const { url: _, ...fields } = { ...line, route: routeOf(line) };
        log.info('request', Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
      });
    if (cfg.metricsPort !== undefined) this.metrics = new ProcessMetrics();
    this.shedder = new LoadShedder({
      ...(cfg.shedLagMs !== undefined ? { maxLagMs: cfg.shedLagMs } : {}),
      ...(cfg.shedMaxInFlight !== undefined ? { maxInFlight: cfg.shedMaxInFlight } : {}),
    });
    this.metrics?.watchLoad(this.shedder);
    this.refusalPace = new RefusalPace({
      ...(cfg.refusalHoldMs !== undefined ? { holdMs: cfg.refusalHoldMs } : {}),
      ...(cfg.trustedProxies ? { trustedProxies: cfg.trustedProxies } : {}),
    });
    // Registered first so that it is closed last: the spans of the drain are exported too.
    if (cfg.tracing) this.defer(startTracing(cfg.tracing, part));
    this.fastifyOptions = {
      ...(fastifyLogger ? { loggerInstance: fastifyLogger } : {}),
      // Fastify's own request lines off (its non-deprecated way: no FSTDEP023 warning at start).
      logController: new LogController({ disableRequestLogging: true }),
      // Each request's logger (with its id bound) is made when it first writes a line, not for every request.
      childLoggerFactory: (logger, bindings, opts) =>
        new LazyChildLogger(
          logger as unknown as Pino,
          bindings,
          opts as Record<string, unknown>,
        ) as unknown as typeof logger,
    };
  }

  get state(): ProcessState {
    return this.current;
  }

  /** True once the warm-up has finished, until shutdown begins. */
  get isReady(): boolean {
    return this.current === 'ready';
  }

  /**
   * Every response leaves one access line at `info` (see {@link accessLine}).
   * `GET /livez`: 200 while the process runs (nothing to restart it for). `GET /readyz`: 200 when it is ready, not
   * draining, its store answers and every one of `dependencies` can serve; else 503 with what is missing. A load
   * balancer sends traffic by `/readyz`; an orchestrator restarts by `/livez`. While draining, every response closes
   * its connection, so that a kept-alive client reconnects (elsewhere) instead of holding the shutdown up.
   */
  instrument(app: FastifyInstance, dependencies?: Dependencies): void {
    const part = this.part;
    app.addHook('onSend', (req, reply, payload, done) => {
      if (this.current === 'draining') reply.header('connection', 'close');
      done(null, payload);
    });
    this.metrics?.label(part);
    const tracing = tracingEnabled();
    if (tracing) traceRequests(app);
    if (this.observesRequests || tracing)
      app.addHook('onResponse', (req, reply, done) => {
        // Fastify builds a new object of the route's options at each read: read once.
        const pattern = req.routeOptions.url;
        const line = accessLine(req, pattern, reply);
        const span = tracing ? serverSpans.get(req.raw) : undefined;
        if (span) endServerSpan(span, line);
        if (this.observesRequests) {
          this.writeAccessLine(line);
          this.metrics?.observe(line);
        }
        done();
      });
    app.get('/livez', async () => ({ status: 'live', part }));
    app.get('/readyz', async (_req, reply) => {
      if (this.current !== 'ready') return reply.code(503).send({ status: this.current, part });
      const [given, store] = await Promise.all([dependencies?.(), this.storeAnswers?.()]);
      // A PostgreSQL server that does not answer: traffic goes elsewhere until it does (`src/store/unavailable.ts`).
      const deps: Record<string, boolean> = { ...given, ...(store === undefined ? {} : { store }) };
      const missing = Object.keys(deps).filter((d) => !deps[d]);
      if (missing.length > 0) return reply.code(503).send({ status: 'waiting', part, missing });
      return { status: 'ready', part };
    });
  }

  /**
   * Opens the configured store (`DATABASE_URL`, else the embedded one in `DATA_DIR`, locked for this process, whose
   * URL the lock then carries once {@link listen} has it), closed by {@link close} after everything opened later.
   */
  async openStore(): Promise<Db> {
    const { databaseUrl, dataDir } = this.cfg;
    const db = await openDb({
      databaseUrl,
      dataDir,
      owner: 'serve',
      onTakeover: (message) => this.log.warn(message),
    });
    this.defer(() => db.close());
    this.storeAnswers = storeAnswers(db);
    if (!databaseUrl && dataDir !== undefined) this.storeDir = dataDir;
    return db;
  }

  /**
   * Runs the process's assembly (open, build, listen); when it fails (a port in use, a store held by another
   * process), closes what it had opened before rethrowing, so that the process can end at once.
   */
  async assemble<T>(build: () => Promise<T>): Promise<T> {
    try {
      return await build();
    } catch (err) {
      await this.close().catch(() => undefined);
      throw err;
    }
  }

  /** Registers what {@link close} undoes; undone last in, first out. */
  defer(close: () => Promise<void> | void): void {
    this.closers.push(close);
  }

  /**
   * Listens on the configured host and port (port 0: any free one); returns the base URL. On {@link close} the
   * server stops accepting and waits for the requests in flight, at most `SHUTDOWN_TIMEOUT_MS` (default 10 s), after
   * which their connections are closed.
   */
  async listen(app: FastifyInstance): Promise<string> {
    if (this.metrics && this.cfg.metricsPort !== undefined) {
      // Served until the very end: a scrape during the drain sees it.
      const served = await serveMetrics(this.metrics, this.cfg.host, this.cfg.metricsPort).catch((err) => {
        throw listenError(err, this.cfg.host, this.cfg.metricsPort ?? 0, 'METRICS_PORT');
      });
      this.defer(() => served.close());
      this.metricsUrl = served.url;
      this.log.info('metrics listening', { url: served.url });
    }
    this.shedder.start();
    this.defer(() => this.shedder.stop());
    this.defer(() => drain(app, this.cfg.shutdownTimeoutMs ?? 10_000));
    try {
      await app.listen({ port: this.cfg.port, host: this.cfg.host });
    } catch (err) {
      throw listenError(err, this.cfg.host, this.cfg.port, 'PORT');
    }
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : this.cfg.port;
    const url = `http://${this.cfg.host}:${port}`;
    // The CLI finds this process through the lock of its embedded store.
    if (this.storeDir) announceUrl(this.storeDir, url);
    return url;
  }

  /**
   * Runs the warm-up in the background: ready once it resolves; a failure is logged (and the promise rejects). A
   * warm-up that resolves `{ garbage: false }` left next to nothing to collect.
   */
  warmUp(work: () => Promise<{ garbage: boolean } | void>): Promise<void> {
    const done = work().then((warmed) => {
      // What the warm-up left (a demo dataset generated and replayed: 160 of 300 MB of heap) collected before the
      // process says it is ready, not by V8's memory reducer in the middle of the first traffic (25–40 ms for one
      // request). A restart from the history cache skips it: 120 ms to free 8 MB.
      if (warmed?.garbage !== false) collectGarbage();
      if (this.current === 'starting') this.current = 'ready';
      // From here on the heap is kept near what it holds (a burst's garbage collected once it has passed).
      if (this.cfg.heapGovernor !== false)
        this.defer(
          governHeap({
            idle: () => this.shedder.idle(),
            onCollect: (before, after, ms) =>
              this.log.info('heap collected', {
                beforeMb: mb(before),
                afterMb: mb(after),
                ms: Math.round(ms),
              }),
          }),
        );
    });
    done.catch((err: unknown) =>
      this.log.error('start-up failed', { error: err instanceof Error ? err.message : String(err) }),
    );
    return done;
  }

  /** Shuts down: not ready from now on, then everything registered undone, last in first out. */
  async close(): Promise<void> {
    this.current = 'draining';
    for (let c = this.closers.pop(); c; c = this.closers.pop()) await c();
  }
}

/** `app.close()` (no new connections; idle ones closed; in-flight requests finish), bounded by `timeoutMs`. */
async function drain(app: FastifyInstance, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)));
  const closed = app.close().then(() => 'closed' as const);
  if ((await Promise.race([closed, late])) === 'late') {
    app.server.closeAllConnections();
    await closed;
  }
  clearTimeout(timer);
}

/** Each request's server span (tracing on), from `onRequest` to `onResponse`. */
const serverSpans = new WeakMap<IncomingMessage, Span>();

/**
 * A server span per request, the child of the caller's `traceparent` when it sends one, active for everything the
 * request runs (Fastify runs the rest of the request, body read included, from this hook's callback).
 */
function traceRequests(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    const route = req.routeOptions.url;
    const span = startSpan(`${req.method} ${route ?? 'unmatched'}`, {
      kind: SpanKind.SERVER,
      parent: extractTraceContext(req.headers),
      attributes: {
        'http.request.method': req.method,
        'url.path': req.url.split('?')[0] ?? '',
        ...(route !== undefined ? { 'http.route': route } : {}),
        'coinwallet.request_id': req.id,
      },
    });
    if (!span) return done();
    serverSpans.set(req.raw, span);
    withSpan(span, done);
  });
}

/** The access line's fields on the server span, which then ends (status ERROR for a 5xx, as HTTP semantics say). */
function endServerSpan(span: Span, line: AccessLine): void {
  const status = line.status;
  span.setAttribute('http.response.status_code', status);
  for (const k of ['plan', 'operation', 'cost', 'key', 'refused'] as const)
    if (line[k] !== undefined) span.setAttribute(`coinwallet.${k}`, line[k] as string | number);
  if (status >= 500) failedWith(span, `HTTP ${status}`);
  span.end();
}

const mb = (bytes: number): number => Math.round(bytes / 1024 / 1024);
