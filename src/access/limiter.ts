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
}

/**
 * Counts requests per identity (`key:<id>` or `ip:<addr>`) in fixed 60-second windows. The first request of an
 * identity opens its window; the count restarts when the window ends.
 */
export interface RateLimitStore {
  consume(identity: string, limitPerMinute: number): Promise<RateLimitResult>;
}

/** Window length. */
export const WINDOW_SECONDS = 60;
/** Prefix of every counter key (in Redis: `cw:rl:key:<id>`, `cw:rl:ip:<addr>`). */
export const KEY_PREFIX = 'cw:rl';

/** Turns a rate-limiter-flexible limiter family (one instance per limit) into a {@link RateLimitStore}. */
function storeOf(make: (points: number) => RateLimiterAbstract): RateLimitStore {
  const byLimit = new Map<number, RateLimiterAbstract>();
  return {
    async consume(identity, limit) {
      let rl = byLimit.get(limit);
      if (!rl) byLimit.set(limit, (rl = make(limit)));
      try {
        const r = await rl.consume(identity, 1);
        return { allowed: true, limit, remaining: r.remainingPoints, resetMs: Math.max(0, r.msBeforeNext) };
      } catch (err) {
        // rate-limiter-flexible rejects with a RateLimiterRes when over the limit, with an Error on store failure.
        if (err instanceof RateLimiterRes)
          return { allowed: false, limit, remaining: 0, resetMs: Math.max(0, err.msBeforeNext) };
        throw err;
      }
    },
  };
}

/** Counts in this process's memory: the default (one process), and the fallback while Redis is unreachable. */
export function createMemoryLimiter(): RateLimitStore {
  return storeOf(
    (points) => new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix: KEY_PREFIX }),
  );
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
}

/**
 * Counts in Redis (`REDIS_URL`), so every process shares one budget per identity. Takes a connected node-redis v4+
 * client; rate-limiter-flexible is told so with `useRedisPackage` (it then calls `client.eval(script, { keys,
 * arguments })`). The client is not closed here.
 */
export function createRedisLimiter(client: object, opts: RedisLimiterOptions = {}): RateLimitStore {
  const redis = storeOf(
    (points) =>
      new RateLimiterRedis({
        storeClient: client,
        useRedisPackage: true,
        // A disconnected client fails at once instead of queueing the command until it reconnects.
        rejectIfRedisNotReady: true,
        points,
        duration: WINDOW_SECONDS,
        keyPrefix: KEY_PREFIX,
      }),
  );
  const fallback = opts.fallback ?? createMemoryLimiter();
  const timeoutMs = opts.timeoutMs ?? 250;
  return {
    async consume(identity, limit) {
      try {
        return await withTimeout(redis.consume(identity, limit), timeoutMs, {
          what: 'redis rate-limit store',
        });
      } catch (err) {
        opts.onFallback?.(err);
        return fallback.consume(identity, limit);
      }
    },
  };
}
