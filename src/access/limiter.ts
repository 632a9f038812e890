import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { performance } from 'node:perf_hooks';
import { TimeoutError, withTimeout } from '../core/timeout.ts';
import type { Fleet } from './fleet.ts';
import { LocalShare } from './local-share.ts';

import type { RateLimitResult } from './local-share.ts';

export type { RateLimitResult };

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

/** Window length, seconds: one minute (`RATE_LIMIT_WINDOW_SECONDS` shortens it, for tests only). */
export const WINDOW_SECONDS = 60;
/** Prefix of every request counter's key (in Redis: `cw:rl:key:<id>`, `cw:rl:ip:<addr>`). */
export const KEY_PREFIX = 'cw:rl';
/** Prefix of every cost budget's key (in Redis: `cw:cb:key:<id>`, `cw:cb:ip:<addr>`). */
export const COST_KEY_PREFIX = 'cw:cb';

/**
 * Turns a rate-limiter-flexible limiter family (one instance per limit) into a {@link RateLimitStore}, except that a
 * failed correction rejects: the caller decides what a failure means.
 */
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
      await (points < 0 ? rl.reward(identity, -points) : rl.penalty(identity, points));
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
 * Counts in this process's memory: the default (one process, no Redis). `prefix` tells one family of counters from
 * another (default {@link KEY_PREFIX}: requests); `windowSeconds` is the window's length (default one minute).
 */
export function createMemoryLimiter(prefix = KEY_PREFIX, windowSeconds = WINDOW_SECONDS): RateLimitStore {
  const store = storeOf(
    (points) => new RateLimiterMemory({ points, duration: windowSeconds, keyPrefix: prefix }),
  );
  return {
    consume: store.consume,
    adjust: (identity, limit, points) => store.adjust(identity, limit, points).catch(() => undefined),
  };
}

/** How the limiter counts now: `local` (one process, no Redis), `shared` (in Redis), `degraded` (Redis away). */
export type LimiterState = 'local' | 'shared' | 'degraded';

/** A Redis-backed store that says whether it is counting in Redis or in its local share. */
export interface SharedRateLimitStore extends RateLimitStore {
  state(): Exclude<LimiterState, 'local'>;
}

