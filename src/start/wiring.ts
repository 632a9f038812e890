/**
 * The configuration turned into the parts of a process: the engine's rules, the domain services' options (the serving
 * market's among them) and the market's data, the proof of reserves, the router's options, the operator token. The embedded product
 * (`product.ts`) and each scale-out part (`part.ts`) assemble their process from these.
 */
import { join } from 'node:path';
import { ASSETS } from '../catalog/assets.ts';
import { CATEGORIES } from '../catalog/categories.ts';
import { CURRENCIES, QUOTE_ASSETS } from '../catalog/currencies.ts';
import type { AccessRuntime } from './access.ts';
import { resolveAdminToken } from '../admin/token.ts';
import type { AdminToken } from '../admin/token.ts';
import { AttestationKeyError, resolveAttestationKey } from '../bridge/attestation.ts';
import type { AttestationKey } from '../bridge/attestation.ts';
import { ReserveAttester } from '../bridge/attester.ts';
import type { Deployment } from '../bridge/model.ts';
import { LiveChainData } from '../bridge/live-chain-data.ts';
import { ensureDemoSnapshot } from '../bridge/snapshots.ts';
import type { AppConfig } from '../config.ts';
import { ConfigError } from '../config.ts';
import type { Logger } from '../core/log.ts';
import type { ProcessRun } from './process.ts';
import { createDemoSource } from '../demo/live.ts';
import { DEMO_NOTICE } from '../demo/dataset.ts';
import { DEFAULT_PRICE_RULES } from '../engine/price.ts';
import type { EngineConfig } from '../engine/snapshot.ts';
import { loadSourcesFile } from '../ingest/sources.ts';
import type { ConfiguredSources } from '../ingest/sources.ts';
import type { TickerSource } from '../ingest/types.ts';
import type { DemoProgress } from './demo.ts';
import { demoMiningRefresher, ensureDemoData } from './demo.ts';
import { HISTORY_CACHE_FILE } from '../market/history-cache.ts';
import type { MarketService } from '../market/service.ts';
import { KIT_PERSISTED_DOCUMENTS_PATH, KIT_RETIRED_DOCUMENTS_PATH } from '../server/browser/kit-manifest.ts';
import { WEB_PERSISTED_DOCUMENTS_PATH } from '../server/browser/web-manifest.ts';
import { createServices } from '../services.ts';
import type { ServicesOptions } from '../services.ts';
import type { Db } from '../store/db.ts';
import type { RouterOptions } from '../../router/index.ts';
import { redisApqCache } from '../../router/apq-cache.ts';
import { loadManifest } from '../../router/plugins/persisted-operations.ts';
import type { PersistedManifest } from '../../router/plugins/persisted-operations.ts';

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
 * {@link persistedOperations}, read before anything starts so that a bad manifest stops start-up at once. With
 * `REDIS_URL` the APQ cache is shared in Redis (its connection closed with the process).
 */
export async function routerOptions(
  cfg: AppConfig,
  access: AccessRuntime,
  run: Pick<ProcessRun, 'log' | 'defer' | 'metrics' | 'shedder'>,
  persisted: PersistedOperations,
): Promise<Omit<RouterOptions, 'subgraphs'>> {
  const apq = cfg.redisUrl ? await redisApqCache(cfg.redisUrl, run.log) : null;
  if (apq) run.defer(() => apq.close());
  return {
    access: access.access,
    usage: access.usage,
    costLimits: cfg.routerCostLimits,
    subgraphTimeoutMs: cfg.routerSubgraphTimeoutMs,
    planner: cfg.routerPlanner,
    persisted,
    ...(apq ? { apqCache: apq.cache } : {}),
    log: run.log,
    shedder: run.shedder,
    ...(run.metrics ? { onSubgraphFetch: run.metrics.observeFetch.bind(run.metrics) } : {}),
  };
}

