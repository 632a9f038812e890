/**
 * The one reader of the environment. A leaf: it imports nothing of the areas it configures (lint: eslint.config.js),
 * and nothing below start-up imports it; start-up hands each part the plain values it needs. Where a variable names
 * something of an area's vocabulary (a plan, an `/api` bucket, a subgraph) the reader holds its own list, which
 * `test/architecture/config-vocabulary.test.ts` holds equal to the area's.
 */
import { resolve } from 'node:path';
import { PROJECT_ROOT } from './core/project-root.ts';
import { DEFAULT_WALLET_HOST_ORIGINS } from './core/wallet-hosts.ts';
import { tracingConfig } from './tracing-config.ts';
import type { TracingConfig } from './tracing-config.ts';

/** The plans a per-plan variable names (`src/access/plans.ts`'s `CallerPlan`), in the order messages list them. */
export const CONFIG_PLANS = ['keyless', 'free', 'pro', 'enterprise'] as const;
type ConfigPlan = (typeof CONFIG_PLANS)[number];
/** The `/api` rate-limit buckets `API_RATE_LIMITS` names (`src/access/api-limits.ts`'s `API_BUCKETS`). */
export const CONFIG_API_BUCKETS = ['challenge', 'sign-in', 'public', 'account', 'partner'] as const;
type ConfigApiBucket = (typeof CONFIG_API_BUCKETS)[number];
/** The subgraphs `SUBGRAPH_URLS` names (`subgraphs/shared/subgraph.ts`'s `SUBGRAPH_NAMES`). */
export const CONFIG_SUBGRAPHS = ['markets', 'identity', 'bridge', 'accounts'] as const;
type ConfigSubgraph = (typeof CONFIG_SUBGRAPHS)[number];

/** Seed of the shipped demo dataset (`DEMO_SEED`'s default). */
export const DEFAULT_DEMO_SEED = 20261121;
/** `NAME_SUFFIX`'s default (the names domain's own default, `src/names/name-rules.ts`). */
export const DEFAULT_NAME_SUFFIX = 'coin';

