/**
 * Proof-of-work network figures of a coin (the graph's `Coin.mining`), as one source observed them at one time, and
 * the network hashrate they imply. A figure the source does not know is null, never a guess.
 */

/** One observation of a coin's network figures (a row of `mining_figures`). */
export interface MiningFigures {
  /** Coin id (catalog). */
  asset: string;
  /** Lowercase proof-of-work algorithm the figures are for, e.g. `scrypt`. */
  algorithm: string;
  /** Network difficulty (Bitcoin's convention: difficulty 1 ≈ 2^32 hashes per block); null when unknown. */
  difficulty: number | null;
  /** Coins paid per block (subsidy, without fees); null when unknown. */
  blockReward: number | null;
  /** Target seconds between blocks (of this algorithm, for multi-algorithm chains); null when unknown. */
  blockTimeSeconds: number | null;
  /** Where the figures come from: `demo` (the seeded demo generator), a node, an explorer. */
  source: string;
  /** When they were observed, UNIX ms. */
  observedAt: number;
}

/**
 * Expected hashes per block at difficulty 1, for the algorithms whose difficulty follows Bitcoin's convention
 * (difficulty 1 = target 0xffff·2^208): 2^256 / (0xffff·2^208) = 2^48 / 65535 ≈ 2^32 (the usual rounding, 0.0015 %
 * low). Litecoin-family chains (scrypt) and SHA-256 chains count difficulty this way; other algorithms
 * (Ethash, RandomX, Equihash, …) do not, and get no hashrate from this formula.
 */
export const HASHES_PER_DIFFICULTY: Readonly<Record<string, number>> = {
  scrypt: 2 ** 32,
  'sha-256': 2 ** 32,
};

/**
 * Estimated network hashrate, hashes per second: `difficulty × 2^32 / blockTimeSeconds` (expected hashes per block
 * over seconds per block). Null when either figure is unknown or the algorithm does not count difficulty in 2^32
 * hashes.
 */
export function networkHashrate(
  f: Pick<MiningFigures, 'algorithm' | 'difficulty' | 'blockTimeSeconds'>,
): number | null {
  const perDifficulty = HASHES_PER_DIFFICULTY[f.algorithm.toLowerCase()];
  if (perDifficulty === undefined || f.difficulty === null || f.blockTimeSeconds === null) return null;
  if (!(f.difficulty > 0) || !(f.blockTimeSeconds > 0)) return null;
  return (f.difficulty * perDifficulty) / f.blockTimeSeconds;
}