/** The domain services' options from the configuration: the same in the embedded product and every scale-out part. */
export function servicesOptions(cfg: AppConfig): ServicesOptions {
  return {
    domain: cfg.signInDomain ?? `${cfg.host}:${cfg.port}`,
    nameSuffix: cfg.nameSuffix,
    nameNetwork: cfg.nameNetwork,
    dappAllowPrivateUrls: cfg.dappAllowPrivateUrls,
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

/** The market's options as start-up gives them to `createServices`; with whether the demo feeds it, and its rules. */
export interface MarketSetup {
  options: NonNullable<ServicesOptions['market']>;
  /** No sources file and `DEMO=auto`: the live demo source feeds the market, and the demo dataset is its history. */
  useDemo: boolean;
  engine: EngineConfig;
}

/**
 * The serving market's options: the configured live sources (plus the live demo source when no sources are given),
 * the engine's rules with their FX windows, the tick and the source timeout. `createServices` builds the market
 * from them.
 */
export function marketOptions(
  cfg: AppConfig,
  db: Db,
  log: Logger,
  configured: ConfiguredSources | null,
): MarketSetup {
  const live: TickerSource[] = [...(configured?.sources ?? [])];
  const useDemo = !cfg.sourcesFile && cfg.demo === 'auto';
  if (useDemo) live.push(createDemoSource({ seed: cfg.demoSeed, assets: ASSETS, currencies: CURRENCIES }));
  const engine = engineConfig(cfg, configured?.fxMaxAgeMs);
  const options = {
    engine,
    sources: live,
    tickIntervalMs: cfg.tickIntervalMs,
    sourceTimeoutMs: cfg.sourceTimeoutMs,
    log,
    // The demo's mining figures follow the clock as its tickers do (one observation an hour).
    ...(useDemo ? { afterTick: demoMiningRefresher(db, ASSETS) } : {}),
  };
  return { options, useDemo, engine };
}

/**
 * The serving market alone, from {@link marketOptions} through `createServices`: for what runs start-up's data steps
 * without serving (`bench/startup-data.bench.ts` measures them through this name in every commit it compares).
 */
export function marketFor(
  cfg: AppConfig,
  db: Db,
  log: Logger,
  configured: ConfiguredSources | null,
): { market: MarketService; useDemo: boolean; engine: EngineConfig } {
  const { options, useDemo, engine } = marketOptions(cfg, db, log, configured);
  const { market } = createServices(db, { ...servicesOptions(cfg), market: options });
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

/**
 * Generates the demo dataset into an empty store (demo mode) or loads what the store holds. The embedded store's
 * closed history is also kept in `DATA_DIR/history.cache` (`MarketService.useHistoryCache`), read on the next start.
 */
export async function loadMarketData(
  cfg: AppConfig,
  db: Db,
  market: MarketService,
  useDemo: boolean,
  progress?: DemoProgress,
): Promise<Dataset> {
  // One process writes the embedded store (its lock): what it holds in memory is what the store holds.
  const embedded = db.kind === 'pglite' && !cfg.databaseUrl;
  if (embedded) market.useHistoryCache(join(cfg.dataDir, HISTORY_CACHE_FILE));
  if (!useDemo) {
    await market.load();
    return { kind: 'live', notice: null };
  }
  // A first start on the embedded store is ready once its dataset is aggregated; the store takes it in the background
  // (storeLater; no other process can see it meanwhile: the store's lock). A shared PostgreSQL takes it in one
  // transaction before the process is ready, so another process never sees part of it.
  const r = await ensureDemoData(
    db,
    market,
    cfg,
    { assets: ASSETS, currencies: CURRENCIES },
    Date.now(),
    progress,
    { storeLater: embedded },
  );
  if (!r.generated) await market.load();
  return { kind: 'demo', notice: DEMO_NOTICE(r.manifest.seed) };
}

/** The operator token (`ADMIN_TOKEN`, or one generated into the data directory when embedded). */
export const adminTokenFor = (cfg: Pick<AppConfig, 'adminToken' | 'dataDir' | 'databaseUrl'>): AdminToken =>
  resolveAdminToken({ env: cfg.adminToken, dataDir: cfg.dataDir, scaleOut: Boolean(cfg.databaseUrl) });

/** The market's first aggregation over the loaded data, then its ticks. */
export async function startMarket(market: MarketService): Promise<void> {
  await market.tick();
  await market.rollup();
  market.start();
}
