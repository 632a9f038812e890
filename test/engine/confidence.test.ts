import { describe, expect, it } from 'vitest';
import type { ConfidenceInput } from '../../src/engine/confidence.ts';
import { confidenceScore } from '../../src/engine/confidence.ts';

const base: ConfidenceInput = {
  venues: 5,
  dispersion: 0.001,
  volumeShares: [0.2, 0.2, 0.2, 0.2, 0.2],
  meanAgeFraction: 0.1,
};
const score = (patch: Partial<ConfidenceInput>): number => confidenceScore({ ...base, ...patch });

describe('confidenceScore', () => {
  it('computes the documented product of factors, rounded to 3 decimals', () => {
    // 1 venue: 0.5 × (1 - 0.25 × 1) = 0.375
    expect(confidenceScore({ venues: 1, dispersion: 0, volumeShares: [1], meanAgeFraction: 0 })).toBe(0.375);
    // 0.75 × (1 - 0.25 × 0.5) × 1/(1 + 1) × (1 - 0.5) = 0.1640625
    expect(
      confidenceScore({ venues: 2, dispersion: 0.02, volumeShares: [0.5, 0.5], meanAgeFraction: 1 }),
    ).toBe(0.164);
    const s = score({});
    expect(Math.round(s * 1000) / 1000).toBe(s);
  });

  it('keeps a single venue at or below 0.5 whatever the other inputs', () => {
    const many = Array.from({ length: 100 }, () => 0.01);
    expect(
      confidenceScore({ venues: 1, dispersion: 0, volumeShares: many, meanAgeFraction: 0 }),
    ).toBeLessThanOrEqual(0.5);
    expect(score({ venues: 1 })).toBeLessThan(0.5);
  });

  it('rises with the number of venues and saturates below 1', () => {
    const values = [1, 2, 3, 5, 10, 30].map((venues) => score({ venues }));
    for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThanOrEqual(values[i - 1]!);
    expect(values[1]!).toBeGreaterThan(values[0]!);
    expect(values.at(-1)!).toBeLessThanOrEqual(1);
    expect(score({ venues: 0 })).toBe(0);
  });

  it('falls as dispersion grows', () => {
    const values = [0, 0.001, 0.01, 0.05, 0.5].map((dispersion) => score({ dispersion }));
    for (let i = 1; i < values.length; i++) expect(values[i]!).toBeLessThan(values[i - 1]!);
    expect(score({ dispersion: NaN })).toBe(0);
  });

  it('falls as volume concentrates on one ticker (Herfindahl index)', () => {
    const spread = score({ volumeShares: [0.2, 0.2, 0.2, 0.2, 0.2] });
    const skewed = score({ volumeShares: [0.6, 0.1, 0.1, 0.1, 0.1] });
    const single = score({ volumeShares: [1, 0, 0, 0, 0] });
    expect(skewed).toBeLessThan(spread);
    expect(single).toBeLessThan(skewed);
    // Shares that do not sum to 1 are normalised.
    expect(score({ volumeShares: [2, 2, 2, 2, 2] })).toBe(spread);
    expect(score({ volumeShares: [] })).toBe(single);
  });

  it('falls as the used tickers get staler, with the age fraction clamped to [0, 1]', () => {
    const values = [0, 0.25, 0.5, 1].map((meanAgeFraction) => score({ meanAgeFraction }));
    for (let i = 1; i < values.length; i++) expect(values[i]!).toBeLessThan(values[i - 1]!);
    expect(score({ meanAgeFraction: 5 })).toBe(values[3]);
    expect(score({ meanAgeFraction: -1 })).toBe(values[0]);
  });

  it('stays within [0, 1]', () => {
    for (const venues of [0, 1, 50])
      for (const dispersion of [0, 1, 100])
        for (const meanAgeFraction of [0, 1]) {
          const s = score({ venues, dispersion, meanAgeFraction });
          expect(s).toBeGreaterThanOrEqual(0);
          expect(s).toBeLessThanOrEqual(1);
        }
  });
});
