import { describe, expect, it } from 'vitest';
import { formatUnits } from '../../src/dapp-browser/units.ts';

describe('formatUnits', () => {
  it.each([
    [10_000_000_000n, '100'],
    [12_345_678_900n, '123.456789'],
    [1n, '0.00000001'],
    [0n, '0'],
    [-150_000_000n, '-1.5'],
  ])('%s base units → %s LKY', (v, s) => {
    expect(formatUnits(v, 8)).toBe(s);
  });
});
