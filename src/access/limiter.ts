import { performance } from 'node:perf_hooks';
import { TimeoutError, withTimeout } from '../core/timeout.ts';
import type { Fleet } from './fleet.ts';
import { LocalShare, SLOTS } from './local-share.ts';

import type { RateLimitResult } from './local-share.ts';

export type { RateLimitResult };

/**
 * Counts per identity (`key:<id>` or `ip:<addr>`) in a sliding window: requests (one point each) or query cost (its
 * points). A window is counted in tenths ("slots"): a call is admitted when the points of the last 11 slots plus its
 * own are at most the limit, so no window of the limit's length, wherever it falls, holds more than the limit (the
 * 11th slot stands for the part of a window that reaches into the oldest tenth). A point leaves the count 11 tenths
 * after the start of the slot it was counted in. Only admitted points count: a caller who keeps asking is admitted
 * again as its earlier requests leave, as with the local share (`local-share.ts`), which is the same rule.
 */
export interface RateLimitStore {
  /** Counts `points` (default 1) against a budget of `limitPerMinute`; a refusal counts nothing. */
  consume(identity: string, limitPerMinute: number, points?: number): Promise<RateLimitResult>;
  /**
   * Corrects what was counted by `points`: fewer (negative: a refund, from the newest slots back, never below zero)
   * or more (in the current slot). Never refuses.
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
 * Counts in this process's memory: the default (one process, no Redis), by the local share's rule with a fleet of one
 * (the whole budget). `prefix` names a family of counters in Redis; in memory each limiter has counts of its own, so
 * it is taken only so that both kinds are made alike. `windowSeconds` is the window's length (default one minute).
 */
export function createMemoryLimiter(prefix = KEY_PREFIX, windowSeconds = WINDOW_SECONDS): RateLimitStore {
  void prefix;
  const counts = new LocalShare(windowSeconds * 1000);
  return {
    consume: (identity, limit, points = 1) =>
      Promise.resolve(counts.consume(identity, limit, points, 1, Date.now())),
    adjust: (identity, _limit, points) => Promise.resolve(counts.adjust(identity, points, Date.now())),
  };
}

/** How the limiter counts now: `local` (one process, no Redis), `shared` (in Redis), `degraded` (Redis away). */
export type LimiterState = 'local' | 'shared' | 'degraded';

/** A Redis-backed store that says whether it is counting in Redis or in its local share. */
export interface SharedRateLimitStore extends RateLimitStore {
  state(): Exclude<LimiterState, 'local'>;
}

/** The node-redis v4+ call the limiter makes: EVAL of its scripts. */
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
  /** The clock (ms) of the local share and of retries; default `Date.now`. Redis's slots follow Redis's clock. */
  now?: () => number;
}

/**
 * What every script starts with: `KEYS[1]` is an identity's hash of slot → points, `ARGV[1]` a slot's length (ms).
 * The clock is Redis's (`TIME`), not the calling process's: every router counts in the same slots however their
 * clocks disagree. Slots that have left the span (11) are deleted; `live` holds the others, `used` their sum. A key of
 * another type (the fixed windows' counter of an earlier release, a minute at most) is replaced. `keep` sets the TTL:
 * until the newest slot leaves the span.
 */
const PRELUDE = `local slotMs = tonumber(ARGV[1])
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local slot = math.floor(now / slotMs)
local span = ${SLOTS + 1}
if redis.call('type', KEYS[1]).ok ~= 'hash' then redis.call('del', KEYS[1]) end
local h = redis.call('hgetall', KEYS[1])
local live, used = {}, 0
for i = 1, #h, 2 do
  local s, c = tonumber(h[i]), tonumber(h[i + 1])
  if s <= slot - span then redis.call('hdel', KEYS[1], h[i]) else
    used = used + c
    live[#live + 1] = { s, c }
  end
end
local function keep()
  local newest = slot
  for _, e in ipairs(live) do if e[1] > newest then newest = e[1] end end
  if redis.call('exists', KEYS[1]) == 1 then redis.call('pexpire', KEYS[1], (newest + span) * slotMs - now) end
end
`;

/**
 * Counts `ARGV[3]` points against a limit of `ARGV[2]`: admitted (into the current slot) when `used` plus them is at
 * most the limit. Returns `{ admitted 1|0, consumed, resetMs }`: consumed is `used` after the call (with the points
 * when refused: what it would have been); resetMs is when enough of the oldest slots leave the span for the same call
 * to fit (refused) or for one point more (admitted); when fewer are counted, when all have; a window when none are.
 */
