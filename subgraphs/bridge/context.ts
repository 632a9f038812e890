/**
 * Per-request context of the bridge subgraph: the bridge service, its active deployment, the request's clock and
 * staleness threshold, and the loaders. Built once per request (`contextFor` in `index.ts`) so that the
 * loaders batch and cache within that request only.
 */
import type { Deployment } from '../../src/bridge/model.ts';
import type { BridgeService } from '../../src/bridge/service.ts';
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
  /** The bridge service (`src/services.ts`): the same reads and staleness rule as the REST bridge API. */
  bridge: BridgeService;
  /** The service's active deployment. */
  deployment: Deployment;
  /** The clock of this request, UNIX ms: every `ageSeconds` and `stale` of the request is measured from it. */
  now: number;
  /** A snapshot whose figures are older than this (ms) is served with `stale: true` (`BRIDGE_STALE_AFTER_MS`). */
  staleAfterMs: number;
  loaders: BridgeLoaders;
}
