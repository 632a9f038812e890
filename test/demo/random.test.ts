import { describe, expect, it } from 'vitest';
import {
  brownianOctaves,
  combine,
  fractalNoise,
  hash,
  hashString,
  keyOf,
  mulberry32,
  sig,
  unit,
  valueNoise,
} from '../../src/demo/random.ts';

describe('demo random primitives', () => {
  it('hashes deterministically and spreads inputs', () => {
    expect(hash(1, 2, 3)).toBe(hash(1, 2, 3));
    expect(hash(1, 2, 3)).not.toBe(hash(1, 3, 2));
    expect(hashString('bitcoin')).toBe(hashString('bitcoin'));
    expect(hashString('bitcoin')).not.toBe(hashString('bitcoim'));
    expect(keyOf(7, 'price', 'bitcoin')).not.toBe(keyOf(8, 'price', 'bitcoin'));
    // Values beyond 32 bits (ms timestamps) still change the hash in their high part.
    expect(combine(5, 2 ** 32 + 1)).not.toBe(combine(5, 1));
    const us = Array.from({ length: 10_000 }, (_, i) => unit(hash(42, i)));
    const mean = us.reduce((a, b) => a + b, 0) / us.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
    expect(Math.min(...us)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...us)).toBeLessThan(1);
  });

  it('mulberry32 repeats its sequence for a seed', () => {
    const a = mulberry32(99);
    const b = mulberry32(99);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(mulberry32(100)()).not.toBe(xs[0]);
  });

  it('value noise stays in [-1, 1], hits its lattice values and is continuous', () => {
    for (let x = -50; x < 50; x += 0.37) {
      const v = valueNoise(11, x);
      expect(Math.abs(v)).toBeLessThanOrEqual(1);
      expect(Math.abs(valueNoise(11, x + 1e-6) - v)).toBeLessThan(1e-4);
    }
    expect(valueNoise(11, 3)).toBeCloseTo(unit(combine(11, 3)) * 2 - 1, 12);
  });

  it('fractal noise with √period amplitudes scales like a random walk', () => {
    const DAY = 86_400_000;
    const octaves = brownianOctaves(15 * 60_000, 120 * DAY, 14, 0.03);
    const change = (lag: number): number => {
      let s = 0;
      for (let i = 0; i < 2000; i++) {
        const t = 1.7e12 + i * 3 * DAY;
        s += (fractalNoise(5, octaves, t + lag) - fractalNoise(5, octaves, t)) ** 2;
      }
      return Math.sqrt(s / 2000);
    };
    const day = change(DAY);
    expect(day).toBeGreaterThan(0.02);
    expect(day).toBeLessThan(0.04);
    expect(change(4 * DAY) / day).toBeGreaterThan(1.5);
  });

  it('rounds to significant digits', () => {
    expect(sig(123456.789, 4)).toBe(123500);
    expect(sig(0.000123456, 3)).toBe(0.000123);
    expect(sig(0, 3)).toBe(0);
  });

  it('rounds exactly as toPrecision does, halves, powers of ten and extreme magnitudes included', () => {
    const next = mulberry32(20261121);
    const xs: number[] = [
      0.5, 1.5, 2.5, 0.125, 1e-300, 5e-324, 1.7976931348623157e308, 9.9999995, 0.99999999995,
    ];
    for (let i = 0; i < 200_000; i++) {
      const magnitude = 10 ** Math.floor(next() * 40 - 20);
      const x = next() * magnitude * (next() < 0.1 ? -1 : 1);
      xs.push(x);
      // Near a half of the last digit, a few doubles either side: where a shortcut would round the wrong way.
      const digits = [6, 7, 8, 10][i % 4] as number;
      const n = Math.floor(10 ** (digits - 1) * (1 + 9 * next()));
      const half = (n + 0.5) * 10 ** (Math.floor(next() * 16) - 8 - digits + 1);
      for (let j = -2; j <= 2; j++) xs.push(half + j * half * Number.EPSILON);
    }
    for (let e = -30; e <= 30; e++)
      xs.push(10 ** e, 10 ** e * (1 - Number.EPSILON), 10 ** e * (1 + Number.EPSILON));
    const wrong: string[] = [];
    for (const x of xs) {
      for (const digits of [1, 4, 6, 7, 8, 10, 12, 15]) {
        const want = Number(x.toPrecision(digits));
        if (!Object.is(sig(x, digits), want)) wrong.push(`${x} @${digits}: ${sig(x, digits)} != ${want}`);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});