const CONSUME_SCRIPT = `${PRELUDE}local limit, points = tonumber(ARGV[2]), tonumber(ARGV[3])
local allowed = used + points <= limit
if allowed and points > 0 then
  redis.call('hincrby', KEYS[1], slot, points)
  live[#live + 1] = { slot, points }
  used = used + points
end
keep()
local need = allowed and 1 or used + points - limit
table.sort(live, function(a, b) return a[1] < b[1] end)
local at, freed = now + (span - 1) * slotMs, 0
for _, e in ipairs(live) do
  at = (e[1] + span) * slotMs
  freed = freed + e[2]
  if freed >= need then break end
end
return { allowed and 1 or 0, allowed and used or used + points, math.max(1, at - now) }`;

/** Corrects the count by `ARGV[2]` points: more into the current slot, fewer from the newest slots back. */
const ADJUST_SCRIPT = `${PRELUDE}local left = tonumber(ARGV[2])
if left > 0 then
  redis.call('hincrby', KEYS[1], slot, left)
  live[#live + 1] = { slot, left }
else
  table.sort(live, function(a, b) return a[1] > b[1] end)
  for _, e in ipairs(live) do
    if left >= 0 then break end
    local take = math.min(e[2], -left)
    if take == e[2] then redis.call('hdel', KEYS[1], e[1]) else redis.call('hincrby', KEYS[1], e[1], -take) end
    left = left + take
  end
end
keep()
return 0`;

/**
 * Adds one process's local counts (`ARGV[2]`) into the current slot of the sliding count (`KEYS[1]`), once Redis is
 * back. `KEYS[2]` holds the largest pre-outage count any process has carried (`ARGV[3]`), so that it is counted once,
 * however many processes saw it: absent, it is what the count already holds (Redis kept its data), or 0 (Redis came
 * back empty). The marker lasts `ARGV[4]` ms. Points carried count from now: later than they were admitted, so too
 * strict for a while, never too loose. Returns the count.
 */
const CARRY_SCRIPT = `${PRELUDE}local base = tonumber(redis.call('get', KEYS[2]) or used)
local spent = math.max(base, tonumber(ARGV[3]))
local add = tonumber(ARGV[2]) + spent - base
if add > 0 then
  redis.call('hincrby', KEYS[1], slot, add)
  live[#live + 1] = { slot, add }
end
keep()
redis.call('set', KEYS[2], spent, 'PX', ARGV[4])
return used + add`;

/** Reads the consume script's answer; anything else is a failure (the limiter degrades). */
function counted(reply: unknown, limit: number): RateLimitResult {
  if (!Array.isArray(reply) || reply.length !== 3 || !reply.every((x) => typeof x === 'number'))
    throw new Error(`unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
  const [admitted, consumed, resetMs] = reply as [number, number, number];
  const allowed = admitted === 1;
  return { allowed, limit, remaining: allowed ? Math.max(0, limit - consumed) : 0, resetMs, consumed };
}

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
 * client; every count is one atomic script (EVAL: Redis keeps it compiled by its SHA1), on a hash of slot → points per
 * identity (`cw:rl:key:<id>`), by the sliding rule of {@link RateLimitStore}. The client is not closed here.
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
  const slotMs = String((windowSeconds * 1000) / SLOTS);
  /** A disconnected client fails at once instead of queueing the command until it reconnects. */
  const run = (script: string, identity: string, args: number[]): Promise<unknown> =>
    client.isReady
      ? client.eval(script, { keys: [`${prefix}:${identity}`], arguments: [slotMs, ...args.map(String)] })
      : Promise.reject(new Error('redis client not ready'));
  const redis = {
    consume: async (identity: string, limit: number, points: number) =>
      counted(await run(CONSUME_SCRIPT, identity, [limit, points]), limit),
    adjust: (identity: string, points: number) => run(ADJUST_SCRIPT, identity, [points]),
  };
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
              arguments: [slotMs, String(c.own * size()), String(c.spent), String(Math.ceil(c.ttlMs))],
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
            local.note(identity, (r.consumed ?? 0) - (r.allowed ? 0 : points), now());
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
          await awaitRedis(redis.adjust(identity, points), 'redis rate-limit store');
          return;
        } catch (err) {
          degrade(err); // counted below, where the next consume looks, and carried back with it
        }
      local.adjust(identity, points, now());
    },
  };
}
