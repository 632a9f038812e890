/**
 * Demo proof-of-work network figures for the mined kit coins (the graph's `Coin.mining`, source `demo`): difficulty,
 * block reward and block time, generated from the seed like the rest of the demo data. **Not real network data.**
 *
 * Every value is a pure function of `(seed, coin, t)`, so the figures of any instant can be computed directly:
 *
 * - **algorithm**: the catalog's (`Scrypt` → `scrypt`). A multi-algorithm chain (DigiByte) gets the figures of its
 *   scrypt algorithm, which mines one block in five: its block time is the chain's × 5.
 * - **block time**: the catalog's target when it has one; otherwise a seeded pick of 60, 90, 120 or 150 s.
 * - **block reward**: the real schedule where it is known (Litecoin: 50 LTC halving every 840,000 blocks, heights
 *   estimated from the genesis date at the target spacing; Dogecoin: a flat 10,000 DOGE); otherwise constant and
 *   consistent with the demo supply: the asset's yearly emission (`asset-table.ts`) over its blocks per year.
 * - **network hashrate** `H(t) = H₀ · exp(g·(t − A)/year + N(t) − N(A))`: `H₀` prices the network at
 *   {@link DEMO_REVENUE_PER_HASH_DAY} USD per H/s per day at the anchor A (daily emission × anchor price / (that ×
 *   a seeded factor 0.5–2)), `g` a seeded trend of −20 … +60 % a year, `N` a 6-octave noise (2 to 180 days, daily σ
 *   3 %). The stored **difficulty** is `H(t) · blockTime / 2^32` (8 significant digits), so the graph's
 *   `networkHashrate = difficulty × 2^32 / blockTime` gives `H(t)` back.
 *
 * `ensureDemoMining` stores the observation of the current hour for every mined kit coin (idempotent: the same hour
 * twice writes nothing). See docs/demo-data.md, "Mining figures".
 */
import type { AssetInfo } from '../catalog/types.ts';
import { HASHES_PER_DIFFICULTY } from '../catalog/hashing.ts';
import type { MiningRecord } from '../ingest/types.ts';
import type { Queryable } from '../store/db.ts';
import { saveMiningFigures } from '../store/mining.ts';
import { assetParams } from './params.ts';
import { ANCHOR_MS } from './paths.ts';
import { between, brownianOctaves, fractalNoise, keyOf, logBetween, sig, unit } from './random.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const YEAR = 365.25 * DAY;
const YEAR_SECONDS = YEAR / 1000;

/** The `source` of every demo observation. */
export const DEMO_MINING_SOURCE = 'demo';

/** What a demo network pays its miners at the anchor, USD per H/s per day, before the seeded factor (0.5–2). */
export const DEMO_REVENUE_PER_HASH_DAY = 2e-10;

/** Block times drawn for coins whose target the catalog does not know, seconds. */
export const DEMO_BLOCK_TIMES: readonly number[] = [60, 90, 120, 150];

/** A block reward schedule. */
export type RewardSchedule =
  | { kind: 'fixed'; reward: number }
  /** `initial` coins at height 0, halved every `interval` blocks (integer base units, as the chains shift them). */
  | { kind: 'halving'; initial: number; interval: number };

/** Schedules known from the chains themselves (everything else is derived from the demo emission). */
const KNOWN_REWARDS: Readonly<Record<string, RewardSchedule>> = {
  litecoin: { kind: 'halving', initial: 50, interval: 840_000 },
  dogecoin: { kind: 'fixed', reward: 10_000 },
};

/** Multi-algorithm chains: the algorithm the figures are for, and how many algorithms share the blocks. */
const MULTI_ALGO: Readonly<Record<string, { algorithm: string; algorithms: number }>> = {
  digibyte: { algorithm: 'scrypt', algorithms: 5 },
};

const HASHRATE_OCTAVES = brownianOctaves(2 * DAY, 180 * DAY, 6, 0.03);

/** The generator's parameters for one mined coin. */
export interface DemoMiningParams {
  id: string;
  algorithm: string;
  blockTimeSeconds: number;
  reward: RewardSchedule;
  /** Genesis time (UNIX ms) for block heights; null when the catalog has no genesis date. */
  genesis: number | null;
  /** Network hashrate at the anchor, H/s. */
  hashrate0: number;
  /** Log-hashrate trend per year. */
  growth: number;
  /** Key of the hashrate noise. */
  key: number;
}

/** The proof-of-work algorithm the demo figures of `asset` are for; null when it is not a mined kit coin here. */
function algorithmOf(asset: AssetInfo): string | null {
  if (asset.kitTicker === undefined || asset.hashingAlgorithm === null) return null;
  const algorithm = MULTI_ALGO[asset.id]?.algorithm ?? asset.hashingAlgorithm.toLowerCase();
  // Only algorithms whose difficulty counts 2^32 hashes: the hashrate ↔ difficulty relation above holds for them.
  return algorithm in HASHES_PER_DIFFICULTY ? algorithm : null;
}

