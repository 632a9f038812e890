/**
 * Per-request context of the markets subgraph: what every resolver receives as its third argument. Built once per
 * request so that the loaders batch and cache within that request only.
 *
 * The loader shape is DataLoader's (`load`, `loadMany`); the factory that builds the context arrives with the
 * resolvers and satisfies these types with real DataLoaders.
 */
import type { Db } from '../../src/store/db.ts';
import type { AssetMarket } from '../../src/engine/types.ts';
import type { CategoryMarket } from '../../src/engine/categories.ts';

/** The part of DataLoader's API resolvers use: `load` batches keys of one tick into one call. */
export interface Loader<K, V> {
  load(key: K): Promise<V>;
  loadMany(keys: readonly K[]): Promise<Array<V | Error>>;
}

export interface MarketsLoaders {
  /** Coin id → its current market; null when the coin is not tracked. Every `Coin.__resolveReference` uses it. */
  coin: Loader<string, AssetMarket | null>;
  /** Category id → its market figures; null for an unknown category. */
  category: Loader<string, CategoryMarket | null>;
  /** Quote currency code (lowercase) → USD per unit now; null when no rate is held. */
  usdRate: Loader<string, number | null>;
}

export interface MarketsContext {
  db: Db;
  loaders: MarketsLoaders;
}
