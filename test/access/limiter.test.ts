import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryLimiter, createRedisLimiter } from '../../src/access/limiter.ts';

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

describe('redis limiter while Redis is away', () => {
  /** A node-redis look-alike whose every call fails (Redis unreachable but the client says ready). */
  const broken = {
    isReady: true,
    eval: () => Promise.reject(new Error('ECONNREFUSED')),
  };
  const fleetOf = (n: number) => ({ size: () => n, join: vi.fn() });

  it('counts its share of the budget (the budget divided by the processes), and reports it', async () => {
    const errors: unknown[] = [];
    const states: string[] = [];
    const fleet = fleetOf(2);
    const rl = createRedisLimiter(broken, {
      onFallback: (e) => errors.push(e),
      onState: (s) => states.push(s),
      fleet,
    });
    expect(rl.state()).toBe('shared');
    expect(await rl.consume('key:x', 4)).toMatchObject({ allowed: true, remaining: 2 });
    expect(rl.state()).toBe('degraded');
    expect(await rl.consume('key:x', 4)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await rl.consume('key:x', 4)).toMatchObject({ allowed: false, remaining: 0 });
    // Within a second of a failure Redis is not tried again.
    expect(errors).toHaveLength(1);
    expect(states).toEqual(['degraded']);
    expect(fleet.join).toHaveBeenCalled();
  });

  it('fails over at once when the client is not connected', async () => {
    const evalSpy = vi.fn();
    const rl = createRedisLimiter({ isReady: false, eval: evalSpy }, { onFallback: () => undefined });
    expect((await rl.consume('key:y', 5)).allowed).toBe(true);
    expect(evalSpy).not.toHaveBeenCalled();
    expect(rl.state()).toBe('degraded');
  });

  it('decides a request whose Redis call is slower than timeoutMs by the local share, without degrading', async () => {
    const hung = { isReady: true, eval: vi.fn(() => new Promise(() => undefined)) };
    const rl = createRedisLimiter(hung, { timeoutMs: 20, fleet: fleetOf(3) });
    expect(await rl.consume('key:z', 30)).toMatchObject({ allowed: true, remaining: 27 });
    expect(rl.state()).toBe('shared');
    await rl.consume('key:z', 30);
    expect(hung.eval).toHaveBeenCalledTimes(2); // Redis is still asked: slow is not gone
  });
});
