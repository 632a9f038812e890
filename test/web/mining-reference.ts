/**
 * The independent reference for mining-calc.test.ts: the mining calculator's formulas evaluated in exact rational
 * arithmetic (BigInt numerator/denominator over the decimal inputs), then rounded once to a double; two network
 * cases, and helpers that run the calculator on a case and compare within a few units in the last place.
 */
import { expect } from 'vitest';
import type { MinerInputs, NetworkFigures } from '../../src/web/widgets/mining/calc.ts';
import { calculate } from '../../src/web/widgets/mining/calc.ts';

// ---- the reference: exact rationals -------------------------------------------------------------------------------

/** A rational number n/d (d > 0). */
interface Q {
  n: bigint;
  d: bigint;
}
const gcd = (a: bigint, b: bigint): bigint => {
  a = a < 0n ? -a : a;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
};
const q = (n: bigint, d = 1n): Q => {
  const g = gcd(n, d) || 1n;
  return d < 0n ? { n: -n / g, d: -d / g } : { n: n / g, d: d / g };
};
/** An exact rational from a decimal string (`'9.5'`, `'1.5e15'`, `'-0.08'`). */
function dec(s: string): Q {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(s);
  if (!m) throw new Error(`not a decimal: ${s}`);
  const frac = m[3] ?? '';
  let n = BigInt(`${m[2]}${frac}`) * (m[1] ? -1n : 1n);
  let d = 10n ** BigInt(frac.length);
  const e = Number(m[4] ?? 0);
  if (e >= 0) n *= 10n ** BigInt(e);
  else d *= 10n ** BigInt(-e);
  return q(n, d);
}
const add = (a: Q, b: Q): Q => q(a.n * b.d + b.n * a.d, a.d * b.d);
const sub = (a: Q, b: Q): Q => add(a, { n: -b.n, d: b.d });
const mul = (...xs: Q[]): Q => xs.reduce((a, b) => q(a.n * b.n, a.d * b.d), q(1n));
const div = (a: Q, b: Q): Q => q(a.n * b.d, a.d * b.n);
/** The double nearest to the rational (via 30 significant decimal digits). */
function toNumber(x: Q): number {
  if (x.n === 0n) return 0;
  const neg = x.n < 0n;
  const n = neg ? -x.n : x.n;
  const digits = 30n;
  // n/d = int / 10^k with 30+ significant digits.
  let k = 0n;
  while (n * 10n ** k < x.d * 10n ** digits) k++;
  const int = (n * 10n ** k) / x.d;
  return (neg ? -1 : 1) * Number(`${int}e-${k}`);
}

const UNIT_FACTOR: Record<string, string> = {
  'H/s': '1',
  'kH/s': '1e3',
  'MH/s': '1e6',
  'GH/s': '1e9',
  'TH/s': '1e12',
};

export interface RefCase {
  hashrate: string;
  unit: MinerInputs['unit'];
  power: string;
  electricity: string;
  fee: string;
  networkHashrate: string;
  blockTime: string;
  reward: string;
  price: string;
}

/** The formulas of docs/mining-widget.md, exactly. */
export function reference(c: RefCase) {
  const h = mul(dec(c.hashrate), dec(UNIT_FACTOR[c.unit] as string));
  const keep = sub(q(1n), div(dec(c.fee), q(100n)));
  const coinsPerDay = mul(
    div(h, dec(c.networkHashrate)),
    div(q(86_400n), dec(c.blockTime)),
    dec(c.reward),
    keep,
  );
  const revenuePerDay = mul(coinsPerDay, dec(c.price));
  const electricityPerDay = mul(div(dec(c.power), q(1000n)), q(24n), dec(c.electricity));
  const profitPerDay = sub(revenuePerDay, electricityPerDay);
  const month = (x: Q) => toNumber(mul(x, q(30n)));
  return {
    coinsPerDay: toNumber(coinsPerDay),
    coinsPerMonth: month(coinsPerDay),
    revenuePerDay: toNumber(revenuePerDay),
    revenuePerMonth: month(revenuePerDay),
    electricityPerDay: toNumber(electricityPerDay),
    electricityPerMonth: month(electricityPerDay),
    profitPerDay: toNumber(profitPerDay),
    profitPerMonth: month(profitPerDay),
  };
}

export const inputsOf = (c: RefCase): MinerInputs => ({
  hashrate: Number(c.hashrate),
  unit: c.unit,
  powerWatts: Number(c.power),
  electricityPerKwh: Number(c.electricity),
  poolFeePercent: Number(c.fee),
});
export const networkOf = (c: RefCase): NetworkFigures => ({
  networkHashrate: Number(c.networkHashrate),
  blockTimeSeconds: Number(c.blockTime),
  blockReward: Number(c.reward),
  price: Number(c.price),
});

/** Equal to within a few units in the last place (float evaluation order differs from exact arithmetic). */
export function expectNear(actual: number | null, expected: number, what: string): void {
  expect(actual, what).not.toBeNull();
  const a = actual as number;
  const tol = Math.max(Math.abs(expected) * 1e-14, 1e-300);
  expect(Math.abs(a - expected), `${what}: ${a} vs ${expected}`).toBeLessThanOrEqual(tol);
}

export function estimateOf(c: RefCase) {
  const r = calculate(inputsOf(c), networkOf(c));
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.estimate;
}

export const LTC_LIKE: RefCase = {
  hashrate: '9.5',
  unit: 'GH/s',
  power: '3425',
  electricity: '0.08',
  fee: '1',
  networkHashrate: '1.5e15',
  blockTime: '150',
  reward: '6.25',
  price: '90',
};
export const DOGE_LIKE: RefCase = {
  hashrate: '500',
  unit: 'MH/s',
  power: '900',
  electricity: '0.12',
  fee: '2',
  networkHashrate: '2e15',
  blockTime: '60',
  reward: '10000',
  price: '0.15',
};
