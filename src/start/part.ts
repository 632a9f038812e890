/**
 * One part of the graph in its own process (scale-out): `coinwallet serve --only subgraph:<name>` serves that
 * subgraph at `/graphql`; `coinwallet serve --only router` serves the router at `/graphql`, calling the subgraphs at
 * `SUBGRAPH_URLS`, with keys and budgets from the shared store (`DATABASE_URL`, `REDIS_URL`). Each answers
 * `GET /healthz` (503 until ready, then 200).
 */
import type { FastifyInstance } from 'fastify';
import type { ReserveAttester } from '../bridge/attester.ts';
import { loadDeployment } from '../bridge/deployment.ts';
import type { AppConfig } from '../config.ts';
import { ConfigError } from '../config.ts';
import { createHttpHost } from '../server/host.ts';
import type { Mount } from '../server/host.ts';
import { createServices } from '../services.ts';
import { StoredAppPolicies } from '../accounts/app-policy.ts';
import type { Db } from '../store/db.ts';
import { createRouter } from '../../router/index.ts';
import { mountRouter } from '../../router/http.ts';
import { mountSubgraph } from '../../subgraphs/shared/http.ts';
import { SUBGRAPH_NAMES } from '../../subgraphs/shared/subgraph.ts';
import type { Subgraph, SubgraphName } from '../../subgraphs/shared/subgraph.ts';
import { createAccessRuntime } from './access.ts';
import { createSubgraph } from './graph.ts';
import { pollingSnapshotFeed, publishSnapshots, redisSnapshotFeed } from './snapshot-bus.ts';
import type { GraphDeps } from './graph.ts';
import { ProcessRun } from './process.ts';
import type { Dependencies, ProcessIo } from './process.ts';
import {
  adminTokenFor,
  configuredSources,
  engineConfig,
  loadMarketData,
  marketOptions,
  persistedOperations,
  reserveChainData,
  routerOptions,
  servicesOptions,
  startMarket,
  startProofOfReserves,
} from './wiring.ts';

export type GraphPart = { kind: 'subgraph'; name: SubgraphName } | { kind: 'router' };

/** Parses `--only`: `subgraph:<name>` or `router`; null for anything else. */
export function parsePart(v: string): GraphPart | null {
  if (v === 'router') return { kind: 'router' };
  const m = /^subgraph:([a-z]+)$/.exec(v);
  if (m && (SUBGRAPH_NAMES as readonly string[]).includes(m[1] as string))
    return { kind: 'subgraph', name: m[1] as SubgraphName };
  return null;
}

export const partName = (p: GraphPart): string => (p.kind === 'router' ? 'router' : `subgraph:${p.name}`);

export interface RunningPart {
  app: FastifyInstance;
  url: string;
  /** The accounts subgraph's generated operator token file (`ADMIN_TOKEN` unset, embedded store); else null. */
  adminTokenFile: string | null;
  /** Where its Prometheus metrics are served (`METRICS_PORT`); null without. */
  metricsUrl: string | null;
  ready: Promise<void>;
  close(): Promise<void>;
}

export async function startGraphPart(cfg: AppConfig, part: GraphPart, io: ProcessIo): Promise<RunningPart> {
  let urls: Record<SubgraphName, string> | null = null;
  if (part.kind === 'router') {
    const missing = SUBGRAPH_NAMES.filter((n) => !cfg.subgraphUrls[n]);
    if (missing.length > 0)
      throw new ConfigError(`serve --only router needs SUBGRAPH_URLS for ${missing.join(', ')}`);
    urls = cfg.subgraphUrls as Record<SubgraphName, string>;
  }
  // Read before anything starts: a bad PERSISTED_OPERATIONS manifest stops start-up with a message naming it.
  const persisted = part.kind === 'router' ? persistedOperations(cfg) : null;
  const run = new ProcessRun(cfg, io, partName(part));
  return run.assemble(async () => {
    const db = await run.openStore();
    let graph: Mount | undefined;
    let adminTokenFile: string | null = null;
    let warmUp = async (): Promise<void> => {};
    let dependencies: Dependencies | undefined;
    let limiter: (() => string) | undefined;
    if (urls && persisted) {
      const access = await createAccessRuntime(cfg, db, run.log);
      run.defer(() => access.close());
      // Live subscriptions are computed again on each snapshot the markets process publishes (`snapshot-bus.ts`).
      const bus = cfg.redisUrl ? await redisSnapshotFeed(cfg.redisUrl, run.log) : null;
      if (bus) run.defer(() => bus.close());
      const router = await createRouter({
        ...(await routerOptions(cfg, access, run, persisted)),
        // The apps' per-key policy from the shared store: changes made elsewhere apply within its time to live.
        apps: new StoredAppPolicies(db),
        snapshots:
          bus?.feed ?? pollingSnapshotFeed(Math.min(15_000, Math.max(1_000, cfg.tickIntervalMs / 4))),
        subgraphs: { kind: 'http', urls },
      });
      run.defer(() => router.stop());
      run.metrics?.watchRouter(router);
      run.metrics?.watchLimiter(access.limiter);
      limiter = () => access.limiter.state();
      graph = (app) => mountRouter(app, router);
      if (cfg.readyRequiresSubgraphs) dependencies = subgraphsReady(urls);
    } else if (part.kind === 'subgraph') {
      const s = await subgraphPart(cfg, part.name, db, run, io);
      adminTokenFile = s.adminTokenFile;
      warmUp = s.warmUp;
      graph = async (app) => {
        const mounted = await mountSubgraph(app, s.subgraph);
        run.defer(() => mounted.stop());
      };
    }
    // A router serves browsers as the embedded product's `/graphql` does (CORS); a subgraph only routers.
    const app = await createHttpHost({
      logging: run.fastifyOptions,
      refusalPace: run.refusalPace,
      cors: part.kind === 'router',
      graph,
    });
    app.get('/healthz', async (_req, reply) =>
      reply.code(run.isReady ? 200 : 503).send({
        status: run.isReady ? 'ok' : run.state,
        part: partName(part),
        // A router's rate limiter: `degraded` while Redis is away (each router admits its share of every budget).
        ...(limiter ? { limiter: limiter() } : {}),
      }),
    );
    run.instrument(app, dependencies);
    const url = await run.listen(app);
    const ready = run.warmUp(warmUp);
    return { app, url, adminTokenFile, metricsUrl: run.metricsUrl, ready, close: () => run.close() };
  });
}

