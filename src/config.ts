import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

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
  /** `DEMO`: `auto` (default: load the demo dataset into an empty store when no sources are configured) or `off`. */
  demo: 'auto' | 'off';
  /** `DEMO_SEED`, default 20261121. */
  demoSeed: number;
  /** `DEMO_DAYS`, default 420: days of generated history. */
  demoDays: number;
  /** `LOG_LEVEL`: `info` (default), `warn`, `error` or `silent`. */
  logLevel: 'info' | 'warn' | 'error' | 'silent';
  /** `PRICE_BASE_PATH`, default `/v1/agg`: where the price API is mounted. */
  priceBasePath: string;
  /** `REDIS_URL`: `redis://…` → rate-limit budgets and key revocations shared by every process through Redis. */
  redisUrl: string | undefined;
  /** `TRUSTED_PROXIES`: comma-separated addresses/CIDRs whose `X-Forwarded-For` is believed; default none. */
  trustedProxies: string[];
  /** `API_KEY_PEPPER`: server-side secret mixed into key hashes; embedded mode generates one under DATA_DIR. */
  apiKeyPepper: string | undefined;
  /** `ADMIN_TOKEN`: bearer token for operator endpoints; embedded mode generates one under DATA_DIR. */
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
}

export class ConfigError extends Error {}

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
    demo,
    demoSeed: int(env, 'DEMO_SEED', 20261121, 0, 2 ** 31 - 1),
    demoDays: int(env, 'DEMO_DAYS', 420, 3, 3650),
    logLevel: level as AppConfig['logLevel'],
    priceBasePath: basePath(env.PRICE_BASE_PATH),
    redisUrl: redisUrl(env.REDIS_URL),
    trustedProxies: (env.TRUSTED_PROXIES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    apiKeyPepper: secret(env, 'API_KEY_PEPPER'),
    adminToken: secret(env, 'ADMIN_TOKEN'),
    nameSuffix: suffix(env.NAME_SUFFIX),
    nameNetwork: network(env, 'NAME_NETWORK', 'mainnet'),
    bridgeNetwork: network(env, 'BRIDGE_NETWORK', 'testnet'),
    bridgeConfigDir: resolve(PROJECT_ROOT, env.BRIDGE_CONFIG_DIR || 'config/bridge'),
    bridgeAttestationKey: env.BRIDGE_ATTESTATION_KEY || undefined,
    bridgeStaleAfterMs: int(env, 'BRIDGE_STALE_AFTER_MS', 3_600_000, 1_000, 365 * 86_400_000),
  };
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

function secret(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  if (v.length < 16) throw new ConfigError(`${name} must be at least 16 characters`);
  return v;
}

function suffix(v: string | undefined): string {
  if (v === undefined || v === '') return 'coin';
  if (!/^[a-z][a-z0-9-]{0,30}[a-z0-9]$/.test(v))
    throw new ConfigError('NAME_SUFFIX must be a lowercase label such as coin');
  return v;
}

function network(env: NodeJS.ProcessEnv, name: string, def: 'mainnet' | 'testnet'): 'mainnet' | 'testnet' {
  const v = env[name];
  if (v === undefined || v === '') return def;
  if (v !== 'mainnet' && v !== 'testnet') throw new ConfigError(`${name} must be mainnet or testnet`);
  return v;
}