/** Process configuration, read from the environment. Every option has a default that runs the embedded product. */
export interface AppConfig {
  /** `PORT`, default 4000. 0 picks a free port. */
  port: number;
  /** `HOST`, default 127.0.0.1. */
  host: string;
  /** `DATA_DIR`, default `./data`: the embedded database and the demo dataset live here. */
  dataDir: string;
  /** `DATABASE_URL`: a `postgres://` URL switches from embedded PGlite to a PostgreSQL server. */
  databaseUrl: string | undefined;
  /** `TICK_INTERVAL_MS`, default 60,000: how often sources are polled and aggregates recomputed. */
  tickIntervalMs: number;
  /** `SOURCE_TIMEOUT_MS`, default 10,000: a source slower than this is cut off for that tick. */
  sourceTimeoutMs: number;
  /** `STALE_AFTER_MS`, default 900,000 (15 min): tickers older than this are not used for prices. */
  staleAfterMs: number;
  /** `SOURCES_FILE`: JSON file listing live sources (see docs/sources.md); unset → demo data. */
  sourcesFile: string | undefined;
  /** `SUPPLY_MAX_AGE_MS`, default 604,800,000 (7 days): older supply readings are not used to verify a supply. */
  supplyMaxAgeMs: number;
  /** `MINING_STALE_AFTER_MS`, default 7,200,000 (2 h): older chain figures are served with `stale: true`. */
  miningStaleAfterMs: number;
  /** `MINING_MAX_AGE_MS`, default 86,400,000 (1 day): older chain figures are not served (`Coin.mining` null). */
  miningMaxAgeMs: number;
  /** `DEMO`: `auto` (default: load the demo dataset into an empty store when no sources are configured) or `off`. */
  demo: 'auto' | 'off';
  /** `DEMO_SEED`, default 20261121. */
  demoSeed: number;
  /** `DEMO_DAYS`, default 420: days of generated history. */
  demoDays: number;
  /** `LOG_LEVEL`: `info` (default), `warn`, `error` or `silent`. */
  logLevel: 'info' | 'warn' | 'error' | 'silent';
  /** `LOG_FORMAT`: `json` or `pretty`; unset: pretty on a terminal, JSON anywhere else. */
  logFormat: 'json' | 'pretty' | undefined;
  /** `PRICE_BASE_PATH`, default `/v1/agg`: where the price API is mounted. */
  priceBasePath: string;
  /** `REDIS_URL`: `redis://…` → rate-limit budgets and key revocations shared by every process through Redis. */
  redisUrl: string | undefined;
  /**
   * `ROUTER_PROCESSES`: how many processes count the budgets (routers, or whole products, sharing one Redis). While
   * Redis is unreachable each one admits its share of every budget, the budget divided by this number or by the
   * number learned from Redis while it answered, whichever is larger (docs/plans-and-limits.md); unset: learned only.
   */
  routerProcesses: number | undefined;
  /**
   * `RATE_LIMIT_WINDOW_SECONDS`, default 60: the length of the rate-limit windows, for tests only (the limits stay
   * those of a minute, counted over this shorter window).
   */
  rateLimitWindowSeconds: number;
  /** `TRUSTED_PROXIES`: comma-separated addresses/CIDRs whose `X-Forwarded-For` is believed; default none. */
  trustedProxies: string[];
  /** `API_RATE_LIMITS`: per-minute limits of the `/api` buckets (`src/access/api-limits.ts`); default none changed. */
  apiRateLimits: Partial<Record<ConfigApiBucket, number>>;
  /**
   * `API_KEY_PEPPER`: server-side secret mixed into key hashes, at least 16 characters; embedded mode generates one
   * under DATA_DIR.
   */
  apiKeyPepper: string | undefined;
  /**
   * `ADMIN_TOKEN`: bearer token for operator endpoints, at least 16 characters; embedded mode generates one at
   * `DATA_DIR/secrets/admin-token`.
   */
  adminToken: string | undefined;
  /** `NAME_SUFFIX`, default `coin`: names are `<label>.<suffix>`. */
  nameSuffix: string;
  /** `NAME_NETWORK`, default `mainnet`: which network's addresses names may link. */
  nameNetwork: 'mainnet' | 'testnet';
  /** `BRIDGE_NETWORK`, default `testnet`: the active bridge deployment (`config/bridge/<network>.json`). */
  bridgeNetwork: 'mainnet' | 'testnet';
  /** `BRIDGE_CONFIG_DIR`, default `config/bridge` (relative to the project). */
  bridgeConfigDir: string;
  /** `BRIDGE_ATTESTATION_KEY`: hex ed25519 seed that signs reserve reports; embedded mode generates one. */
  bridgeAttestationKey: string | undefined;
  /** `BRIDGE_STALE_AFTER_MS`, default 3,600,000: an older reserve snapshot is served with `stale: true`. */
  bridgeStaleAfterMs: number;
  /**
   * `SUBGRAPH_URLS`: `markets=http://…/graphql,identity=…,bridge=…,accounts=…` — where a router started with
   * `serve --only router` finds the four subgraphs. Required in that mode, ignored otherwise.
   */
  subgraphUrls: Partial<Record<ConfigSubgraph, string>>;
  /** `ROUTER_SUBGRAPH_TIMEOUT_MS`, default 5,000: a subgraph fetch slower than this yields null fields + an error. */
  routerSubgraphTimeoutMs: number;
  /** `ROUTER_COST_LIMITS`: e.g. `keyless=500,free=1000,pro=5000,enterprise=20000` (any subset overrides). */
  routerCostLimits: Partial<Record<ConfigPlan, number>>;
  /**
   * `COST_BUDGETS`: query cost per minute per plan, e.g. `keyless=5000,free=20000,pro=150000,enterprise=1000000`
   * (any subset overrides `src/access/plans.ts`'s defaults).
   */
  costBudgets: Partial<Record<ConfigPlan, number>>;
  /** `CONCURRENCY_LIMITS`: requests in flight per caller and process, e.g. `keyless=4,free=8,pro=32,enterprise=64`. */
  concurrencyLimits: Partial<Record<ConfigPlan, number>>;
  /** `SUBSCRIPTION_LIMITS`: open subscriptions per caller and process, e.g. `keyless=2,pro=100`. */
  subscriptionLimits: Partial<Record<ConfigPlan, number>>;
  /** `SUBSCRIPTION_ID_LIMITS`: coins one subscription may ask for per plan (at most 250), e.g. `keyless=25`. */
  subscriptionIdLimits: Partial<Record<ConfigPlan, number>>;
  /** `SHED_LAG_MS`, default 250: event-loop lag above which new expensive work is refused (503); 0: off. */
  shedLagMs: number;
  /**
   * `REFUSAL_HOLD_MS`, default 1,000: how long a 429 is held for a caller refused more than 10 times inside one
   * `Retry-After` period (`src/access/refusal-pace.ts`); 0: sent at once.
   */
  refusalHoldMs: number;
  /** `SHED_MAX_IN_FLIGHT`, default 256: expensive work under way at once above which new work is refused; 0: off. */
  shedMaxInFlight: number;
  /** `ROUTER_PLANNER`, default `rust`: the router's query planner (`router/engines/hive.ts`), or `js`. */
  routerPlanner: 'rust' | 'js';
  /**
   * `READY_REQUIRES_SUBGRAPHS`, default `true`: a scale-out router's `/readyz` answers 503 while a subgraph process is
   * not ready. `false`: the router stays ready and answers with partial results (the missing subgraph's fields null).
   */
  readyRequiresSubgraphs: boolean;
  /**
   * `SHUTDOWN_TIMEOUT_MS`, default 10,000: on SIGTERM/SIGINT a process stops accepting, and waits this long at most
   * for the requests in flight before it closes their connections.
   */
  shutdownTimeoutMs: number;
  /**
   * `METRICS_PORT`: where this process serves Prometheus metrics (`GET /metrics`, on `HOST`, apart from the public
   * port so that only the operator's network reaches it); unset: no metrics; `0`: any free port.
   */
  metricsPort: number | undefined;
  /** `PERSISTED_OPERATIONS`: a persisted-operations manifest file for the router; unset → none. */
  persistedOperations: string | undefined;
  /**
   * `SIGN_IN_DOMAIN`: the domain named in wallet sign-in challenges (EIP-4361's `domain`), default `HOST:PORT`.
   * Set it to the public host name behind a proxy, and to the same value in every process of a scale-out deployment.
   */
  signInDomain: string | undefined;
  /**
   * `DAPP_ALLOW_PRIVATE_URLS`, default `false`: dapp listings may name sites and icons on loopback, private and
   * link-local hosts (`localhost`, `127.0.0.1`, `10.x`, `[::1]`…). For developing against a local dapp only: in
   * production a listing must point at a public host (docs/dapps.md).
   */
  dappAllowPrivateUrls: boolean;
  /** `PERSISTED_OPERATIONS_MODE`: `allow` (default: manifest ids plus any other operation) or `safelist`. */
  persistedOperationsMode: 'allow' | 'safelist';
  /**
   * `WALLET_HOST_ORIGINS`: comma-separated origins of the wallet frames `/provider.js` accepts as its host; default
   * `https://wallet.coinwallet.app`. Loopback origins (`http://127.0.0.1:*`, `http://localhost:*`, `http://[::1]:*`:
   * the `coinwallet dapp-browser` emulator) are always trusted in addition (docs/provider.md).
   */
  walletHostOrigins: string[];
  /**
   * `IDENTITY_ORIGIN`: the name-resolution site, the only origin allowed to call `id_connect`; unset → the platform's
   * own origin (the one `/provider.js` is loaded from).
   */
  identityOrigin: string | undefined;
  /**
   * `COIN_IMAGES_DIR`: a folder of operator logos, `<id>.svg` or `<id>.png` per catalog coin id (an SVG wins over a
   * PNG), served at `/assets/coins/<id>.svg` instead of the generated badge; re-read when a file changes. Unset
   * (default) → generated badges only. Relative paths resolve against the working directory; start-up fails when it
   * is not a directory.
   */
  coinImagesDir: string | undefined;
  /**
   * OpenTelemetry tracing, from the standard `OTEL_*` variables (`src/tracing-config.ts`, docs/operations.md): on when
   * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT` is set; undefined (off) otherwise.
   */
  tracing: TracingConfig | undefined;
}

