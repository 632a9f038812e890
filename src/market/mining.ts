/**
 * Proof-of-work network figures of a coin (the graph's `Coin.mining`), as one source observed them at one time, and
 * the network hashrate they imply. A figure the source does not know is null, never a guess.
 */
import { HASHES_PER_DIFFICULTY } from '../catalog/hashing.ts';
import type { MiningRecord } from '../ingest/types.ts';

/** One observation of a coin's network figures (a row of `mining_figures`): the ingest record. */
export type MiningFigures = MiningRecord;

/**
 * Network hashrate, hashes per second: what the source reports (a node's `getnetworkhashps`: the work of the last
 * blocks over their time) when it does; otherwise estimated as `difficulty × 2^32 / blockTimeSeconds` (expected
 * hashes per block over seconds per block). Null when neither is possible: a figure is unknown or the algorithm
 * does not count difficulty in 2^32 hashes.
 */
export function networkHashrate(
  f: Pick<MiningFigures, 'algorithm' | 'difficulty' | 'blockTimeSeconds' | 'networkHashps'>,
): number | null {
  if (f.networkHashps !== null && f.networkHashps >= 0) return f.networkHashps;
  const perDifficulty = HASHES_PER_DIFFICULTY[f.algorithm.toLowerCase()];
  if (perDifficulty === undefined || f.difficulty === null || f.blockTimeSeconds === null) return null;
  if (!(f.difficulty > 0) || !(f.blockTimeSeconds > 0)) return null;
  return (f.difficulty * perDifficulty) / f.blockTimeSeconds;
}

/** Chain figures older than this are served with `stale: true` (the source stopped answering); default 2 hours. */
export const MINING_STALE_AFTER_MS = 2 * 3_600_000;
/** Chain figures older than this are not served at all (`Coin.mining` is null); default 1 day. */
export const MINING_MAX_AGE_MS = 86_400_000;

/**
 * How an observation ages at `now`: `fresh`, `stale` (older than `staleAfterMs`: served and flagged) or `expired`
 * (older than `maxAgeMs`: not served, never a guess).
 */
export function miningAge(
  f: Pick<MiningFigures, 'observedAt'>,
  now: number,
  rules: { staleAfterMs?: number | undefined; maxAgeMs?: number | undefined } = {},
): 'fresh' | 'stale' | 'expired' {
  const age = now - f.observedAt;
  if (age > (rules.maxAgeMs ?? MINING_MAX_AGE_MS)) return 'expired';
  return age > (rules.staleAfterMs ?? MINING_STALE_AFTER_MS) ? 'stale' : 'fresh';
}
