/**
 * The market's section: how often sources are polled and how old a figure may be, where live sources are listed,
 * and the demo dataset served when none are.
 */
import { ConfigError } from '../config-error.ts';
import { int } from './read.ts';

/** Seed of the shipped demo dataset (`DEMO_SEED`'s default). */
export const DEFAULT_DEMO_SEED = 20261121;

const DAY_MS = 86_400_000;

export interface MarketSection {
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
}

export function marketSection(env: NodeJS.ProcessEnv): MarketSection {
  const demo = env.DEMO ?? 'auto';
  if (demo !== 'auto' && demo !== 'off') throw new ConfigError('DEMO must be auto or off');
  return {
    tickIntervalMs: int(env, 'TICK_INTERVAL_MS', 60_000, 1_000, DAY_MS),
    sourceTimeoutMs: int(env, 'SOURCE_TIMEOUT_MS', 10_000, 100, 600_000),
    staleAfterMs: int(env, 'STALE_AFTER_MS', 900_000, 1_000, DAY_MS),
    sourcesFile: env.SOURCES_FILE || undefined,
    supplyMaxAgeMs: int(env, 'SUPPLY_MAX_AGE_MS', 7 * DAY_MS, 1_000, 365 * DAY_MS),
    miningStaleAfterMs: int(env, 'MINING_STALE_AFTER_MS', 7_200_000, 1_000, 30 * DAY_MS),
    miningMaxAgeMs: int(env, 'MINING_MAX_AGE_MS', DAY_MS, 1_000, 365 * DAY_MS),
    demo,
    demoSeed: int(env, 'DEMO_SEED', DEFAULT_DEMO_SEED, 0, 2 ** 31 - 1),
    demoDays: int(env, 'DEMO_DAYS', 420, 3, 3650),
  };
}