export { ConfigError } from './config-error.ts';
import { ConfigError } from './config-error.ts';

/** Reads and checks the configuration; throws `ConfigError` naming the variable and what it accepts. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const level = env.LOG_LEVEL ?? 'info';
  if (!['info', 'warn', 'error', 'silent'].includes(level))
    throw new ConfigError('LOG_LEVEL must be info, warn, error or silent');
  const demo = env.DEMO ?? 'auto';
  if (demo !== 'auto' && demo !== 'off') throw new ConfigError('DEMO must be auto or off');
  const url = env.DATABASE_URL || undefined;
  if (url && !/^postgres(ql)?:\/\//.test(url))
    throw new ConfigError('DATABASE_URL must be a postgres:// URL');
  return {
    port: int(env, 'PORT', 4000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: url,
    tickIntervalMs: int(env, 'TICK_INTERVAL_MS', 60_000, 1_000, 86_400_000),
    sourceTimeoutMs: int(env, 'SOURCE_TIMEOUT_MS', 10_000, 100, 600_000),
    staleAfterMs: int(env, 'STALE_AFTER_MS', 900_000, 1_000, 86_400_000),
    sourcesFile: env.SOURCES_FILE || undefined,
    supplyMaxAgeMs: int(env, 'SUPPLY_MAX_AGE_MS', 7 * 86_400_000, 1_000, 365 * 86_400_000),
    miningStaleAfterMs: int(env, 'MINING_STALE_AFTER_MS', 7_200_000, 1_000, 30 * 86_400_000),
    miningMaxAgeMs: int(env, 'MINING_MAX_AGE_MS', 86_400_000, 1_000, 365 * 86_400_000),
    demo,
    demoSeed: int(env, 'DEMO_SEED', DEFAULT_DEMO_SEED, 0, 2 ** 31 - 1),
    demoDays: int(env, 'DEMO_DAYS', 420, 3, 3650),
    logLevel: level as AppConfig['logLevel'],
    logFormat: logFormatOf(env.LOG_FORMAT),
    priceBasePath: basePath(env.PRICE_BASE_PATH),
    redisUrl: redisUrl(env.REDIS_URL),
    routerProcesses: env.ROUTER_PROCESSES ? int(env, 'ROUTER_PROCESSES', 1, 1, 1_000) : undefined,
    rateLimitWindowSeconds: int(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 60),
    trustedProxies: (env.TRUSTED_PROXIES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    apiRateLimits: parseApiLimits(env.API_RATE_LIMITS),
    apiKeyPepper: secret(env, 'API_KEY_PEPPER', 'it keys the hashes of every API key'),
    adminToken: secret(env, 'ADMIN_TOKEN', 'it opens every operator endpoint'),
    nameSuffix: suffix(env.NAME_SUFFIX),
    nameNetwork: network(env, 'NAME_NETWORK', 'mainnet'),
    bridgeNetwork: network(env, 'BRIDGE_NETWORK', 'testnet'),
    bridgeConfigDir: resolve(PROJECT_ROOT, env.BRIDGE_CONFIG_DIR || 'config/bridge'),
    bridgeAttestationKey: env.BRIDGE_ATTESTATION_KEY || undefined,
    bridgeStaleAfterMs: int(env, 'BRIDGE_STALE_AFTER_MS', 3_600_000, 1_000, 365 * 86_400_000),
    subgraphUrls: subgraphUrls(env.SUBGRAPH_URLS),
    routerSubgraphTimeoutMs: int(env, 'ROUTER_SUBGRAPH_TIMEOUT_MS', 5_000, 10, 600_000),
    routerCostLimits: perPlan(env.ROUTER_COST_LIMITS, 'ROUTER_COST_LIMITS', 'free=1000,pro=5000', 10_000_000),
    costBudgets: perPlan(env.COST_BUDGETS, 'COST_BUDGETS', 'free=20000,pro=150000', 1_000_000_000),
    concurrencyLimits: perPlan(env.CONCURRENCY_LIMITS, 'CONCURRENCY_LIMITS', 'keyless=4,pro=32', 10_000),
    subscriptionLimits: perPlan(
      env.SUBSCRIPTION_LIMITS,
      'SUBSCRIPTION_LIMITS',
      'keyless=2,pro=100',
      1_000_000,
    ),
    subscriptionIdLimits: perPlan(
      env.SUBSCRIPTION_ID_LIMITS,
      'SUBSCRIPTION_ID_LIMITS',
      'keyless=25,pro=250',
      250,
    ),
    shedLagMs: int(env, 'SHED_LAG_MS', 250, 0, 60_000),
    refusalHoldMs: int(env, 'REFUSAL_HOLD_MS', 1_000, 0, 60_000),
    shedMaxInFlight: int(env, 'SHED_MAX_IN_FLIGHT', 256, 0, 1_000_000),
    routerPlanner: routerPlanner(env.ROUTER_PLANNER),
    readyRequiresSubgraphs: bool(env, 'READY_REQUIRES_SUBGRAPHS', true),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    metricsPort: env.METRICS_PORT ? int(env, 'METRICS_PORT', 0, 0, 65_535) : undefined,
    persistedOperations: env.PERSISTED_OPERATIONS || undefined,
    signInDomain: signInDomain(env.SIGN_IN_DOMAIN),
    dappAllowPrivateUrls: bool(env, 'DAPP_ALLOW_PRIVATE_URLS', false),
    persistedOperationsMode: safelistMode(env.PERSISTED_OPERATIONS_MODE),
    walletHostOrigins: walletHostOrigins(env.WALLET_HOST_ORIGINS),
    identityOrigin: identityOrigin(env.IDENTITY_ORIGIN),
    coinImagesDir: env.COIN_IMAGES_DIR ? resolve(env.COIN_IMAGES_DIR) : undefined,
    tracing: tracingConfig(env),
  };
}

function pairs(v: string, name: string, expected: string): [string, string][] {
  return v
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const i = p.indexOf('=');
      if (i <= 0) throw new ConfigError(`${name} must be ${expected}`);
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    });
}

function subgraphUrls(v: string | undefined): Partial<Record<ConfigSubgraph, string>> {
  const out: Partial<Record<ConfigSubgraph, string>> = {};
  if (!v) return out;
  const expected = 'name=url pairs such as markets=http://127.0.0.1:4001/graphql,identity=…';
  for (const [k, url] of pairs(v, 'SUBGRAPH_URLS', expected)) {
    if (!(CONFIG_SUBGRAPHS as readonly string[]).includes(k))
      throw new ConfigError(`SUBGRAPH_URLS: ${k} is not a subgraph (${CONFIG_SUBGRAPHS.join(', ')})`);
    if (!/^https?:\/\/\S+$/.test(url)) throw new ConfigError(`SUBGRAPH_URLS: ${k} needs an http(s) URL`);
    out[k as ConfigSubgraph] = url;
  }
  return out;
}

/**
 * `plan=number` pairs (`ROUTER_COST_LIMITS`, `COST_BUDGETS`, `CONCURRENCY_LIMITS`, `SUBSCRIPTION_LIMITS`,
 * `SUBSCRIPTION_ID_LIMITS`): integers from 1 to `max`.
 */
