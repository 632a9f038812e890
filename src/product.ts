import type { FastifyInstance } from 'fastify';
import { ASSETS } from './catalog/assets.ts';
import { CATEGORIES } from './catalog/categories.ts';
import { CURRENCIES, QUOTE_ASSETS } from './catalog/currencies.ts';
import type { AppConfig } from './config.ts';
import { ConfigError } from './config.ts';
import { createDemoSource } from './demo/live.ts';
import { DEMO_NOTICE } from './demo/dataset.ts';
import { DEFAULT_PRICE_RULES } from './engine/price.ts';
import type { EngineConfig } from './engine/snapshot.ts';
import { loadSourcesFile } from './ingest/sources.ts';
import type { ConfiguredSources } from './ingest/sources.ts';
import type { TickerSource } from './ingest/types.ts';
import type { DemoProgress } from './market/demo.ts';
import { demoMiningRefresher, ensureDemoData } from './market/demo.ts';
import type { AccessRuntime } from './access-runtime.ts';
import { createAccessRuntime } from './access-runtime.ts';
import { resolveAdminToken } from './admin/token.ts';
import { accessHook } from './rest/access-hook.ts';
import { AttestationKeyError, resolveAttestationKey } from './bridge/attestation.ts';
import type { AttestationKey } from './bridge/attestation.ts';
import { ReserveAttester } from './bridge/attester.ts';
import { loadDeployment } from './bridge/deployment.ts';
import type { Deployment } from './bridge/model.ts';
import { LiveChainData } from './bridge/live-chain-data.ts';
import { ensureDemoSnapshot } from './bridge/snapshots.ts';
import type { Logger } from './market/service.ts';
import { MarketService } from './market/service.ts';
import { createServer } from './server/app.ts';
import type { Db } from './store/db.ts';
import { openDb } from './store/open.ts';
import { createSubgraphs } from './graph.ts';
import { createRouter } from '../router/index.ts';
import type { RouterOptions } from '../router/index.ts';
import { RedisApqCache } from '../router/apq-cache.ts';
import { loadManifest } from '../router/plugins/persisted-operations.ts';
import type { PersistedManifest } from '../router/plugins/persisted-operations.ts';
import { KIT_PERSISTED_DOCUMENTS_PATH, KIT_RETIRED_DOCUMENTS_PATH } from './server/browser/kit-manifest.ts';
import { WEB_PERSISTED_DOCUMENTS_PATH } from './server/browser/web-manifest.ts';
import { createServices } from './services.ts';
import type { ServicesOptions } from './services.ts';

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
  /** Resolves when the first aggregation is done (then `/healthz` answers 200); rejects if start-up failed. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** The engine's rules from the configuration (and the FX windows of the configured sources). */
export function engineConfig(
  cfg: Pick<AppConfig, 'staleAfterMs'> &
    Partial<Pick<AppConfig, 'supplyMaxAgeMs' | 'miningStaleAfterMs' | 'miningMaxAgeMs'>>,
  fxMaxAgeMs?: ReadonlyMap<string, number>,
): EngineConfig {
  return {
    assets: ASSETS,
    currencies: CURRENCIES,
    categories: CATEGORIES,
    quoteAssets: QUOTE_ASSETS,
    priceRules: { ...DEFAULT_PRICE_RULES, maxAgeMs: cfg.staleAfterMs },
    ...(cfg.supplyMaxAgeMs !== undefined ? { supplyMaxAgeMs: cfg.supplyMaxAgeMs } : {}),
    ...(cfg.miningStaleAfterMs !== undefined ? { miningStaleAfterMs: cfg.miningStaleAfterMs } : {}),
    ...(cfg.miningMaxAgeMs !== undefined ? { miningMaxAgeMs: cfg.miningMaxAgeMs } : {}),
    ...(fxMaxAgeMs ? { fxMaxAgeMs } : {}),
  };
}

export type PersistedOperations = NonNullable<RouterOptions['persisted']>;

/**
 * The router's persisted operations: the kits' and the web pages' documents always run (they send only
 * `{ documentId, variables }`); `PERSISTED_OPERATIONS` adds more, and its mode (`safelist`) then applies to everything
 * else. A manifest that cannot be read or is malformed is a `ConfigError` naming the variable.
 */
