import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryLimiter, createRedisLimiter } from '../../src/access/limiter.ts';
import type { RateLimitStore } from '../../src/access/limiter.ts';

describe('memory limiter', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('admits the limit per 60-second window, then denies until the window resets', async () => {
    const rl = createMemoryLimiter();
    for (let i = 1; i <= 3; i++) {
      expect(await rl.consume('key:a', 3)).toEqual({
        allowed: true,
        limit: 3,
        remaining: 3 - i,
        resetMs: 60_000,
        consumed: i,
      });
    }
    vi.advanceTimersByTime(20_000);
    expect(await rl.consume('key:a', 3)).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetMs: 40_000,
      consumed: 4,
    });
    vi.advanceTimersByTime(39_999);
    expect((await rl.consume('key:a', 3)).allowed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await rl.consume('key:a', 3)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      resetMs: 60_000,
      consumed: 1,
    });
  });

  it('counts points (a query cost) and corrects them afterwards: a refund, an extra charge', async () => {
    const rl = createMemoryLimiter('cw:cb');
    expect(await rl.consume('key:a', 100, 60)).toMatchObject({ allowed: true, remaining: 40 });
    // Over the budget: refused, and the points count (the caller refunds a refusal it does not want counted).
    expect(await rl.consume('key:a', 100, 50)).toMatchObject({ allowed: false, remaining: 0 });
    await rl.adjust('key:a', 100, -50);
    await rl.adjust('key:a', 100, -30); // measured at 30, estimated at 60
    expect(await rl.consume('key:a', 100, 1)).toMatchObject({ allowed: true, remaining: 69 });
    await rl.adjust('key:a', 100, 9); // measured above its estimate
    expect(await rl.consume('key:a', 100, 1)).toMatchObject({ allowed: true, remaining: 59 });
  });

  it('counts each identity on its own', async () => {
    const rl = createMemoryLimiter();
    expect((await rl.consume('ip:1.1.1.1', 1)).allowed).toBe(true);
    expect((await rl.consume('ip:1.1.1.1', 1)).allowed).toBe(false);
    expect((await rl.consume('ip:2.2.2.2', 1)).allowed).toBe(true);
  });
});

describe('redis limiter fallback', () => {
  /** A node-redis look-alike whose every call fails (Redis unreachable). */
  const broken = {
    isReady: true,
    eval: () => Promise.reject(new Error('ECONNREFUSED')),
    multi: () => {
      throw new Error('ECONNREFUSED');
    },
  };

  it('counts in memory while Redis fails, and reports it', async () => {
    const errors: unknown[] = [];
    const rl = createRedisLimiter(broken, { onFallback: (e) => errors.push(e) });
    expect(await rl.consume('key:x', 2)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await rl.consume('key:x', 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await rl.consume('key:x', 2)).toMatchObject({ allowed: false, remaining: 0 });
    expect(errors).toHaveLength(3);
  });

  it('fails over at once when the client is not connected', async () => {
    const evalSpy = vi.fn();
    const rl = createRedisLimiter({ isReady: false, eval: evalSpy }, { onFallback: () => undefined });
    expect((await rl.consume('key:y', 5)).allowed).toBe(true);
    expect(evalSpy).not.toHaveBeenCalled();
  });

  it('treats a Redis call slower than timeoutMs as a failure', async () => {
    const hung = { isReady: true, eval: () => new Promise(() => undefined) };
    const fallback: RateLimitStore = {
      consume: (_id, limit) => Promise.resolve({ allowed: true, limit, remaining: 42, resetMs: 1 }),
      adjust: () => Promise.resolve(),
    };
    const rl = createRedisLimiter(hung, { fallback, timeoutMs: 20 });
    expect(await rl.consume('key:z', 5)).toMatchObject({ remaining: 42 });
  });
});