function perPlan(
  v: string | undefined,
  name: string,
  example: string,
  max: number,
): Partial<Record<ConfigPlan, number>> {
  const out: Partial<Record<ConfigPlan, number>> = {};
  if (!v) return out;
  for (const [k, n] of pairs(v, name, `plan=number pairs such as ${example}`)) {
    if (!(CONFIG_PLANS as readonly string[]).includes(k))
      throw new ConfigError(`${name}: ${k} is not a plan (${CONFIG_PLANS.join(', ')})`);
    const x = Number(n);
    if (!Number.isInteger(x) || x < 1 || x > max)
      throw new ConfigError(`${name}: ${k} must be an integer from 1 to ${max}`);
    out[k as ConfigPlan] = x;
  }
  return out;
}

/**
 * `API_RATE_LIMITS`: `bucket=number` pairs such as `sign-in=10,public=600` (any subset of the buckets of
 * `src/access/api-limits.ts`; integers 1–1,000,000).
 */
export function parseApiLimits(v: string | undefined): Partial<Record<ConfigApiBucket, number>> {
  const out: Partial<Record<ConfigApiBucket, number>> = {};
  for (const pair of (v ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const [k = '', n = '', extra] = pair.split('=').map((s) => s.trim());
    if (extra !== undefined || !(CONFIG_API_BUCKETS as readonly string[]).includes(k))
      throw new ConfigError(
        `API_RATE_LIMITS: ${JSON.stringify(pair.trim())} is not bucket=number with a bucket of ${CONFIG_API_BUCKETS.join(', ')}`,
      );
    const x = Number(n);
    if (!/^\d+$/.test(n) || x < 1 || x > 1_000_000)
      throw new ConfigError(`API_RATE_LIMITS: ${k} must be an integer from 1 to 1000000`);
    out[k as ConfigApiBucket] = x;
  }
  return out;
}

function signInDomain(v: string | undefined): string | undefined {
  if (v === undefined || v === '') return undefined;
  if (!/^[a-z0-9.-]+(:\d{1,5})?$/i.test(v))
    throw new ConfigError(
      'SIGN_IN_DOMAIN must be a host name with an optional port, such as api.coinwallet.app',
    );
  return v.toLowerCase();
}

function safelistMode(v: string | undefined): 'allow' | 'safelist' {
  if (v === undefined || v === '') return 'allow';
  if (v !== 'allow' && v !== 'safelist')
    throw new ConfigError('PERSISTED_OPERATIONS_MODE must be allow or safelist');
  return v;
}

function int(env: NodeJS.ProcessEnv, name: string, def: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

function basePath(v: string | undefined): string {
  if (v === undefined || v === '') return '/v1/agg';
  if (!/^(\/[a-z0-9._-]+)+$/i.test(v))
    throw new ConfigError('PRICE_BASE_PATH must be a path such as /v1/agg (no trailing slash)');
  return v;
}

function redisUrl(v: string | undefined): string | undefined {
  if (!v) return undefined;
  if (!/^rediss?:\/\//.test(v)) throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
  return v;
}

/** The shortest `ADMIN_TOKEN` / `API_KEY_PEPPER` accepted: a shorter one could be guessed. */
const MIN_SECRET_LENGTH = 16;

/** A server-side secret: unset, or at least {@link MIN_SECRET_LENGTH} characters (`why` says what it guards). */
function secret(env: NodeJS.ProcessEnv, name: string, why: string): string | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  if (v.length < MIN_SECRET_LENGTH)
    throw new ConfigError(
      `${name} must be at least ${MIN_SECRET_LENGTH} characters (${why}, so it must not be guessable); ` +
        `generate one with: openssl rand -hex 32`,
    );
  return v;
}

function suffix(v: string | undefined): string {
  if (v === undefined || v === '') return DEFAULT_NAME_SUFFIX;
  if (!/^[a-z][a-z0-9-]{0,30}[a-z0-9]$/.test(v))
    throw new ConfigError('NAME_SUFFIX must be a lowercase label such as coin');
  return v;
}

function logFormatOf(v: string | undefined): 'json' | 'pretty' | undefined {
  if (v === undefined || v === '') return undefined;
  if (v === 'json' || v === 'pretty') return v;
  throw new ConfigError('LOG_FORMAT must be json or pretty');
}

function bool(env: NodeJS.ProcessEnv, name: string, def: boolean): boolean {
  const v = env[name];
  if (v === undefined || v === '') return def;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new ConfigError(`${name} must be true or false`);
}

function routerPlanner(v: string | undefined): 'rust' | 'js' {
  if (v === undefined || v === '' || v === 'rust') return 'rust';
  if (v === 'js') return 'js';
  throw new ConfigError('ROUTER_PLANNER must be rust or js');
}

function network(env: NodeJS.ProcessEnv, name: string, def: 'mainnet' | 'testnet'): 'mainnet' | 'testnet' {
  const v = env[name];
  if (v === undefined || v === '') return def;
  if (v !== 'mainnet' && v !== 'testnet') throw new ConfigError(`${name} must be mainnet or testnet`);
  return v;
}

/** `scheme://host[:port]` exactly as a browser reports an origin (lowercase host, no default port, no path). */
function origin(v: string, name: string): string {
  let u: URL | undefined;
  try {
    u = new URL(v);
  } catch {
    u = undefined;
  }
  if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:') || u.origin !== v)
    throw new ConfigError(`${name}: ${v} is not an origin such as https://wallet.example.com (no path)`);
  return v;
}

/** `WALLET_HOST_ORIGINS`. */
export function walletHostOrigins(v: string | undefined): string[] {
  if (v === undefined || v.trim() === '') return [...DEFAULT_WALLET_HOST_ORIGINS];
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => origin(s, 'WALLET_HOST_ORIGINS'));
}

/** `IDENTITY_ORIGIN`; undefined → the platform's own origin. */
export function identityOrigin(v: string | undefined): string | undefined {
  if (v === undefined || v === '') return undefined;
  return origin(v, 'IDENTITY_ORIGIN');
}
