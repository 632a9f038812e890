import { describe, expect, it } from 'vitest';
import {
  mad,
  madSorted,
  median,
  medianSorted,
  weightedMedian,
  weightedMedianSorted,
} from '../../src/engine/stats.ts';
import { mulberry32 as rng } from '../../src/demo/random.ts';

function refMedian(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const k = s.length >> 1;
  return s.length % 2 ? s[k]! : (s[k - 1]! + s[k]!) / 2;
}

/** Brute-force lower weighted median: smallest value v with weight(<= v) >= total / 2. */
function refWeightedMedian(values: number[], weights: number[]): number {
  const total = weights.reduce((a, b) => a + b, 0);
  if (total === 0) return refMedian(values);
  const candidates = [...new Set(values)].sort((a, b) => a - b);
  for (const v of candidates) {
    const below = values.reduce((acc, x, i) => (x <= v ? acc + weights[i]! : acc), 0);
    if (2 * below >= total) return v;
  }
  throw new Error('unreachable');
}

describe('median', () => {
  it('returns the middle value for odd counts and the mean of the middle two for even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([5, 5, 5, 5])).toBe(5);
  });

  it('does not modify its input', () => {
    const xs = [5, 3, 9, 1, 7];
    median(xs);
    expect(xs).toEqual([5, 3, 9, 1, 7]);
  });

  it('throws on empty input', () => {
    expect(() => median([])).toThrow(RangeError);
    expect(() => median([1, 2], 0)).toThrow(RangeError);
  });

  it('uses only the first n entries of a buffer', () => {
    const buf = new Float64Array([1, 2, 3, 100, 100, 100]);
    expect(median(buf, 3)).toBe(2);
    expect(() => median(buf, 7)).toThrow(RangeError);
  });

  it('matches a sort-based reference for small and large inputs (insertion sort and quickselect paths)', () => {
    const r = rng(42);
    for (let n = 1; n <= 300; n += n < 40 ? 1 : 37) {
      for (let trial = 0; trial < 5; trial++) {
        // Few distinct values on some trials to exercise duplicates.
        const xs = Array.from({ length: n }, () => (trial % 2 ? Math.floor(r() * 5) : r() * 1000));
        expect(median(xs)).toBe(refMedian(xs));
      }
    }
  });
});

describe('mad', () => {
  it('is the median absolute deviation around the given center', () => {
    // deviations from 2: 1 1 0 0 2 4 7 → median 1
    expect(mad([1, 1, 2, 2, 4, 6, 9], 2)).toBe(1);
    expect(mad([10, 10, 10], 10)).toBe(0);
    expect(mad([1, 2, 3, 4], 0)).toBe(2.5);
  });

  it('throws on empty input and leaves its input alone', () => {
    expect(() => mad([], 0)).toThrow(RangeError);
    const xs = [3, 1, 2];
    mad(xs, 2);
    expect(xs).toEqual([3, 1, 2]);
  });
});

describe('weightedMedian', () => {
  it('uses the lower convention: first value where the cumulative weight reaches half', () => {
    expect(weightedMedian([1, 2], [1, 1])).toBe(1);
    expect(weightedMedian([2, 1], [1, 1])).toBe(1);
    expect(weightedMedian([1, 2, 3, 4], [1, 1, 1, 1])).toBe(2);
    expect(weightedMedian([1, 2, 3], [1, 1, 5])).toBe(3);
    expect(weightedMedian([10, 20, 30], [6, 2, 2])).toBe(10);
  });

  it('never returns a zero-weight value when some weight is positive', () => {
    expect(weightedMedian([1, 2, 3], [0, 0, 1])).toBe(3);
    expect(weightedMedian([1, 2, 3], [1, 0, 1])).toBe(1);
  });

  it('falls back to the plain median when the total weight is zero', () => {
    expect(weightedMedian([1, 2], [0, 0])).toBe(1.5);
    expect(weightedMedian([5, 1, 3], [0, 0, 0])).toBe(3);
  });

  it('rejects empty input, missing weights and negative or NaN weights', () => {
    expect(() => weightedMedian([], [])).toThrow(RangeError);
    expect(() => weightedMedian([1, 2], [1])).toThrow(RangeError);
    expect(() => weightedMedian([1, 2], [1, -1])).toThrow(RangeError);
    expect(() => weightedMedian([1, 2], [1, NaN])).toThrow(RangeError);
  });

  it('matches a brute-force reference, including above the insertion-sort threshold', () => {
    const r = rng(7);
    for (const n of [1, 2, 3, 5, 8, 20, 31, 32, 33, 64, 150]) {
      for (let trial = 0; trial < 10; trial++) {
        const values = Array.from({ length: n }, () => Math.round(r() * 50));
        const weights = Array.from({ length: n }, () => (r() < 0.2 ? 0 : Math.round(r() * 10)));
        const before = [...values];
        expect(weightedMedian(values, weights)).toBe(refWeightedMedian(values, weights));
        expect(values).toEqual(before);
      }
    }
  });

  it('uses only the first n entries', () => {
    const values = new Float64Array([1, 2, 3, 1000]);
    const weights = new Float64Array([1, 1, 5, 1000]);
    expect(weightedMedian(values, weights, 3)).toBe(3);
  });
});

describe('sorted-input variants', () => {
  it('agree with median, mad and weightedMedian on sorted ranges', () => {
    const r = rng(99);
    for (const n of [1, 2, 3, 4, 7, 20, 33, 100]) {
      for (let trial = 0; trial < 20; trial++) {
        const xs = Array.from({ length: n + 4 }, () => Math.round(r() * 40) / 4).sort((a, b) => a - b);
        const ws = Array.from({ length: n + 4 }, () => (r() < 0.3 ? 0 : r() * 3));
        const from = trial % 3;
        const to = from + n;
        const slice = xs.slice(from, to);
        expect(medianSorted(xs, from, to)).toBe(median(slice));
        // Centers inside, at the edges of and outside the range.
        for (const center of [median(slice), slice[0]!, slice.at(-1)!, -5, 50, r() * 10]) {
          expect(madSorted(xs, center, from, to)).toBe(mad(slice, center));
        }
        expect(weightedMedianSorted(xs, ws, from, to)).toBe(weightedMedian(slice, ws.slice(from, to)));
      }
    }
  });

  it('default to the whole array and reject empty or out-of-bounds ranges', () => {
    expect(medianSorted([1, 2, 3, 10])).toBe(2.5);
    expect(madSorted([1, 2, 3, 10], 2.5)).toBe(1);
    expect(weightedMedianSorted([1, 2, 3], [0, 0, 0])).toBe(2);
    expect(() => medianSorted([])).toThrow(RangeError);
    expect(() => madSorted([1, 2], 1, 1, 1)).toThrow(RangeError);
    expect(() => weightedMedianSorted([1, 2], [1], 0, 2)).toThrow(RangeError);
  });
});