/** The node-redis v4+ calls the limiter makes (rate-limiter-flexible's `useRedisPackage` calls and the carry-over). */
export interface LimiterClient {
  isReady: boolean;
  eval(script: string, opts: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

export interface RedisLimiterOptions {
  /**
   * How long Redis may answer none of the limiter's calls before it counts as unreachable (the limiter degrades);
   * default {@link REDIS_TIMEOUT_MS}. A slow answer is awaited: only Redis's answer may decide a shared count.
   */
  timeoutMs?: number;
  /** Told about each failure that sent a request to the local share (rate-limit your logging); default none. */
  onFallback?: (err: unknown) => void;
  /** Told when counting leaves Redis (`degraded`) and when it is back (`shared`, with the windows carried over). */
  onState?: (state: 'shared' | 'degraded', carried: number) => void;
  /** The family of counters (default {@link KEY_PREFIX}: requests; {@link COST_KEY_PREFIX}: cost budgets). */
  prefix?: string;
  /** The window's length, seconds; default {@link WINDOW_SECONDS}. */
  windowSeconds?: number;
  /** The processes sharing each budget (`fleet.ts`), what the local share divides by; default one. */
  fleet?: Pick<Fleet, 'size' | 'join'>;
  /** The clock (ms); default `Date.now`. */
  now?: () => number;
}

/**
 * Adds one process's local counts of a window to the Redis counter rate-limiter-flexible keeps (`KEYS[1]`), once
 * Redis is back. `KEYS[2]` holds the largest pre-outage count any process has carried (`ARGV[2]`), so that it is
 * counted once, however many processes saw it: absent, it is what the counter already holds (Redis kept its data),
 * or 0 (Redis came back empty). The counter keeps its TTL, or gets the window's rest (`ARGV[3]`, ms).
 */
const CARRY_SCRIPT = `local cur = tonumber(redis.call('get', KEYS[1]) or '0')
local base = tonumber(redis.call('get', KEYS[2]) or cur)
local spent = math.max(base, tonumber(ARGV[2]))
local v = redis.call('incrby', KEYS[1], tonumber(ARGV[1]) + spent - base)
local ttl = redis.call('pttl', KEYS[1])
if ttl < 0 then ttl = tonumber(ARGV[3]); redis.call('pexpire', KEYS[1], ttl) end
redis.call('set', KEYS[2], spent, 'PX', ttl)
return v`;

/** While degraded, how often a ready client is tried again (a slow Redis is not retried on every request). */
const RETRY_MS = 1_000;

/**
 * How long Redis may go without answering any rate-limit call before it counts as unreachable: long enough that a
 * loaded process or server (a burst, a busy machine: answers of several hundred ms) is still answered, short enough
 * that a Redis that hangs costs the requests under way a bounded wait. Below it a slow answer decides as a fast one
 * would.
 */
export const REDIS_TIMEOUT_MS = 2_000;

/** At most this many times `timeoutMs` is one call awaited while Redis answers others (a queue that drains slowly). */
const MAX_WAIT_FACTOR = 4;

/** What a wait for Redis that is not over yet resolves to. */
const TICK = Symbol('tick');

/** Lets the I/O that arrived while the event loop was busy be read (`setImmediate` runs after the poll phase). */
const afterPendingIo = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * Counts in Redis (`REDIS_URL`), so every process shares one budget per identity. Takes a connected node-redis v4+
 * client; rate-limiter-flexible is told so with `useRedisPackage`. The client is not closed here.
 *
 * While Redis is unreachable (the client not ready) or fails, the limiter is `degraded`: it counts this process's share
 * of each budget (`local-share.ts`: the budget divided by the fleet's size), never more, and sends nothing to Redis.
 * When the client is ready again the open windows' counts (this process's, times the fleet's size) are carried into
 * Redis before anything else is counted there, and counting is shared again.
 *
 * A slow answer is awaited: deciding a request locally while its call still counts in Redis would admit it on top of
 * what Redis admits, beyond the plan. Only a Redis that answers none of the calls for `timeoutMs` (default
 * {@link REDIS_TIMEOUT_MS}), or keeps one waiting for four times that, degrades the limiter, as a failure does; the
 * calls it leaves under way may still count in Redis, which is stricter, never looser. Once degraded, every decision
 * is the local share's, a late answer's too.
 */
export function createRedisLimiter(
  client: LimiterClient,
  opts: RedisLimiterOptions = {},
): SharedRateLimitStore {
  const prefix = opts.prefix ?? KEY_PREFIX;
  const windowSeconds = opts.windowSeconds ?? WINDOW_SECONDS;
  const now = opts.now ?? Date.now;
  const redis = storeOf(
    (points) =>
      new RateLimiterRedis({
        storeClient: client,
        useRedisPackage: true,
        // A disconnected client fails at once instead of queueing the command until it reconnects.
        rejectIfRedisNotReady: true,
        points,
        duration: windowSeconds,
        keyPrefix: prefix,
      }),
  );
  const local = new LocalShare(windowSeconds * 1000);
  const timeoutMs = opts.timeoutMs ?? REDIS_TIMEOUT_MS;
  const size = () => opts.fleet?.size() ?? 1;
  /** When Redis last answered one of this limiter's calls (`performance.now()`, not the window's clock). */
  let lastAnswer = 0;

  /**
   * `work`'s result, or a {@link TimeoutError} once Redis has answered none of this limiter's calls for `timeoutMs`
   * since this one began: "Redis does not answer", not "this answer is slow". Answers to other calls (a burst's queue
   * being drained) keep it waiting, up to {@link MAX_WAIT_FACTOR} × `timeoutMs`. Before giving up it lets pending
   * I/O be read: after the event loop was held up (a loaded machine), the answer may be waiting in the socket while the
   * timer, which runs first, has expired.
   */
  const awaitRedis = async <T>(work: Promise<T>, what: string): Promise<T> => {
    let settled = false;
    const tracked = work.then(
      (v) => ((lastAnswer = performance.now()), (settled = true), v),
      (err: unknown) => {
        settled = true;
        throw err;
      },
    );
    tracked.catch(() => undefined); // a failure after the timeout is nobody's: the caller has moved on
    const started = performance.now();
    /** Ms left before giving up: `timeoutMs` after the later of this call's start and Redis's last answer, capped. */
    const left = () =>
      Math.min(Math.max(started, lastAnswer) + timeoutMs, started + MAX_WAIT_FACTOR * timeoutMs) -
      performance.now();
    for (;;) {
      const wait = left();
      if (wait > 0) {
        let timer: NodeJS.Timeout | undefined;
        const tick = new Promise<typeof TICK>((r) => (timer = setTimeout(() => r(TICK), wait)));
        try {
          const r = await Promise.race([tracked, tick]);
          if (r !== TICK) return r;
        } finally {
          clearTimeout(timer);
        }
        continue;
      }
      await afterPendingIo();
      if (settled) return tracked;
      if (left() <= 0) throw new TimeoutError(timeoutMs, what);
    }
  };

  let degraded = false;
  let retryAt = 0;
  let recovering: Promise<void> | null = null;

  const degrade = (err: unknown) => {
    opts.onFallback?.(err);
    retryAt = now() + RETRY_MS;
    if (degraded) return;
    degraded = true;
    opts.onState?.('degraded', 0);
  };

  /** Carries every open window into Redis; shared again once all are written, else still degraded. */
  const recover = async () => {
    const carries = local.pending(now());
    try {
      await withTimeout(
        Promise.all(
          carries.map((c) =>
            client.eval(CARRY_SCRIPT, {
              keys: [`${prefix}:${c.identity}`, `${prefix}-carried:${c.identity}`],
              // This process's count stands for each process's: the others may not have carried theirs yet, and
              // one that is still cut off keeps counting its share. Too strict for the window's rest, never too loose.
              arguments: [String(c.own * size()), String(c.spent), String(c.ttlMs)],
            }),
          ),
        ),
        Math.max(timeoutMs, 2_000),
        { what: 'redis rate-limit carry-over' },
      );
      local.clear();
      degraded = false;
      opts.onState?.('shared', carries.length);
    } catch (err) {
      degrade(err); // a window carried twice counts twice: too strict for a minute, never too loose
    }
  };

  /** True while counting stays local: Redis is away, or not yet tried again, or the carry-over failed. */
  const stillDegraded = async (): Promise<boolean> => {
    if (!degraded) return false;
    if (!client.isReady || now() < retryAt) return true;
    await (recovering ??= recover().finally(() => (recovering = null)));
    return degraded;
  };

  return {
    state: () => (degraded ? 'degraded' : 'shared'),
    async consume(identity, limit, points = 1) {
      opts.fleet?.join();
      if (!(await stillDegraded()))
        try {
          const r = await awaitRedis(redis.consume(identity, limit, points), 'redis rate-limit store');
          if (!degraded) {
            local.note(identity, r.consumed ?? 0, r.resetMs, now());
            return r;
          }
          // Another call failed while this one was under way: the local share decides, counting these points as
          // Redis's (not carried back). A refusal by Redis stands: the key had spent its budget there.
          return r.allowed ? local.consume(identity, limit, points, size(), now(), false) : r;
        } catch (err) {
          degrade(err);
        }
      return local.consume(identity, limit, points, size(), now());
    },
    async adjust(identity, limit, points) {
      if (points === 0) return;
      if (!(await stillDegraded()))
        try {
          await awaitRedis(redis.adjust(identity, limit, points), 'redis rate-limit store');
          return;
        } catch (err) {
          degrade(err); // counted below, where the next consume looks, and carried back with it
        }
      local.adjust(identity, points, now());
    },
  };
}
