/**
 * How proof-of-work algorithms count difficulty: reference data beside the catalog's `hashingAlgorithm`, shared by
 * the market's hashrate (`src/market/mining.ts`) and the demo's mining figures (`src/demo/mining.ts`).
 */

/**
 * Expected hashes per block at difficulty 1, for the algorithms whose difficulty follows Bitcoin's convention
 * (difficulty 1 = target 0xffff·2^208): 2^256 / (0xffff·2^208) = 2^48 / 65535 ≈ 2^32 (the usual rounding, 0.0015 %
 * low). Litecoin-family chains (scrypt) and SHA-256 chains count difficulty this way; other algorithms
 * (Ethash, RandomX, Equihash, …) do not, and get no hashrate from this formula. Keys are lowercase.
 */
export const HASHES_PER_DIFFICULTY: Readonly<Record<string, number>> = {
  scrypt: 2 ** 32,
  'sha-256': 2 ** 32,
};
