/**
 * Robust statistics for the price engine: median, weighted median, median absolute deviation.
 *
 * These run for every asset on every tick (10,000+ times), so they work in module-level scratch buffers instead
 * of allocating, and never reorder their inputs. Inputs are assumed NaN-free. Every function accepts a plain array
 * or a typed array plus an optional `n` or range (use only those entries), so callers can reuse buffers. The
 * `…Sorted` variants read ascending input in O(1) / O(n): the price engine sorts each asset's prices once.
 */

/** Up to this length an insertion sort beats the native sort (call overhead dominates). */
const SMALL = 32;

let values = new Float64Array(256);
let order = new Int32Array(256);

function valueScratch(n: number): Float64Array {
  if (values.length < n) values = new Float64Array(Math.max(n, values.length * 2));
  return values;
}

function orderScratch(n: number): Int32Array {
  if (order.length < n) order = new Int32Array(Math.max(n, order.length * 2));
  return order;
}

function checkLength(xs: ArrayLike<number>, n: number, fn: string): void {
  if (!(n > 0)) throw new RangeError(`${fn}: needs at least one value`);
  if (n > xs.length) throw new RangeError(`${fn}: n (${n}) exceeds the input length (${xs.length})`);
}

/** Sorts a[0..n-1] ascending in place: insertion sort for short runs, the native numeric typed-array sort above. */
function sortPrefix(a: Float64Array, n: number): void {
  if (n > SMALL) {
    a.subarray(0, n).sort();
    return;
  }
  for (let i = 1; i < n; i++) {
    const x = a[i]!;
    let j = i - 1;
    for (; j >= 0 && a[j]! > x; j--) a[j + 1] = a[j]!;
    a[j + 1] = x;
  }
}

/**
 * Median of the first `n` values (the mean of the two middle values for an even count). Does not modify `xs`.
 *
 * @param xs values, NaN-free
 * @param n how many leading entries to use; default `xs.length`
 * @throws RangeError when there are no values
 */
export function median(xs: ArrayLike<number>, n: number = xs.length): number {
  checkLength(xs, n, 'median');
  const a = valueScratch(n);
  for (let i = 0; i < n; i++) a[i] = xs[i]!;
  sortPrefix(a, n);
  return medianSorted(a, 0, n);
}

/**
 * Median absolute deviation of the first `n` values around `center`: `median(|x - center|)` (unscaled, no 1.4826
 * factor). Does not modify `xs`.
 *
 * @param center usually `median(xs)`
 * @param n how many leading entries to use; default `xs.length`
 * @throws RangeError when there are no values
 */
export function mad(xs: ArrayLike<number>, center: number, n: number = xs.length): number {
  checkLength(xs, n, 'mad');
  const a = valueScratch(n);
  for (let i = 0; i < n; i++) a[i] = Math.abs(xs[i]! - center);
  sortPrefix(a, n);
  return medianSorted(a, 0, n);
}

/**
 * Lower weighted median of the first `n` values: sort by value and return the first value at which the cumulative
 * weight reaches half of the total weight (`2 × cumulative >= total`). With equal weights and an even count this is
 * the lower of the two middle values. When the total weight is 0 the plain {@link median} is returned (equal
 * weights, the two middle values averaged). Zero-weight values are never returned unless all weights are 0.
 *
 * @param values NaN-free values
 * @param weights non-negative weights, one per value
 * @param n how many leading entries to use; default `values.length`
 * @throws RangeError when there are no values, fewer weights than values, or a negative/NaN weight
 */
