/**
 * Where automatic persisted queries are kept: in this process (bounded LRU, the default) or, when the router runs
 * scaled out, in Redis so that a query registered through one router is found by the others. The Redis cache is the
 * setup Apollo documents for a shared APQ cache: keyv over `@keyv/redis` behind `KeyvAdapter`, errors as misses.
 */
import { ErrorsAreMissesCache } from '@apollo/utils.keyvaluecache';
import type { KeyValueCache } from '@apollo/utils.keyvaluecache';
import { KeyvAdapter } from '@apollo/utils.keyvadapter';
import type { Logger } from '../src/core/log.ts';
import { withTimeout } from '../src/core/timeout.ts';

/**
 * The same Keyv class, typed twice: `KeyvAdapter` (CommonJS) sees keyv's `.d.cts`, `@keyv/redis` (ESM) its `.d.ts`,
 * and TypeScript tells the two declarations apart by their private fields.
 */
type KeyvOfAdapter = ConstructorParameters<typeof KeyvAdapter<string>>[0];

/** Namespace (Redis key prefix) of APQ entries. */
export const APQ_NAMESPACE = 'cw:apq';

export interface SharedApqCache {
  cache: KeyValueCache<string>;
  close(): Promise<void>;
}

/**
 * The APQ cache in Redis at `url` (its own connection). Non-blocking: while Redis is down a lookup is a miss at once
 * (the client resends the query text) and a registration is dropped; nothing waits for a reconnect.
 */
export async function redisApqCache(url: string, log: Pick<Logger, 'warn'>): Promise<SharedApqCache> {
  const { createKeyvNonBlocking } = await import('@keyv/redis'); // loaded only with REDIS_URL
  const keyv = createKeyvNonBlocking(url, { namespace: APQ_NAMESPACE, connectionTimeout: 1_000 });
  let lastWarned = 0;
  keyv.on('error', (err: unknown) => {
    if (Date.now() - lastWarned < 60_000) return; // at most once a minute through an outage
    lastWarned = Date.now();
    log.warn('APQ cache (redis) failed: lookups are misses', {
      error: err instanceof Error ? err.message : String(err),
    });
  });
  return {
    cache: new ErrorsAreMissesCache(new KeyvAdapter(keyv as unknown as KeyvOfAdapter)),
    close: () => withTimeout(keyv.disconnect(), 2_000).catch(() => {}),
  };
}
