import { withTimeout } from '../core/timeout.ts';
import type { createClient } from 'redis';
import { createAccess } from '../access/access.ts';
import { createApiLimiter } from '../access/api-limits.ts';
import type { ApiLimiter } from '../access/api-limits.ts';
import type { Access } from '../access/access.ts';
import { ApiKeyService } from '../accounts/keys.ts';
import { RedisFleet } from '../access/fleet.ts';
import { COST_KEY_PREFIX, createMemoryLimiter, createRedisLimiter } from '../access/limiter.ts';
import type { LimiterState, RateLimitStore, SharedRateLimitStore } from '../access/limiter.ts';
import { LocalRevision, NoCacheRevision, RedisRevision } from '../access/revision.ts';
import { resolvePepper } from '../access/secrets.ts';
import { UsageRecorder } from '../access/usage-recorder.ts';
import type { AppConfig } from '../config.ts';
import type { Logger } from '../core/log.ts';
import type { Db } from '../store/db.ts';

export type RedisClient = ReturnType<typeof createClient>;

/** The access layer assembled from configuration: keys, their lookup cache and the rate-limit store. */
export interface AccessRuntime {
  keys: ApiKeyService;
  access: Access;
  /** The `/api` rate limits (`API_RATE_LIMITS`), counted by the same store as the price API's budgets. */
  apiLimiter: ApiLimiter;
  /** The shared Redis connection when `REDIS_URL` is set (the router keeps its APQ cache there too). */
  redis: RedisClient | null;
  /**
   * This process's request statistics (`src/access/usage.ts`), over the same store: the access check counts per key,
   * the REST access hook and the router per plan and cost, the accounts subgraph reads them. `close` writes them.
   */
  usage: UsageRecorder;
  /** How budgets are counted now, for `/healthz` and the metrics. */
  limiter: LimiterHealth;
  close(): Promise<void>;
}

/** What `/healthz` and the metrics say of the limiter (docs/plans-and-limits.md, "When Redis is unreachable"). */
export interface LimiterHealth {
  /** `local` (no Redis), `shared` (counted in Redis) or `degraded` (Redis away: this process counts its share). */
  state(): LimiterState;
  /** The processes each budget is divided among while degraded (`ROUTER_PROCESSES`, or as learned from Redis). */
  processes(): number;
}

/**
 * Embedded (PGlite, one process): in-memory limiter, in-process key cache invalidated on every write.
 * `REDIS_URL`: budgets and key revocations shared through Redis. `DATABASE_URL` without Redis: no key cache (an
 * indexed lookup per keyed request), since another process may revoke a key at any time.
 */
export async function createAccessRuntime(
  cfg: Pick<
    AppConfig,
    'redisUrl' | 'databaseUrl' | 'dataDir' | 'apiKeyPepper' | 'trustedProxies' | 'apiRateLimits'
  > &
    Partial<Pick<AppConfig, 'routerProcesses' | 'rateLimitWindowSeconds'>> &
    Partial<
      Pick<AppConfig, 'costBudgets' | 'concurrencyLimits' | 'subscriptionLimits' | 'subscriptionIdLimits'>
    >,
  db: Db,
  log: Logger,
): Promise<AccessRuntime> {
  const pepper = resolvePepper({
    env: cfg.apiKeyPepper,
    dataDir: cfg.dataDir,
    scaleOut: Boolean(cfg.databaseUrl),
  });
  let redis: RedisClient | null = null;
  if (cfg.redisUrl) {
    const { createClient } = await import('redis'); // loaded only with REDIS_URL
    redis = createClient({
      url: cfg.redisUrl,
      // Tried again every half second at most while Redis is away (node-redis: up to 2.2 s), so that every process
      // carries its counts back and counts in Redis again soon after it returns (src/access/limiter.ts).
      socket: {
        reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 500) + Math.random() * 100,
      },
    });
    redis.on('error', (err: Error) => log.warn('redis error', { error: err.message }));
    await redis.connect();
  }
  const revision = redis
    ? new RedisRevision(redis)
    : cfg.databaseUrl
      ? new NoCacheRevision()
      : new LocalRevision();
  const keys = new ApiKeyService(db, { pepper, revision });
  let lastFallbackLog = 0;
  // During a Redis outage each process counts its share of every budget; say so at most once a minute.
  const onFallback = (err: unknown) => {
    if (Date.now() - lastFallbackLog < 60_000) return;
    lastFallbackLog = Date.now();
    log.warn('rate limiter counts locally: Redis is unreachable', {
      error: err instanceof Error ? err.message : String(err),
    });
  };
  const fleet = redis ? new RedisFleet(redis, { configured: cfg.routerProcesses }) : null;
  const onState = (state: 'shared' | 'degraded', carried: number) => {
    if (state === 'degraded')
      log.warn('rate limiter degraded: each budget is divided among the processes', {
        processes: fleet?.size() ?? 1,
      });
    else log.info('rate limiter shared again: the open windows were carried into Redis', { carried });
  };
  const windowSeconds = cfg.rateLimitWindowSeconds;
  const shared: SharedRateLimitStore[] = [];
  const counter = (prefix?: string): RateLimitStore => {
    if (!redis || !fleet) return createMemoryLimiter(prefix, windowSeconds);
    const store = createRedisLimiter(redis, {
      onFallback,
      onState,
      fleet,
      ...(prefix ? { prefix } : {}),
      ...(windowSeconds ? { windowSeconds } : {}),
    });
    shared.push(store);
    return store;
  };
  const limiter = counter();
  const costLimiter = counter(COST_KEY_PREFIX);
  const usage = new UsageRecorder(db, { log });
  const access = createAccess({
    keys,
    limiter,
    costLimiter,
    costBudgets: cfg.costBudgets,
    concurrency: cfg.concurrencyLimits,
    subscriptionStreams: cfg.subscriptionLimits,
    subscriptionIds: cfg.subscriptionIdLimits,
    trustedProxies: cfg.trustedProxies,
    usage,
  });
  return {
    keys,
    access,
    apiLimiter: createApiLimiter(limiter, cfg.apiRateLimits),
    redis,
    usage,
    limiter: {
      state: () => (!fleet ? 'local' : shared.some((s) => s.state() === 'degraded') ? 'degraded' : 'shared'),
      processes: () => fleet?.size() ?? 1,
    },
    async close() {
      await keys.flush?.();
      await fleet?.close();
      await usage.close();
      // Pending commands are waited for while Redis answers (at most 2 s); during an outage the client is dropped at
      // once (waiting for a reconnect would hold the shutdown up for ever).
      if (redis?.isReady) await withTimeout(redis.close(), 2_000).catch(() => redis.destroy());
      else redis?.destroy();
    },
  };
}
