import { describe, expect, it } from 'vitest';
import {
  ENTERPRISE_MAX_PER_MINUTE,
  isPlan,
  KEYLESS_PER_MINUTE,
  limitFor,
  PLAN_LIMITS,
} from '../../src/access/plans.ts';
import { ApiError } from '../../src/core/errors.ts';

describe('plans', () => {
  it('has the published limits', () => {
    expect(PLAN_LIMITS).toEqual({ free: 600, pro: 3000, enterprise: 10_000 });
    expect(KEYLESS_PER_MINUTE).toBe(240);
    expect(ENTERPRISE_MAX_PER_MINUTE).toBe(10_000);
  });

  it('gives each plan its default limit', () => {
    expect(limitFor('free')).toBe(600);
    expect(limitFor('pro')).toBe(3000);
    expect(limitFor('enterprise')).toBe(10_000);
  });

  it('accepts enterprise limits from 1 to 10,000', () => {
    expect(limitFor('enterprise', 1)).toBe(1);
    expect(limitFor('enterprise', 7_500)).toBe(7_500);
    expect(limitFor('enterprise', 10_000)).toBe(10_000);
  });

  it.each([0, -5, 10_001, 1.5, Number.NaN])('refuses enterprise limit %s with 400 INVALID_LIMIT', (n) => {
    const err = catchError(() => limitFor('enterprise', n));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 'INVALID_LIMIT' });
    expect(err.message).toContain('1 to 10000');
  });

  it('refuses a custom limit on free and pro, except their own', () => {
    expect(limitFor('free', 600)).toBe(600);
    expect(catchError(() => limitFor('free', 1000))).toMatchObject({ status: 400, code: 'INVALID_LIMIT' });
    expect(catchError(() => limitFor('pro', 5000)).message).toContain('enterprise');
  });

  it('recognises plan names', () => {
    expect(isPlan('pro')).toBe(true);
    expect(isPlan('gold')).toBe(false);
    expect(isPlan(undefined)).toBe(false);
  });
});

function catchError(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}
