/** Per-request context of the bridge subgraph: the active deployment and the store holding its snapshots. */
import type { Db } from '../../src/store/db.ts';
import type { Deployment } from '../../src/bridge/deployment.ts';
import type { StoredSnapshot } from '../../src/bridge/snapshots.ts';

/** The part of DataLoader's API resolvers use. */
export interface Loader<K, V> {
  load(key: K): Promise<V>;
  loadMany(keys: readonly K[]): Promise<Array<V | Error>>;
}

export interface BridgeLoaders {
  /** Network → its latest snapshot (signed by the pinned key when there is one); null before the first. */
  latestSnapshot: Loader<string, StoredSnapshot | null>;
  /** Uppercase ticker → the markets coin id; null when the catalog does not track it. */
  coinIdByTicker: Loader<string, string | null>;
}

export interface BridgeContext {
  db: Db;
  deployment: Deployment;
  loaders: BridgeLoaders;
}
