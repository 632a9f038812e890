import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LastUsedBatcher } from '../../src/access/last-used.ts';

describe('LastUsedBatcher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes every touched key in one batch, at most once per interval', async () => {
    const batches: [string, number][][] = [];
    const b = new LastUsedBatcher((uses) => {
      batches.push([...uses]);
      return Promise.resolve();
    }, 10_000);
    for (let i = 0; i < 1000; i++) b.touch(i % 2 ? 'a' : 'b', i);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([
      [
        ['b', 998],
        ['a', 999],
      ],
    ]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(batches).toHaveLength(1); // nothing touched, nothing written
  });

  it('keeps a failed batch for the next one', async () => {
    let fail = true;
    const written: [string, number][][] = [];
    const b = new LastUsedBatcher((uses) => {
      if (fail) return Promise.reject(new Error('db down'));
      written.push([...uses]);
      return Promise.resolve();
    }, 1_000);
    b.touch('a', 5);
    await vi.advanceTimersByTimeAsync(1_000);
    fail = false;
    b.touch('b', 7);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(written).toHaveLength(1);
    expect(new Map(written[0])).toEqual(
      new Map([
        ['a', 5],
        ['b', 7],
      ]),
    );
  });
});
