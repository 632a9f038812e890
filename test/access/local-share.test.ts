import { describe, expect, it } from 'vitest';
import { LocalShare } from '../../src/access/local-share.ts';

/** A window of 60 s starting on a slot boundary (slots are tenths of it). */
const T = 1_700_000_040_000;

describe('local share of a budget while Redis is away', () => {
  it('admits the budget divided by the processes in any sliding window, and reports the fleet estimate', () => {
    const s = new LocalShare(60_000);
    expect(s.consume('key:a', 600, 1, 2, T)).toEqual({
      allowed: true,
      limit: 600,
      remaining: 598,
      resetMs: 66_000,
      consumed: 2,
    });
    for (let i = 2; i <= 300; i++) expect(s.consume('key:a', 600, 1, 2, T + 30_000).allowed).toBe(true);
    // Refused, and a refusal counts nothing.
    expect(s.consume('key:a', 600, 1, 2, T + 30_000)).toMatchObject({ allowed: false, remaining: 0 });
    expect(s.consume('key:a', 600, 1, 2, T + 65_999).allowed).toBe(false);
    // The first one has left the span (11 tenths), the 299 of 30 s later have not: one admitted.
    expect(s.consume('key:a', 600, 1, 2, T + 66_000).allowed).toBe(true);
    expect(s.consume('key:a', 600, 1, 2, T + 66_000).allowed).toBe(false);
    expect(s.consume('key:a', 600, 299, 2, T + 96_000).allowed).toBe(true);
    expect(s.consume('key:b', 600, 1, 3, T)).toMatchObject({ allowed: true, remaining: 597 });
  });

  it('counts its part of what Redis had admitted when it went away, for a window', () => {
    const s = new LocalShare(60_000);
    s.note('key:a', 500, T); // 500 counted in Redis's sliding window
    // 600 / 2 = 300 for this process, less its part of the 500: 50.
    for (let i = 0; i < 50; i++) expect(s.consume('key:a', 600, 1, 2, T + 1_000).allowed).toBe(true);
    expect(s.consume('key:a', 600, 1, 2, T + 1_000).allowed).toBe(false);
    // A key Redis saw spent gets nothing until a window has passed.
    s.note('key:c', 600, T);
    expect(s.consume('key:c', 600, 1, 2, T)).toMatchObject({ allowed: false, resetMs: 60_000 });
    expect(s.consume('key:c', 600, 1, 2, T + 60_000).allowed).toBe(true);
  });

  it('corrects a count (a refund never below zero) and lists what to carry back', () => {
    const s = new LocalShare(60_000);
    s.consume('key:cost', 20_000, 8_000, 2, T);
    s.adjust('key:cost', -3_000, T + 6_000);
    expect(s.consume('key:cost', 20_000, 5_000, 2, T + 6_000)).toMatchObject({ allowed: true, remaining: 0 });
    s.adjust('key:x', -10, T);
    s.note('key:seen', 40, T - 30_000); // counted in Redis, not here since
    s.note('key:old', 40, T - 59_000); // its points leave any window before the carry
    s.note('key:a', 10, T - 30_000);
    s.consume('key:a', 600, 1, 2, T + 100);
    expect(s.pending(T + 2_000)).toEqual([
      { identity: 'key:cost', own: 10_000, spent: 0, ttlMs: 60_000 },
      { identity: 'key:a', own: 1, spent: 10, ttlMs: 60_000 },
      { identity: 'key:seen', own: 0, spent: 40, ttlMs: 28_000 },
    ]);
    s.clear();
    expect(s.pending(T + 2_000)).toEqual([]);
  });

  it('does not carry back what the store counted too (its answer came after this process took over)', () => {
    const s = new LocalShare(60_000);
    s.consume('key:late', 600, 1, 2, T, false);
    s.consume('key:late', 600, 1, 2, T);
    expect(s.pending(T)).toEqual([{ identity: 'key:late', own: 1, spent: 0, ttlMs: 60_000 }]);
    // Both count against the share, however they are carried.
    expect(s.consume('key:late', 600, 1, 2, T)).toMatchObject({ remaining: 594 });
  });
});

describe('memory of the local share', () => {
  it('forgets the identities whose counts have all left the span', () => {
    const s = new LocalShare(60_000);
    for (let i = 0; i < 1_000; i++) s.consume(`ip:${i}`, 10, 1, 1, T + i);
    s.note('key:seen', 5, T);
    expect(s.identities).toBe(1_001);
    s.consume('ip:0', 10, 1, 1, T + 30_000); // used again: kept
    s.consume('key:new', 10, 1, 1, T + 66_000);
    expect(s.identities).toBe(2);
    expect(s.consume('ip:0', 10, 9, 1, T + 66_000)).toMatchObject({ allowed: true, remaining: 0 });
  });
});