/** The mined kit coins among `assets` (those the demo generates figures for). */
export function demoMiningCoins(assets: readonly AssetInfo[]): AssetInfo[] {
  return assets.filter((a) => algorithmOf(a) !== null);
}

/** Block height at `t` estimated at the target spacing since genesis (0 before genesis or without one). */
function heightAt(p: DemoMiningParams, t: number): number {
  if (p.genesis === null || t <= p.genesis) return 0;
  return Math.floor((t - p.genesis) / (p.blockTimeSeconds * 1000));
}

/** Coins per block at `t`. */
export function rewardAt(p: DemoMiningParams, t: number): number {
  const s = p.reward;
  if (s.kind === 'fixed') return s.reward;
  const halvings = Math.floor(heightAt(p, t) / s.interval);
  // As the chains do it: base units (1e-8) shifted right, so 50 → 25 → 12.5 → 6.25 → 3.125 → 1.5625 → 0.78125 …
  return halvings >= 64 ? 0 : Math.floor((s.initial * 1e8) / 2 ** halvings) / 1e8;
}

/** The generator's parameters for `asset`; null when it is not a mined kit coin. */
export function demoMiningParams(seed: number, asset: AssetInfo): DemoMiningParams | null {
  const algorithm = algorithmOf(asset);
  if (algorithm === null) return null;
  const k = keyOf(seed, 'mining', asset.id);
  const multi = MULTI_ALGO[asset.id];
  const chainSeconds =
    asset.blockTimeMinutes !== null
      ? asset.blockTimeMinutes * 60
      : (DEMO_BLOCK_TIMES[Math.floor(unit(keyOf(k, 1)) * DEMO_BLOCK_TIMES.length)] as number);
  const blockTimeSeconds = chainSeconds * (multi?.algorithms ?? 1);
  const asset0 = assetParams(seed, asset);
  // Reward consistent with the demo supply: yearly emission over the chain's blocks per year (all algorithms).
  const reward: RewardSchedule = KNOWN_REWARDS[asset.id] ?? {
    kind: 'fixed',
    reward: sig(Math.max(0, asset0.emission) / (YEAR_SECONDS / chainSeconds), 4),
  };
  const genesis = asset.genesisDate === null ? null : Date.parse(`${asset.genesisDate}T00:00:00Z`);
  const p: DemoMiningParams = {
    id: asset.id,
    algorithm,
    blockTimeSeconds,
    reward,
    genesis,
    hashrate0: 0,
    growth: between(keyOf(k, 2), -0.2, 0.6),
    key: keyOf(k, 3),
  };
  // This algorithm's share of the daily emission, priced at the anchor, bought at the demo revenue density.
  const dailyUsd = rewardAt(p, ANCHOR_MS) * (86_400 / blockTimeSeconds) * asset0.price;
  const factor = logBetween(keyOf(k, 4), 0.5, 2);
  p.hashrate0 = Math.max(1e6, dailyUsd / (DEMO_REVENUE_PER_HASH_DAY * factor));
  return p;
}

/** Network hashrate of the demo network at `t`, H/s. */
export function demoHashrateAt(p: DemoMiningParams, t: number): number {
  const n = fractalNoise(p.key, HASHRATE_OCTAVES, t) - fractalNoise(p.key, HASHRATE_OCTAVES, ANCHOR_MS);
  return p.hashrate0 * Math.exp((p.growth * (t - ANCHOR_MS)) / YEAR + n);
}

/** The demo observation of a coin's figures at `t` (whole ms). */
export function demoMiningAt(p: DemoMiningParams, t: number): MiningRecord {
  const perDifficulty = HASHES_PER_DIFFICULTY[p.algorithm] as number;
  return {
    asset: p.id,
    algorithm: p.algorithm,
    difficulty: sig((demoHashrateAt(p, t) * p.blockTimeSeconds) / perDifficulty, 8),
    blockReward: rewardAt(p, t),
    blockTimeSeconds: p.blockTimeSeconds,
    // The demo has no chain: no tip, and the hashrate is the one the difficulty implies.
    height: null,
    networkHashps: null,
    tipTime: null,
    source: DEMO_MINING_SOURCE,
    observedAt: t,
  };
}

/** The demo observations of every mined kit coin among `assets` at `t`. */
export function demoMiningFigures(seed: number, assets: readonly AssetInfo[], t: number): MiningRecord[] {
  const out: MiningRecord[] = [];
  for (const a of assets) {
    const p = demoMiningParams(seed, a);
    if (p) out.push(demoMiningAt(p, t));
  }
  return out;
}

/**
 * Stores the demo observations of the hour containing `now` (start of the hour) for the mined kit coins. Idempotent:
 * an hour already stored is left as it is. Returns the rows added (0 on a repeat).
 */
export async function ensureDemoMining(
  db: Queryable,
  opts: { seed: number; assets: readonly AssetInfo[]; now: number },
): Promise<number> {
  const t = Math.floor(opts.now / HOUR) * HOUR;
  return saveMiningFigures(db, demoMiningFigures(opts.seed, opts.assets, t));
}
