/**
 * Where automatic persisted queries are kept: in this process (bounded LRU, the default) or in Redis when the router
 * runs scaled out, so a query registered through one router is found by the others.
 */
import type { KeyValueCache, KeyValueCacheSetOptions } from '@apollo/utils.keyvaluecache';
import type { RedisClient } from '../src/access-runtime.ts';

/** Redis key prefix of APQ entries. */
export const APQ_PREFIX = 'cw:apq:';

export class RedisApqCache implements KeyValueCache<string> {
  constructor(private readonly redis: RedisClient) {}
  async get(key: string): Promise<string | undefined> {
    try {
      return (await this.redis.get(APQ_PREFIX + key)) ?? undefined;
    } catch {
      return undefined; // Redis down: behave as a miss (the client resends the query)
    }
  }
  async set(key: string, value: string, options?: KeyValueCacheSetOptions): Promise<void> {
    try {
      const ttl = options?.ttl;
      await this.redis.set(APQ_PREFIX + key, value, ttl ? { EX: Math.max(1, Math.ceil(ttl)) } : {});
    } catch {
      // not kept: the next request with the hash alone gets PERSISTED_QUERY_NOT_FOUND and resends
    }
  }
  async delete(key: string): Promise<boolean | void> {
    try {
      await this.redis.del(APQ_PREFIX + key);
    } catch {
      // ignore
    }
  }
}
