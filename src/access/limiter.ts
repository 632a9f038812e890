import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { withTimeout } from '../core/timeout.ts';

/** Result of counting one request against an identity's per-minute budget. */
export interface RateLimitResult {
  allowed: boolean;
  /** The budget: requests per minute. */
  limit: number;
  /** Requests left in the current window (0 when denied). */
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
  /** Counted in this window, this count included (above `limit` when denied). */
  consumed?: number;
}

/**
 * Counts per identity (`key:<id>` or `ip:<addr>`) in fixed 60-second windows: requests (one point each) or query
 * cost (its points). The first count of an identity opens its window; the count restarts when the window ends.
 */
export interface RateLimitStore {
  /** Counts `points` (default 1) against a budget of `limitPerMinute`; over it, the points still count. */
  consume(identity: string, limitPerMinute: number, points?: number): Promise<RateLimitResult>;
  /**
   * Corrects what was counted in the current window by `points`: fewer (negative: a refund) or more. Never refuses;
   * a failure is swallowed (a correction is best effort).
   */
  adjust(identity: string, limitPerMinute: number, points: number): Promise<void>;
}

/** Window length. */
export const WINDOW_SECONDS = 60;
/** Prefix of every request counter's key (in Redis: `cw:rl:key:<id>`, `cw:rl:ip:<addr>`). */
export const KEY_PREFIX = 'cw:rl';
/** Prefix of every cost budget's key (in Redis: `cw:cb:key:<id>`, `cw:cb:ip:<addr>`). */
export const COST_KEY_PREFIX = 'cw:cb';

/** Turns a rate-limiter-flexible limiter family (one instance per limit) into a {@link RateLimitStore}. */
function storeOf(make: (points: number) => RateLimiterAbstract): RateLimitStore {
  const byLimit = new Map<number, RateLimiterAbstract>();
  const limiter = (limit: number): RateLimiterAbstract => {
    let rl = byLimit.get(limit);
    if (!rl) byLimit.set(limit, (rl = make(limit)));
    return rl;
  };
  return {
    async adjust(identity, limit, points) {
      if (points === 0) return;
      const rl = limiter(limit);
      await (points < 0 ? rl.reward(identity, -points) : rl.penalty(identity, points)).catch(() => undefined);
    },
    async consume(identity, limit, points = 1) {
      const rl = limiter(limit);
      try {
        const r = await rl.consume(identity, points);
        return {
          allowed: true,
          limit,
          remaining: r.remainingPoints,
          resetMs: Math.max(0, r.msBeforeNext),
          consumed: r.consumedPoints,
        };
      } catch (err) {
        // rate-limiter-flexible rejects with a RateLimiterRes when over the limit, with an Error on store failure.
        if (err instanceof RateLimiterRes)
          return {
            allowed: false,
            limit,
            remaining: 0,
            resetMs: Math.max(0, err.msBeforeNext),
            consumed: err.consumedPoints,
          };
        throw err;
      }
    },
  };
}

/**
 * Counts in this process's memory: the default (one process), and the fallback while Redis is unreachable. `prefix`
 * tells one family of counters from another (default {@link KEY_PREFIX}: requests).
 */
export function createMemoryLimiter(prefix = KEY_PREFIX): RateLimitStore {
  return storeOf((points) => new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix: prefix }));
}

export interface RedisLimiterOptions {
  /**
   * Used while Redis fails or is unreachable; default a fresh {@link createMemoryLimiter}. Fail-open by design: the
   * API stays up, but each process then counts on its own, so N processes admit up to N × the budget until Redis is
   * back.
   */
  fallback?: RateLimitStore;
  /** A Redis call slower than this counts as a failure; default 250 ms. */
  timeoutMs?: number;
  /** Told about each failure that sent a request to the fallback (rate-limit your logging); default none. */
  onFallback?: (err: unknown) => void;
  /** The family of counters (default {@link KEY_PREFIX}: requests; {@link COST_KEY_PREFIX}: cost budgets). */
  prefix?: string;
}

/**
 * Counts in Redis (`REDIS_URL`), so every process shares one budget per identity. Takes a connected node-redis v4+
 * client; rate-limiter-flexible is told so with `useRedisPackage` (it then calls `client.eval(script, { keys,
 * arguments })`). The client is not closed here.
 */
export function createRedisLimiter(client: object, opts: RedisLimiterOptions = {}): RateLimitStore {
  const prefix = opts.prefix ?? KEY_PREFIX;
  const redis = storeOf(
    (points) =>
      new RateLimiterRedis({
        storeClient: client,
        useRedisPackage: true,
        // A disconnected client fails at once instead of queueing the command until it reconnects.
        rejectIfRedisNotReady: true,
        points,
        duration: WINDOW_SECONDS,
        keyPrefix: prefix,
      }),
  );
  const fallback = opts.fallback ?? createMemoryLimiter(prefix);
  const timeoutMs = opts.timeoutMs ?? 250;
  return {
    async consume(identity, limit, points) {
      try {
        return await withTimeout(redis.consume(identity, limit, points), timeoutMs, {
          what: 'redis rate-limit store',
        });
      } catch (err) {
        opts.onFallback?.(err);
        return fallback.consume(identity, limit, points);
      }
    },
    adjust: (identity, limit, points) =>
      withTimeout(redis.adjust(identity, limit, points), timeoutMs).catch(() => undefined),
  };
}