export function weightedMedian(
  values: ArrayLike<number>,
  weights: ArrayLike<number>,
  n: number = values.length,
): number {
  checkLength(values, n, 'weightedMedian');
  if (weights.length < n) throw new RangeError('weightedMedian: needs one weight per value');
  const idx = orderScratch(n);
  for (let i = 0; i < n; i++) {
    if (!(weights[i]! >= 0))
      throw new RangeError(`weightedMedian: weight ${i} is ${weights[i]}, expected >= 0`);
    idx[i] = i;
  }
  if (n <= SMALL) {
    for (let i = 1; i < n; i++) {
      const id = idx[i]!;
      const x = values[id]!;
      let j = i - 1;
      while (j >= 0 && values[idx[j]!]! > x) {
        idx[j + 1] = idx[j]!;
        j--;
      }
      idx[j + 1] = id;
    }
  } else {
    idx.subarray(0, n).sort((a, b) => values[a]! - values[b]!);
  }
  // Sum in sorted order so the half-way comparison below sees the same rounding as the running sum.
  let total = 0;
  for (let i = 0; i < n; i++) total += weights[idx[i]!]!;
  if (!(total > 0)) return median(values, n);
  let cum = 0;
  for (let i = 0; i < n; i++) {
    const id = idx[i]!;
    cum += weights[id]!;
    if (2 * cum >= total) return values[id]!;
  }
  return values[idx[n - 1]!]!;
}

// Sorted-input variants: the price engine sorts each asset's prices once and reads every statistic from that order.

function checkRange(from: number, to: number, length: number, fn: string): void {
  if (!(to > from)) throw new RangeError(`${fn}: needs at least one value`);
  if (from < 0 || to > length)
    throw new RangeError(`${fn}: range ${from}..${to} outside the input (${length})`);
}

/**
 * {@link median} of `sorted[from .. to - 1]`, which must be in ascending order. O(1).
 *
 * @param from first index; default 0
 * @param to index after the last; default `sorted.length`
 */
export function medianSorted(sorted: ArrayLike<number>, from = 0, to: number = sorted.length): number {
  checkRange(from, to, sorted.length, 'medianSorted');
  const n = to - from;
  const k = from + (n >>> 1);
  return n % 2 === 1 ? sorted[k]! : (sorted[k - 1]! + sorted[k]!) / 2;
}

/**
 * {@link mad} of `sorted[from .. to - 1]` (ascending) around `center`, in O(n) without sorting: the deviations of
 * the values below `center` grow leftwards and those of the values above grow rightwards, so merging the two runs
 * outwards from `center` yields the deviations in order.
 *
 * @param from first index; default 0
 * @param to index after the last; default `sorted.length`
 */
export function madSorted(
  sorted: ArrayLike<number>,
  center: number,
  from = 0,
  to: number = sorted.length,
): number {
  checkRange(from, to, sorted.length, 'madSorted');
  const n = to - from;
  let right = from;
  while (right < to && sorted[right]! < center) right++;
  let left = right - 1;
  let prev = NaN;
  let cur = NaN;
  for (let i = 0; i <= n >>> 1; i++) {
    prev = cur;
    const dl = left >= from ? center - sorted[left]! : Infinity;
    const dr = right < to ? sorted[right]! - center : Infinity;
    if (dl <= dr) {
      cur = dl;
      left--;
    } else {
      cur = dr;
      right++;
    }
  }
  return n % 2 === 1 ? cur : (prev + cur) / 2;
}

/**
 * {@link weightedMedian} (lower convention; total weight 0 → {@link medianSorted}) of `sorted[from .. to - 1]`
 * (ascending) with `weights[from .. to - 1]`. O(n). Weights are assumed non-negative (not checked).
 *
 * @param from first index; default 0
 * @param to index after the last; default `sorted.length`
 */
export function weightedMedianSorted(
  sorted: ArrayLike<number>,
  weights: ArrayLike<number>,
  from = 0,
  to: number = sorted.length,
): number {
  checkRange(from, to, Math.min(sorted.length, weights.length), 'weightedMedianSorted');
  let total = 0;
  for (let i = from; i < to; i++) total += weights[i]!;
  if (!(total > 0)) return medianSorted(sorted, from, to);
  let cum = 0;
  for (let i = from; i < to; i++) {
    cum += weights[i]!;
    if (2 * cum >= total) return sorted[i]!;
  }
  return sorted[to - 1]!;
}
