import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryLimiter, createRedisLimiter } from '../../src/access/limiter.ts';

describe('memory limiter', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('admits the limit in any sliding window: spent at the end of one window, nothing at the start of the next', async () => {
    vi.setSystemTime(1_700_000_040_000); // on a slot's start (slots are tenths of the window)
    const rl = createMemoryLimiter();
    expect(await rl.consume('key:a', 3)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      resetMs: 66_000, // when the oldest leaves the span of 11 tenths and one more fits
      consumed: 1,
    });
    vi.advanceTimersByTime(54_000); // the end of the first minute: the rest of the budget
    expect(await rl.consume('key:a', 3)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await rl.consume('key:a', 3)).toMatchObject({ allowed: true, remaining: 0 });
    vi.advanceTimersByTime(7_000); // a fixed window would have started again here
    expect(await rl.consume('key:a', 3)).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetMs: 5_000, // the first request leaves at 66 s
      consumed: 4,
    });
    vi.advanceTimersByTime(4_999);
    expect((await rl.consume('key:a', 3)).allowed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await rl.consume('key:a', 3)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await rl.consume('key:a', 3)).allowed).toBe(false); // the two of 54 s are still in the window
  });

  it('counts points (a query cost) and corrects them afterwards: a refund, an extra charge', async () => {
    const rl = createMemoryLimiter('cw:cb');
    expect(await rl.consume('key:a', 100, 60)).toMatchObject({ allowed: true, remaining: 40 });
    // Over the budget: refused, and nothing counted (what it would have been is said).
    expect(await rl.consume('key:a', 100, 50)).toMatchObject({ allowed: false, remaining: 0, consumed: 110 });
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

/** A fleet of `n` processes, as `fleet.ts` would learn it. */
const fleetOf = (n: number) => ({ size: () => n, join: vi.fn() });

describe('redis limiter while Redis is away', () => {
  /** A node-redis look-alike whose every call fails (Redis unreachable but the client says ready). */
  const broken = {
    isReady: true,
    eval: () => Promise.reject(new Error('ECONNREFUSED')),
  };

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
});

/**
 * A node-redis look-alike for the calls the limiter makes, told apart by their arguments: the counting script (slot,
 * limit, points: admitted when the count plus the points fits, counted when the call arrives, answered as
 * `[admitted, consumed, resetMs]`), the correction (slot, points) and the carry-over (two keys: recorded, and added).
 * Each counting call is answered after `delayMs(n)` ms (n: the call's number from 0), or fails when that is `'fail'`,
 * as a loaded, hung or broken Redis would.
 */
function fakeRedis(delayMs: (n: number) => number | 'fail') {
  const counts = new Map<string, number>();
  const carried: string[][] = [];
  let calls = 0;
  return {
    isReady: true,
    counts,
    carried,
    async eval(_script: string, o: { keys: string[]; arguments: string[] }): Promise<unknown> {
      const key = o.keys[0] as string;
      if (o.keys.length === 2) {
        carried.push([key, ...o.arguments.slice(1)]);
        counts.set(key, (counts.get(key) ?? 0) + Number(o.arguments[1]));
        return 0;
      }
      const delay = delayMs(calls++);
      if (delay === 'fail') throw new Error('ECONNRESET');
      if (o.arguments.length === 2) {
        counts.set(key, Math.max(0, (counts.get(key) ?? 0) + Number(o.arguments[1])));
        return 0;
      }
      const [limit, points] = [Number(o.arguments[1]), Number(o.arguments[2])];
      const v = (counts.get(key) ?? 0) + points;
      if (v <= limit) counts.set(key, v);
      await new Promise((r) => setTimeout(r, delay));
      return [v <= limit ? 1 : 0, v, 60_000];
    },
  };
}

describe('redis limiter with slow answers', () => {
  it('awaits answers slower than a few hundred ms: a burst of 650 for 600 admits 600, all decided by Redis', async () => {
    const redis = fakeRedis((n) => 100 + (n % 5) * 100); // 100 to 500 ms
    const errors: unknown[] = [];
    const rl = createRedisLimiter(redis, { onFallback: (e) => errors.push(e), fleet: fleetOf(2) });
    const results = await Promise.all(Array.from({ length: 650 }, () => rl.consume('key:burst', 600)));
    expect(results.filter((r) => r.allowed)).toHaveLength(600);
    expect(redis.counts.get('cw:rl:key:burst')).toBe(600);
    expect(errors).toEqual([]);
    expect(rl.state()).toBe('shared');
  });

  it('keeps waiting past timeoutMs while Redis answers other calls (a queue drained slowly)', async () => {
    const redis = fakeRedis((n) => 100 + n); // one answer a millisecond, the last after 700 ms
    const errors: unknown[] = [];
    const rl = createRedisLimiter(redis, { timeoutMs: 200, onFallback: (e) => errors.push(e) });
    const results = await Promise.all(Array.from({ length: 600 }, () => rl.consume('key:queue', 500)));
    expect(results.filter((r) => r.allowed)).toHaveLength(500);
    expect(errors).toEqual([]);
    expect(rl.state()).toBe('shared');
  });

  it('degrades when Redis answers nothing within timeoutMs: from then on only the local share admits', async () => {
    const redis = fakeRedis(() => 1_000); // hung: every call counted, none answered in time
    const states: string[] = [];
    const rl = createRedisLimiter(redis, {
      timeoutMs: 50,
      fleet: fleetOf(2),
      onState: (s) => states.push(s),
    });
    const results = await Promise.all(Array.from({ length: 30 }, () => rl.consume('key:hung', 20)));
    // The 20 of the 30 calls under way that Redis admits are counted there but decide nothing: 20 / 2 admitted here, what this process may.
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(states).toEqual(['degraded']);
    expect((await rl.consume('key:hung', 20)).allowed).toBe(false);
  });

  it('decides an answer that comes after the limiter degraded by the local share, and does not carry it back', async () => {
    let t = 1_700_000_000_000;
    // Call 0 answers after 100 ms; call 1 fails at once (the limiter degrades); later calls answer at once.
    const redis = fakeRedis((n) => (n === 0 ? 100 : n === 1 ? 'fail' : 0));
    const rl = createRedisLimiter(redis, { fleet: fleetOf(1), now: () => t });
    const late = rl.consume('key:late', 3);
    expect(await rl.consume('key:late', 3)).toMatchObject({ allowed: true, remaining: 2 });
    expect(rl.state()).toBe('degraded');
    expect(await late).toMatchObject({ allowed: true, remaining: 1 }); // the local share's count: Redis's and its own
    expect(await rl.consume('key:late', 3)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await rl.consume('key:late', 3)).allowed).toBe(false);
    t += 1_000; // retried: the two admitted here alone are carried back, not the one Redis counted
    expect(await rl.consume('key:late', 3)).toMatchObject({ allowed: false });
    expect(rl.state()).toBe('shared');
    expect(redis.carried).toEqual([['cw:rl:key:late', '2', '0', '60000']]);
  });

  it('a failed correction degrades too, and counts in the local share', async () => {
    const redis = fakeRedis(() => 'fail');
    const rl = createRedisLimiter(redis, { fleet: fleetOf(1) });
    await rl.adjust('key:cost', 100, 70);
    expect(rl.state()).toBe('degraded');
    expect(await rl.consume('key:cost', 100, 40)).toMatchObject({ allowed: false });
    expect(await rl.consume('key:cost', 100, 30)).toMatchObject({ allowed: true, remaining: 0 });
  });
});
