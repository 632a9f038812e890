/**
 * The whole product in one process (embedded): the REST APIs, the pages and the graph, whose router executes the four
 * subgraphs in-process.
 */
import type { FastifyInstance } from 'fastify';
import type { AccessRuntime } from './access.ts';
import { createAccessRuntime } from './access.ts';
import type { ReserveAttester } from '../bridge/attester.ts';
import { loadDeployment } from '../bridge/deployment.ts';
import type { AppConfig } from '../config.ts';
import { createSubgraphs } from './graph.ts';
import type { MarketService } from '../market/service.ts';
import { accessHook } from '../rest/access-hook.ts';
import { createServer } from './server.ts';
import { createServices } from '../services.ts';
import type { Db } from '../store/db.ts';
import { createRouter } from '../../router/index.ts';
import { documentCheck } from '../../router/trusted/check.ts';
import { schemaCheck } from '../../router/trusted/schema-check.ts';
import { AppService } from '../accounts/apps.ts';
import { StoredAppPolicies } from '../accounts/app-policy.ts';
import { ProcessRun } from './process.ts';
import type { ProcessIo } from './process.ts';
import {
  adminTokenFor,
  configuredSources,
  loadMarketData,
  marketOptions,
  persistedOperations,
  reserveChainData,
  routerOptions,
  servicesOptions,
  startMarket,
  startProofOfReserves,
} from './wiring.ts';
import type { Dataset } from './wiring.ts';

/** The running product: HTTP server, market engine and store. */
export interface Product {
  app: FastifyInstance;
  market: MarketService;
  access: AccessRuntime;
  db: Db;
  /** Base URL the server listens on. */
  url: string;
  /** Where the generated operator token is (`ADMIN_TOKEN` unset, embedded mode); null otherwise. */
  adminTokenFile: string | null;
  /** Where its Prometheus metrics are served (`METRICS_PORT`); null without. */
  metricsUrl: string | null;
  /** Resolves when the first aggregation is done (then `/healthz` answers 200); rejects if start-up failed. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the whole product: opens the store, listens at once (so `/healthz` can say 503 while loading), then loads
 * or generates the data, aggregates once and starts ticking.
 */
export async function startProduct(cfg: AppConfig, io: ProcessIo): Promise<Product> {
  // A broken sources, deployment or persisted-operations file stops start-up here, with a message naming the field.
  const configured = configuredSources(cfg);
  const persisted = persistedOperations(cfg);
  const deployment = loadDeployment(cfg.bridgeNetwork, cfg.bridgeConfigDir);
  const live = reserveChainData(deployment, configured);
  const run = new ProcessRun(cfg, io, 'product');
  return run.assemble(async () => {
    const db = await run.openStore();
    const { options: marketOpts, useDemo, engine } = marketOptions(cfg, db, run.log, configured);
    let dataset: Dataset = { kind: 'loading', notice: null };
    let attester: ReserveAttester | null = null;
    const access = await createAccessRuntime(cfg, db, run.log);
    run.defer(() => access.close());
    const { token: adminToken, file: adminTokenFile } = adminTokenFor(cfg);
    const services = createServices(
      db,
      {
        ...servicesOptions(cfg),
        market: marketOpts,
        bridge: { deployment, staleAfterMs: cfg.bridgeStaleAfterMs },
        schemaCheck: schemaCheck(),
      },
      access,
    );
    const { market } = services;
    run.defer(() => market.stop());
    run.defer(() => attester?.stop());
    // Apps (docs/apps.md): their documents checked by the router's schema and cost model; the per-key policy read by
    // the router and the REST access hook, forgotten when this process changes an app.
    const appPolicies = new StoredAppPolicies(db);
    const apps = new AppService(db, {
      check: documentCheck(),
      ceilings: cfg.routerCostLimits,
      onChange: () => appPolicies.forget(),
    });
    // The graph: the four subgraphs executed in this process behind the router (no HTTP hop).
    const router = await createRouter({
      ...(await routerOptions(cfg, access, run, persisted)),
      apps: appPolicies,
      // Live subscriptions are computed again on each snapshot this process's engine publishes.
      snapshots: (tick) => market.onSnapshot(() => tick()),
      subgraphs: {
        kind: 'in-process',
        subgraphs: createSubgraphs({ market, engine, adminToken, services }),
      },
    });
    run.defer(() => router.stop());
    run.metrics?.watchRouter(router);
    run.metrics?.watchLimiter(access.limiter);
    run.metrics?.watchMarket(() => market);
    const app = await createServer({
      market,
      engine,
      graph: router,
      provider: { hostOrigins: cfg.walletHostOrigins, identityOrigin: cfg.identityOrigin },
      coinImagesDir: cfg.coinImagesDir,
      priceBase: cfg.priceBasePath,
      accounts: {
        keys: services.keys,
        ownKeys: services.ownKeys,
        accounts: services.accounts,
        adminToken,
        auth: services.auth,
        dapps: services.dapps,
        apps,
        schemaChecks: services.schemaChecks ?? undefined,
      },
      names: { names: services.names, partners: services.partners },
      ...(services.bridge ? { bridge: { bridge: services.bridge } } : {}),
      apiLimits: { limiter: access.apiLimiter, trustedProxies: cfg.trustedProxies },
      beforeRoutes: accessHook(access.access, {
        prefixes: [cfg.priceBasePath],
        usage: access.usage,
        origins: appPolicies,
      }),
      dataset: () => dataset,
      reserves: () => attester?.health ?? null,
      limiter: () => access.limiter.state(),
      fastifyOptions: run.fastifyOptions,
      shedder: run.shedder,
      refusalPace: run.refusalPace,
    });
    run.instrument(app);
    const url = await run.listen(app);
    const ready = run.warmUp(async () => {
      dataset = await loadMarketData(cfg, db, market, useDemo, io.progress);
      attester = await startProofOfReserves(cfg, db, deployment, live, run.log);
      await startMarket(market);
      return { garbage: !market.loadedFromCache };
    });
    return {
      app,
      market,
      access,
      db,
      url,
      adminTokenFile,
      metricsUrl: run.metricsUrl,
      ready,
      close: () => run.close(),
    };
  });
}
