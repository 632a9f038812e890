/** The store's section: the embedded store's folder, or a PostgreSQL server; Redis for what processes share. */
import { resolve } from 'node:path';
import { ConfigError } from '../config-error.ts';

export interface StoreSection {
  /** `DATA_DIR`, default `./data`: the embedded database and the demo dataset live here. */
  dataDir: string;
  /** `DATABASE_URL`: a `postgres://` URL switches from embedded PGlite to a PostgreSQL server. */
  databaseUrl: string | undefined;
  /** `REDIS_URL`: `redis://…` → rate-limit budgets and key revocations shared by every process through Redis. */
  redisUrl: string | undefined;
}

export function storeSection(env: NodeJS.ProcessEnv): StoreSection {
  const url = env.DATABASE_URL || undefined;
  if (url && !/^postgres(ql)?:\/\//.test(url))
    throw new ConfigError('DATABASE_URL must be a postgres:// URL');
  const redis = env.REDIS_URL || undefined;
  if (redis && !/^rediss?:\/\//.test(redis))
    throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
  return { dataDir: resolve(env.DATA_DIR || './data'), databaseUrl: url, redisUrl: redis };
}