/** A subgraph over this process's services, with what it alone needs (and what its warm-up does). */
async function subgraphPart(
  cfg: AppConfig,
  name: SubgraphName,
  db: Db,
  run: ProcessRun,
  io: ProcessIo,
): Promise<{ subgraph: Subgraph<unknown>; adminTokenFile: string | null; warmUp: () => Promise<void> }> {
  const options = servicesOptions(cfg);
  let adminTokenFile: string | null = null;
  let warmUp = async (): Promise<void> => {};
  let deps: GraphDeps;
  if (name === 'accounts') {
    const access = await createAccessRuntime(cfg, db, run.log);
    run.defer(() => access.close());
    const admin = adminTokenFor(cfg);
    deps = {
      engine: engineConfig(cfg),
      adminToken: admin.token,
      services: createServices(db, options, access),
    };
    adminTokenFile = admin.file;
  } else if (name === 'markets') {
    const m = marketOptions(cfg, db, run.log, configuredSources(cfg));
    const services = createServices(db, { ...options, market: m.options });
    const { market } = services;
    run.defer(() => market.stop());
    run.metrics?.watchMarket(() => market);
    deps = { engine: m.engine, adminToken: null, services, market };
    if (cfg.redisUrl) {
      const bus = await publishSnapshots(cfg.redisUrl, market, run.log);
      run.defer(() => bus.close());
    }
    warmUp = async () => {
      await loadMarketData(cfg, db, market, m.useDemo, io.progress);
      await startMarket(market);
    };
  } else if (name === 'bridge') {
    // This process keeps the proof of reserves current (live chain data when the sources file says so).
    const deployment = loadDeployment(cfg.bridgeNetwork, cfg.bridgeConfigDir);
    const configured = configuredSources(cfg);
    const live = reserveChainData(deployment, configured);
    deps = {
      engine: engineConfig(cfg),
      adminToken: null,
      services: createServices(db, {
        ...options,
        bridge: { deployment, staleAfterMs: cfg.bridgeStaleAfterMs },
      }),
    };
    let attester: ReserveAttester | null = null;
    run.defer(async () => {
      await attester?.stop();
      for (const s of configured?.sources ?? []) await s.close?.();
    });
    warmUp = async () => {
      attester = await startProofOfReserves(cfg, db, deployment, live, run.log);
    };
  } else {
    deps = { engine: engineConfig(cfg), adminToken: null, services: createServices(db, options) };
  }
  return { subgraph: createSubgraph(name, deps), adminTokenFile, warmUp };
}

/**
 * The subgraph processes' readiness as a router's `/readyz` needs it: each one's own `/readyz` (beside its
 * `/graphql`), asked at most once a second, a second at most per ask.
 */
function subgraphsReady(urls: Record<SubgraphName, string>): Dependencies {
  let last: { at: number; result: Promise<Record<string, boolean>> } | null = null;
  const ask = async (url: string): Promise<boolean> => {
    try {
      const r = await fetch(new URL('readyz', url.replace(/\/graphql\/?$/, '/')), {
        signal: AbortSignal.timeout(1_000),
      });
      await r.body?.cancel();
      return r.ok;
    } catch {
      return false;
    }
  };
  return () => {
    if (!last || Date.now() - last.at >= 1_000) {
      const names = Object.keys(urls) as SubgraphName[];
      last = {
        at: Date.now(),
        result: Promise.all(names.map((n) => ask(urls[n]))).then((oks) =>
          Object.fromEntries(names.map((n, i) => [n, oks[i] === true])),
        ),
      };
    }
    return last.result;
  };
}
