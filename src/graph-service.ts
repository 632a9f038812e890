/**
 * One part of the graph in its own process (scale-out): `coinwallet serve --only subgraph:<name>` serves that
 * subgraph at `/graphql`; `coinwallet serve --only router` serves the router at `/graphql`, calling the subgraphs at
 * `SUBGRAPH_URLS`, with keys and budgets from the shared store (`DATABASE_URL`, `REDIS_URL`). Each answers
 * `GET /healthz` (503 until ready, then 200).
 */
import Fastify from 'fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { redactUrl } from './access/request-key.ts';
import { createAccessRuntime } from './access-runtime.ts';
import type { AccessRuntime } from './access-runtime.ts';
import { resolveAdminToken } from './admin/token.ts';
import { loadDeployment } from './bridge/deployment.ts';
import type { Deployment } from './bridge/model.ts';
import type { AppConfig } from './config.ts';
import { ConfigError } from './config.ts';
import { createSubgraph } from './graph.ts';
import type { DemoProgress } from './market/demo.ts';
import type { Logger, MarketService } from './market/service.ts';
import {
  configuredSources,
  engineConfig,
  loadMarketData,
  marketFor,
  persistedOperations,
  reserveChainData,
  routerOptions,
  servicesOptions,
  startProofOfReserves,
} from './product.ts';
import type { PersistedOperations } from './product.ts';
import type { ReserveAttester } from './bridge/attester.ts';
import { registerErrorHandling } from './rest/errors.ts';
import { createServices } from './services.ts';
import type { Db } from './store/db.ts';
import { openDb } from './store/open.ts';
import { createRouter } from '../router/index.ts';
import type { Router } from '../router/index.ts';
import { mountRouter } from '../router/http.ts';
import { mountSubgraph } from '../subgraphs/shared/http.ts';
import type { MountedSubgraph } from '../subgraphs/shared/http.ts';
import { SUBGRAPH_NAMES } from '../subgraphs/shared/subgraph.ts';
import type { SubgraphName } from '../subgraphs/shared/subgraph.ts';

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
  ready: Promise<void>;
  close(): Promise<void>;
}

export async function startGraphPart(
  cfg: AppConfig,
  part: GraphPart,
  io: { log: Logger; progress?: DemoProgress },
): Promise<RunningPart> {
  let urls: Record<SubgraphName, string> | null = null;
  if (part.kind === 'router') {
    const missing = SUBGRAPH_NAMES.filter((n) => !cfg.subgraphUrls[n]);
    if (missing.length > 0)
      throw new ConfigError(`serve --only router needs SUBGRAPH_URLS for ${missing.join(', ')}`);
    urls = cfg.subgraphUrls as Record<SubgraphName, string>;
  }
  // Read before anything starts: a bad PERSISTED_OPERATIONS manifest stops start-up with a message naming it.
  const persisted = part.kind === 'router' ? persistedOperations(cfg) : null;
  const db: Db = await openDb({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
  const closers: (() => Promise<void>)[] = [];
  let ready: Promise<void> = Promise.resolve();
  let isReady = false;
  let access: AccessRuntime | null = null;
  let market: MarketService | null = null;
  let deployment: Deployment | undefined;
  let engine = engineConfig(cfg);

  const needsAccess = part.kind === 'router' || part.name === 'accounts';
  if (needsAccess) {
    access = await createAccessRuntime(cfg, db, io.log);
    closers.push(() => (access as AccessRuntime).close());
  }
  if (part.kind === 'subgraph' && part.name === 'markets') {
    const m = marketFor(cfg, db, io.log, configuredSources(cfg));
    market = m.market;
    engine = m.engine;
    ready = (async () => {
      await loadMarketData(cfg, db, m.market, m.useDemo, io.progress);
      await m.market.tick();
      await m.market.rollup();
      m.market.start();
    })();
    closers.push(() => m.market.stop());
  }
  if (part.kind === 'subgraph' && part.name === 'bridge') {
    // This process keeps the proof of reserves current (live chain data when the sources file says so).
    const d = loadDeployment(cfg.bridgeNetwork, cfg.bridgeConfigDir);
    const configured = configuredSources(cfg);
    const live = reserveChainData(d, configured);
    deployment = d;
    let attester: ReserveAttester | null = null;
    ready = (async () => {
      attester = await startProofOfReserves(cfg, db, d, live, io.log);
    })();
    closers.push(async () => {
      await (attester as ReserveAttester | null)?.stop();
      for (const s of configured?.sources ?? []) await s.close?.();
    });
  }

  const app = Fastify({
    bodyLimit: 1_048_576,
    // Same logging as the full server: errors of this part (a store outage) reach stderr.
    // Keys may travel in query strings: URLs are logged redacted, as in the full server.
    logger:
      cfg.logLevel === 'silent'
        ? false
        : {
            level: cfg.logLevel === 'info' ? 'warn' : cfg.logLevel,
            serializers: { req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url) }) },
          },
  });
  registerErrorHandling(app);
  let router: Router | null = null;
  let adminTokenFile: string | null = null;
  let mounted: MountedSubgraph | null = null;
  if (part.kind === 'router') {
    router = await createRouter({
      ...routerOptions(cfg, access as AccessRuntime, io.log, persisted as PersistedOperations),
      subgraphs: { kind: 'http', urls: urls as Record<SubgraphName, string> },
    });
    await mountRouter(app, router);
  } else {
    const admin =
      part.name === 'accounts'
        ? resolveAdminToken({ env: cfg.adminToken, dataDir: cfg.dataDir, scaleOut: Boolean(cfg.databaseUrl) })
        : null;
    const adminToken = admin?.token ?? null;
    adminTokenFile = admin?.file ?? null;
    const subgraph = createSubgraph(part.name, {
      db,
      ...(market ? { market } : {}),
      engine,
      ...(access ? { keys: access.keys, usage: access.usage } : {}),
      adminToken,
      services: createServices(db, servicesOptions(cfg)),
      ...(deployment ? { deployment } : {}),
      bridgeStaleAfterMs: cfg.bridgeStaleAfterMs,
    });
    mounted = await mountSubgraph(app, subgraph);
  }
  app.get('/healthz', async (_req, reply) =>
    reply.code(isReady ? 200 : 503).send({ status: isReady ? 'ok' : 'starting', part: partName(part) }),
  );
  await app.listen({ port: cfg.port, host: cfg.host });
  const addr = app.server.address();
  const url =
    typeof addr === 'object' && addr ? `http://${cfg.host}:${addr.port}` : `http://${cfg.host}:${cfg.port}`;
  ready = ready.then(() => {
    isReady = true;
  });
  ready.catch((err: unknown) =>
    io.log.error('start-up failed', { error: err instanceof Error ? err.message : String(err) }),
  );
  return {
    app,
    url,
    adminTokenFile,
    ready,
    async close() {
      await app.close();
      await router?.stop();
      await mounted?.stop();
      for (const c of closers) await c();
      await db.close();
    },
  };
}
