import { withTimeout } from '../core/timeout.ts';

/**
 * Key revisions: how the lookup cache in keys.ts stays exact. Every key write (create, approve, reject, revoke) bumps
 * the revision after its commit; a cached lookup is reused only while the revision is unchanged, so a revocation is
 * seen by the very next request in every process that shares the revision.
 *
 * Which one per mode:
 * - embedded PGlite (one process, every write goes through it): {@link LocalRevision}, free.
 * - `REDIS_URL` set: {@link RedisRevision}, one GET per keyed request, shared by all processes.
 * - `DATABASE_URL` without Redis: {@link NoCacheRevision}, no cache, an indexed lookup per keyed request (another
 *   process may revoke a key at any time and nothing would tell this one).
 */
export interface KeyRevision {
  /** The current revision. May throw (Redis down): the lookup then skips the cache. */
  current(): Promise<number>;
  /** Called after every committed key write. */
  bump(): Promise<void>;
  /** True → the service keeps no cache at all. */
  readonly noCache?: boolean;
}

/** An in-process counter: exact when this process makes every key write (the embedded store). */
export class LocalRevision implements KeyRevision {
  private rev = 0;

  current(): Promise<number> {
    return Promise.resolve(this.rev);
  }

  bump(): Promise<void> {
    this.rev++;
    return Promise.resolve();
  }
}

/** Disables the cache: every lookup reads the database. */
export class NoCacheRevision implements KeyRevision {
  readonly noCache = true;
  private rev = 0;

  /** A new value on every call, so nothing could ever match. */
  current(): Promise<number> {
    return Promise.resolve(++this.rev);
  }

  bump(): Promise<void> {
    return Promise.resolve();
  }
}

/** What {@link RedisRevision} needs of a node-redis (v4+) client. */
export interface RedisRevisionClient {
  /** node-redis: false while disconnected (commands would wait in its offline queue). */
  readonly isReady?: boolean;
  get(key: string): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** The Redis key holding the revision. */
export const REVISION_KEY = 'cw:keys:rev';

export interface RedisRevisionOptions {
  /** Redis key; default `cw:keys:rev`. */
  key?: string;
  /** A call slower than this fails (the lookup then reads the database); default 250 ms. */
  timeoutMs?: number;
}

/**
 * Sets the revision to max(previous + 1, server time in µs). Time-based rather than a plain INCR so that a value is
 * never reused after Redis restarts empty: a counter starting again at 1 could match a revision some process cached
 * before the restart and serve a revoked key from its cache.
 */
const BUMP_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local nxt = (tonumber(redis.call('GET', KEYS[1]) or '0') or 0) + 1
if now > nxt then nxt = now end
local s = string.format('%.0f', nxt)
redis.call('SET', KEYS[1], s)
return s`;

/**
 * The revision in Redis key `cw:keys:rev`, shared by every process on that Redis: one GET per keyed request. Fails
 * fast (not connected, or slower than `timeoutMs`) so that a Redis outage costs a database lookup, not a wait.
 */
export class RedisRevision implements KeyRevision {
  private readonly key: string;
  private readonly timeoutMs: number;

  constructor(
    private readonly client: RedisRevisionClient,
    opts: RedisRevisionOptions = {},
  ) {
    this.key = opts.key ?? REVISION_KEY;
    this.timeoutMs = opts.timeoutMs ?? 250;
  }

  async current(): Promise<number> {
    const v = await this.call(() => this.client.get(this.key));
    // Missing (fresh or restarted Redis): start at a new time-based value rather than at anything cached before.
    return v === null || v === undefined ? this.bumpTo() : Number(v);
  }

  async bump(): Promise<void> {
    await this.bumpTo();
  }

  private async bumpTo(): Promise<number> {
    const v = Number(
      await this.call(() => this.client.eval(BUMP_SCRIPT, { keys: [this.key], arguments: [] })),
    );
    if (!Number.isFinite(v)) throw new Error(`unexpected revision ${v} in Redis key ${this.key}`);
    return v;
  }

  private call<T>(fn: () => Promise<T>): Promise<T> {
    if (this.client.isReady === false) return Promise.reject(new Error('redis is not connected'));
    return withTimeout(fn(), this.timeoutMs, { what: 'redis' });
  }
}
