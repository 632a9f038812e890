/**
 * Confidence of an aggregate price: a score in [0, 1] that says how much independent, agreeing, fresh evidence
 * the price rests on. The formula is documented in docs/methodology.md ("Confidence").
 */

/** Inputs of {@link confidenceScore}, all describing the tickers the price was computed from. */
export interface ConfidenceInput {
  /** Distinct venues among the used tickers. */
  venues: number;
  /** Dispersion of the used USD prices: MAD / median (0 for a single ticker). */
  dispersion: number;
  /** Each used ticker's share of the used base volume; sums to 1 (normalised here when it does not). */
  volumeShares: ArrayLike<number>;
  /** Mean over used tickers of `age / maxAge`, in [0, 1] (clamped here). */
  meanAgeFraction: number;
}

/** Dispersion (MAD / median) at which the dispersion factor is 0.5: prices that spread 2 % halve the score. */
export const DISPERSION_HALF = 0.02;

/**
 * Confidence score in [0, 1], rounded to 3 decimals: the product of four factors, each in [0, 1] and monotone in
 * its input.
 *
 * - venues `v`: `1 - 0.5^v` — 1 venue 0.5, 2 venues 0.75, 3 venues 0.875, saturating towards 1; 0 venues 0.
 * - concentration, Herfindahl index `H = Σ share²` (1 when one ticker has all the volume, 1/n when n tickers
 *   share it equally): `1 - 0.25 × H` — from 1 (spread volume) down to 0.75 (all volume on one ticker).
 * - dispersion `d`: `1 / (1 + d / 0.02)` — agreeing prices 1, 2 % spread 0.5, 10 % spread ≈ 0.17; a non-finite
 *   dispersion gives 0.
 * - staleness `a` (mean age as a fraction of the maximum age): `1 - 0.5 × a` — fresh 1, all at the age limit 0.5.
 *
 * So one venue never scores above 0.5, and a single ticker on a single venue at most 0.375.
 */
export function confidenceScore(input: ConfidenceInput): number {
  const venues = Number.isFinite(input.venues) ? Math.max(0, Math.floor(input.venues)) : 0;
  const venueFactor = 1 - Math.pow(0.5, venues);

  const shares = input.volumeShares;
  let sum = 0;
  let sumSq = 0;
  for (let i = 0; i < shares.length; i++) {
    const s = shares[i]!;
    if (s > 0) {
      sum += s;
      sumSq += s * s;
    }
  }
  // No usable shares: treat the volume as fully concentrated (the least favourable case).
  const herfindahl = sum > 0 ? Math.min(1, sumSq / (sum * sum)) : 1;
  const concentrationFactor = 1 - 0.25 * herfindahl;

  const d = input.dispersion;
  const dispersionFactor = Number.isFinite(d) ? 1 / (1 + Math.max(0, d) / DISPERSION_HALF) : 0;

  const a = input.meanAgeFraction;
  const age = Number.isNaN(a) ? 1 : Math.min(1, Math.max(0, a));
  const freshnessFactor = 1 - 0.5 * age;

  const score = venueFactor * concentrationFactor * dispersionFactor * freshnessFactor;
  return Math.round(score * 1000) / 1000;
}
