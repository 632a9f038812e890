/**
 * Small seeded hashing and noise primitives for the demo data generator. Everything is a pure function of its
 * inputs (no hidden state), so any point of any demo path can be computed directly, in any order.
 */

const TWO_32 = 4_294_967_296;

/** murmur3's 32-bit finaliser: a bijective avalanche mix of a 32-bit integer. */
export function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Folds an integer (safe range, may exceed 32 bits or be negative) into hash state `h`. */
export function combine(h: number, v: number): number {
  const lo = v >>> 0;
  const hi = Math.floor(v / TWO_32) >>> 0;
  h = mix32((h ^ 0x9e3779b9) + lo);
  return hi === 0 ? h : mix32(h ^ hi);
}

/** Hash of a seed and a list of integers. */
export function hash(seed: number, ...parts: readonly number[]): number {
  let h = mix32(seed >>> 0);
  for (const p of parts) h = combine(h, p);
  return h;
}

/** Hash of two integers after a key: the allocation-free form used on hot paths. */
export function hash2(key: number, a: number, b: number): number {
  return combine(combine(key, a), b);
}

/** xmur3-style 32-bit hash of a string (ids, venue names, labels). */
export function hashString(s: string): number {
  let h = 1779033703 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    h = Math.imul(h ^ s.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  return mix32(h);
}

/** A key derived from a seed and labels: `keyOf(seed, 'price', 'bitcoin')`. */
export function keyOf(seed: number, ...labels: readonly (string | number)[]): number {
  let h = mix32(seed >>> 0);
  for (const l of labels) h = combine(h, typeof l === 'number' ? l : hashString(l));
  return h;
}

/** Maps a 32-bit hash to [0, 1). */
export function unit(h: number): number {
  return (h >>> 0) / TWO_32;
}

/** Uniform value in [lo, hi) drawn from a hash. */
export function between(h: number, lo: number, hi: number): number {
  return lo + (hi - lo) * unit(h);
}

/** Log-uniform value in [lo, hi) drawn from a hash. */
export function logBetween(h: number, lo: number, hi: number): number {
  return Math.exp(between(h, Math.log(lo), Math.log(hi)));
}

/** mulberry32: a tiny seeded PRNG, for the few places that want a sequence rather than random access. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / TWO_32;
  };
}

/**
 * Smooth value noise in [-1, 1]: seeded values at the integer lattice points of `x`, joined by smoothstep
 * interpolation, so the curve is continuous with a continuous slope.
 */
export function valueNoise(key: number, x: number): number {
  const i = Math.floor(x);
  const f = x - i;
  const a = unit(combine(key, i)) * 2 - 1;
  const b = unit(combine(key, i + 1)) * 2 - 1;
  return a + (b - a) * f * f * (3 - 2 * f);
}

/** One octave of a fractal noise: its lattice period (ms) and amplitude. */
export interface Octave {
  periodMs: number;
  amplitude: number;
}

/**
 * Geometric octave periods from `minMs` to `maxMs` (inclusive), with amplitudes ∝ √period so that the sum behaves
 * like a random walk: the standard deviation of a change over Δ grows roughly like √Δ, with `sigmaPerDay` at one day.
 */
export function brownianOctaves(minMs: number, maxMs: number, count: number, sigmaPerDay: number): Octave[] {
  const ratio = Math.pow(maxMs / minMs, 1 / (count - 1));
  const out: Octave[] = [];
  for (let k = 0; k < count; k++) {
    const periodMs = minMs * Math.pow(ratio, k);
    // 0.6 calibrates smoothstep value noise so that the 24h log change has about `sigmaPerDay` std (see docs).
    out.push({ periodMs, amplitude: 0.6 * sigmaPerDay * Math.sqrt(periodMs / 86_400_000) });
  }
  return out;
}

/**
 * Per noise key: each octave's key and seeded phase (pure functions of the key, worked out once), and the lattice
 * values of the cell last evaluated (neighbouring times share the cell of every octave longer than their distance).
 */
interface OctaveCache {
  keys: number[];
  phases: number[];
  cell: Float64Array;
  a: Float64Array;
  b: Float64Array;
}
const octaveCaches = new Map<number, OctaveCache>();

function octaveCache(key: number, count: number): OctaveCache {
  let c = octaveCaches.get(key);
  if (!c || c.keys.length < count) {
    // A bound on a cache of pure values: dropping it only costs recomputation.
    if (octaveCaches.size >= 65_536) octaveCaches.clear();
    c = {
      keys: [],
      phases: [],
      cell: new Float64Array(count).fill(NaN),
      a: new Float64Array(count),
      b: new Float64Array(count),
    };
    for (let k = 0; k < count; k++) {
      const ok = combine(key, k);
      c.keys.push(ok);
      c.phases.push(unit(mix32(ok)) * 1000);
    }
    octaveCaches.set(key, c);
  }
  return c;
}

/**
 * Sum of value-noise octaves at time `t`, each with its own key and a seeded phase so lattices do not align. Each
 * octave is `valueNoise(octave key, t / period + phase)`, computed inline with the same operations.
 */
export function fractalNoise(key: number, octaves: readonly Octave[], t: number): number {
  const c = octaveCache(key, octaves.length);
  let sum = 0;
  for (let k = 0; k < octaves.length; k++) {
    const o = octaves[k] as Octave;
    const x = t / o.periodMs + (c.phases[k] as number);
    const i = Math.floor(x);
    const f = x - i;
    if (c.cell[k] !== i) {
      const ok = c.keys[k] as number;
      c.cell[k] = i;
      c.a[k] = unit(combine(ok, i)) * 2 - 1;
      c.b[k] = unit(combine(ok, i + 1)) * 2 - 1;
    }
    const a = c.a[k] as number;
    const b = c.b[k] as number;
    sum += o.amplitude * (a + (b - a) * f * f * (3 - 2 * f));
  }
  return sum;
}

/** Exact powers of ten as doubles (10^22 is the largest). */
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/**
 * Rounds to `digits` significant digits (keeps the JSON short; demo values carry no more precision): exactly
 * `Number(x.toPrecision(digits))`, mostly without the string. The significand `n` is `|x| · 10^k` rounded half up
 * (toPrecision's rule); the product is one rounding of the exact value, and rounding is monotonic, so it falls on the
 * same side of `n + ½` as the exact value unless it lands on the half itself (near which, with a margin, and when
 * the exponent guess is off by one, this falls back to `toPrecision`). The result `n / 10^k` (or `n · 10^-k`) is one
 * correctly rounded operation on exact operands: the double that reading the digits gives.
 */
export function sig(x: number, digits: number): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  const ax = x < 0 ? -x : x;
  const k = digits - 1 - Math.floor(Math.log10(ax));
  if (digits <= 12 && k >= -22 && k <= 22) {
    const scale = POW10[k < 0 ? -k : k] as number;
    const y = k >= 0 ? ax * scale : ax / scale;
    const whole = Math.floor(y);
    const frac = y - whole;
    const n = frac >= 0.5 ? whole + 1 : whole;
    if (Math.abs(frac - 0.5) > 1e-4 && n >= (POW10[digits - 1] as number) && n <= (POW10[digits] as number)) {
      const r = k >= 0 ? n / scale : n * scale;
      return x < 0 ? -r : r;
    }
  }
  return Number(x.toPrecision(digits));
}