export function persistedOperations(
  cfg: Pick<AppConfig, 'persistedOperations' | 'persistedOperationsMode'>,
): PersistedOperations {
  let extra: PersistedManifest = new Map();
  if (cfg.persistedOperations) {
    try {
      extra = loadManifest(cfg.persistedOperations);
    } catch (err) {
      throw new ConfigError(`PERSISTED_OPERATIONS: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return {
    manifest: new Map([
      ...loadManifest(KIT_RETIRED_DOCUMENTS_PATH),
      ...loadManifest(KIT_PERSISTED_DOCUMENTS_PATH),
      ...loadManifest(WEB_PERSISTED_DOCUMENTS_PATH),
      ...extra,
    ]),
    mode: cfg.persistedOperations ? cfg.persistedOperationsMode : 'allow',
  };
}

/**
 * Router options from the configuration (everything but where the subgraphs are); `persisted` from
 * {@link persistedOperations}, read before anything starts so that a bad manifest stops start-up at once.
 */
export function routerOptions(
  cfg: AppConfig,
  access: AccessRuntime,
  log: Logger,
  persisted: PersistedOperations,
): Omit<RouterOptions, 'subgraphs'> {
  return {
    access: access.access,
    usage: access.usage,
    costLimits: cfg.routerCostLimits,
    subgraphTimeoutMs: cfg.routerSubgraphTimeoutMs,
    planner: cfg.routerPlanner,
    persisted,
    ...(access.redis ? { apqCache: new RedisApqCache(access.redis) } : {}),
    log,
  };
}

/** The domain services' options from the configuration: the same in the embedded product and every scale-out part. */
export function servicesOptions(cfg: AppConfig): ServicesOptions {
  return {
    domain: cfg.signInDomain ?? `${cfg.host}:${cfg.port}`,
    nameSuffix: cfg.nameSuffix,
    nameNetwork: cfg.nameNetwork,
  };
}

export interface Dataset {
  kind: 'demo' | 'live' | 'loading';
  notice: string | null;
}

/** The sources file's sources (`SOURCES_FILE`), read and checked; null when none is configured. */
export function configuredSources(cfg: Pick<AppConfig, 'sourcesFile'>): ConfiguredSources | null {
  return cfg.sourcesFile ? loadSourcesFile(cfg.sourcesFile) : null;
}

/** The market service over the configured live sources (plus the live demo source when no sources are given). */
export function marketFor(
  cfg: AppConfig,
  db: Db,
  log: Logger,
  configured: ConfiguredSources | null,
): { market: MarketService; useDemo: boolean; engine: EngineConfig } {
  const live: TickerSource[] = [...(configured?.sources ?? [])];
  const useDemo = !cfg.sourcesFile && cfg.demo === 'auto';
  if (useDemo) live.push(createDemoSource({ seed: cfg.demoSeed, assets: ASSETS, currencies: CURRENCIES }));
  const engine = engineConfig(cfg, configured?.fxMaxAgeMs);
  const market = new MarketService({
    db,
    engine,
    sources: live,
    tickIntervalMs: cfg.tickIntervalMs,
    sourceTimeoutMs: cfg.sourceTimeoutMs,
    log,
    // The demo's mining figures follow the clock as its tickers do (one observation an hour).
    ...(useDemo ? { afterTick: demoMiningRefresher(db, ASSETS) } : {}),
  });
  return { market, useDemo, engine };
}

/**
 * The proof of reserves' chain data: live, from the sources the sources file's `bridge` section names (checked
 * against the deployment now, so a chain without a source stops start-up), or null: then the recorded demo data.
 */
export function reserveChainData(
  deployment: Deployment,
  configured: ConfiguredSources | null,
): { chain: LiveChainData; everyMs: number } | null {
  const bridge = configured?.bridge;
  return bridge ? { chain: new LiveChainData(deployment, bridge), everyMs: bridge.everyMs } : null;
}

/**
 * Keeps the proof of reserves current: with live chain data, a report signed now and every `bridge.everyMs`
 * (returns the running attester); without, the recorded demo snapshot when the network has none yet (returns null).
 * Without a usable attestation key it signs nothing and says why.
 */
export async function startProofOfReserves(
  cfg: AppConfig,
  db: Db,
  deployment: Deployment,
  live: { chain: LiveChainData; everyMs: number } | null,
  log: Logger,
): Promise<ReserveAttester | null> {
  const seed = {
    ...(cfg.bridgeAttestationKey ? { seedHex: cfg.bridgeAttestationKey } : {}),
    scaleOut: Boolean(cfg.databaseUrl),
  };
  if (!live) {
    const por = await ensureDemoSnapshot(db, deployment, cfg.dataDir, Date.now(), seed);
    if (por.status === 'skipped') log.warn('no proof-of-reserves snapshot', { reason: por.reason });
    return null;
  }
  let key: AttestationKey;
  try {
    key = resolveAttestationKey(deployment, { dataDir: cfg.dataDir, ...seed });
  } catch (err) {
    if (!(err instanceof AttestationKeyError)) throw err;
    log.warn('no proof-of-reserves snapshot', { reason: err.message });
    return null;
  }
  const attester = new ReserveAttester({
    db,
    deployment,
    chain: live.chain,
    key,
    everyMs: live.everyMs,
    log,
  });
  await attester.attest();
  attester.start();
  return attester;
}

/** Generates the demo dataset into an empty store (demo mode) or loads what the store holds. */
export async function loadMarketData(
  cfg: AppConfig,
  db: Db,
  market: MarketService,
  useDemo: boolean,
  progress?: DemoProgress,
): Promise<Dataset> {
  if (!useDemo) {
    await market.load();
    return { kind: 'live', notice: null };
  }
  const r = await ensureDemoData(
    db,
    market,
    cfg,
    { assets: ASSETS, currencies: CURRENCIES },
    Date.now(),
    progress,
  );
  if (!r.generated) await market.load();
  return { kind: 'demo', notice: DEMO_NOTICE(r.manifest.seed) };
}

/**
 * Starts the whole product: opens the store, listens at once (so `/healthz` can say 503 while loading), then loads
 * or generates the data, aggregates once and starts ticking.
 */
export async function startProduct(
  cfg: AppConfig,
  io: { log: Logger; progress?: DemoProgress },
): Promise<Product> {
  // A broken sources, deployment or persisted-operations file stops start-up here, with a message naming the field.
  const configured = configuredSources(cfg);
  const persisted = persistedOperations(cfg);
  const deployment = loadDeployment(cfg.bridgeNetwork, cfg.bridgeConfigDir);
  const live = reserveChainData(deployment, configured);
  const db = await openDb({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
  const { market, useDemo, engine } = marketFor(cfg, db, io.log, configured);
  let dataset: Dataset = { kind: 'loading', notice: null };
  let attester: ReserveAttester | null = null;
  const access = await createAccessRuntime(cfg, db, io.log);
  const { token: adminToken, file: adminTokenFile } = resolveAdminToken({
    env: cfg.adminToken,
    dataDir: cfg.dataDir,
    scaleOut: Boolean(cfg.databaseUrl),
  });
  const services = createServices(db, servicesOptions(cfg));
  // The graph: the four subgraphs executed in this process behind the router (no HTTP hop).
  const router = await createRouter({
    ...routerOptions(cfg, access, io.log, persisted),
    subgraphs: {
      kind: 'in-process',
      subgraphs: createSubgraphs({
        db,
        market,
        engine,
        keys: access.keys,
        usage: access.usage,
        adminToken,
        services,
        deployment,
        bridgeStaleAfterMs: cfg.bridgeStaleAfterMs,
      }),
    },
  });
  const app = await createServer({
    market,
    engine,
    graph: router,
    provider: { hostOrigins: cfg.walletHostOrigins, identityOrigin: cfg.identityOrigin },
    coinImagesDir: cfg.coinImagesDir,
    priceBase: cfg.priceBasePath,
    accounts: { db, keys: access.keys, adminToken, auth: services.auth, dapps: services.dapps },
    names: { names: services.names },
    bridge: { db, deployment, staleAfterMs: cfg.bridgeStaleAfterMs },
    beforeRoutes: accessHook(access.access, { prefixes: [cfg.priceBasePath], usage: access.usage }),
    dataset: () => dataset,
    reserves: () => attester?.health ?? null,
    logger: cfg.logLevel === 'silent' ? false : { level: cfg.logLevel === 'info' ? 'warn' : cfg.logLevel },
  });
  await app.listen({ port: cfg.port, host: cfg.host });
  const addr = app.server.address();
  const url =
    typeof addr === 'object' && addr ? `http://${cfg.host}:${addr.port}` : `http://${cfg.host}:${cfg.port}`;

  const ready = (async () => {
    dataset = await loadMarketData(cfg, db, market, useDemo, io.progress);
    attester = await startProofOfReserves(cfg, db, deployment, live, io.log);
    await market.tick();
    await market.rollup();
    market.start();
  })();
  ready.catch((err: unknown) =>
    io.log.error('start-up failed', { error: err instanceof Error ? err.message : String(err) }),
  );

  return {
    app,
    market,
    access,
    db,
    url,
    adminTokenFile,
    ready,
    async close() {
      await app.close();
      await router.stop();
      await attester?.stop();
      await market.stop();
      await access.close();
      await db.close();
    },
  };
}
