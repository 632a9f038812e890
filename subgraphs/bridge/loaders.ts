/**
 * Per-request DataLoaders of the bridge subgraph, created with the context (`contextFor`), never shared between
 * requests. Batch functions return one result per key, in key order.
 *
 * `latestSnapshot` is the only store read: however often a request asks for `proofOfReserves` (aliases, several
 * selections) or for a from-secret deployment's attesting key (`config.attestation.publicKey`), the snapshot is read
 * once, by the bridge service's batch (`BridgeService.latestSnapshots`: the REST API's read, the newest snapshot of
 * the network, signed by the pinned key when the deployment pins one).
 */
import DataLoader from 'dataloader';
import { ASSETS } from '../../src/catalog/assets.ts';
import type { BridgeService } from '../../src/bridge/service.ts';
import type { StoredSnapshot } from '../../src/bridge/snapshots.ts';
import type { BridgeLoaders } from './context.ts';

/** Names of the batched loaders, as reported to {@link LoaderHooks.onBatch}. */
export type BatchedLoader = 'latestSnapshot' | 'coinIdByTicker';

export interface LoaderHooks {
  /** Called with the keys of each batch a loader dispatches (tests record them). */
  onBatch?(loader: BatchedLoader, keys: readonly unknown[]): void;
}

/**
 * Uppercase ticker → markets coin id, from the catalog: a kit coin by its kit ticker (`LKY` → `luckycoin`), any other
 * tracked asset by its symbol (`BTC` → `bitcoin`). Kit coins come first in the catalog, so they win a shared symbol.
 */
const COIN_ID_BY_TICKER: ReadonlyMap<string, string> = ASSETS.reduce((m, a) => {
  const ticker = a.kitTicker ?? a.symbol.toUpperCase();
  if (!m.has(ticker)) m.set(ticker, a.id);
  return m;
}, new Map<string, string>());

/** The markets coin id of a bridge ticker; null when the catalog does not track it. */
export const coinIdOf = (ticker: string): string | null =>
  COIN_ID_BY_TICKER.get(ticker.toUpperCase()) ?? null;

/** Fresh loaders for one request over the bridge service. */
export function createLoaders(bridge: BridgeService, hooks: LoaderHooks = {}): BridgeLoaders {
  const seen = (loader: BatchedLoader, keys: readonly unknown[]): void => hooks.onBatch?.(loader, keys);

  const latest = new DataLoader<string, StoredSnapshot | null>((networks) => {
    seen('latestSnapshot', networks);
    return bridge.latestSnapshots(networks);
  });

  const coinIdByTicker = new DataLoader<string, string | null>(async (tickers) => {
    seen('coinIdByTicker', tickers);
    return tickers.map(coinIdOf);
  });

  return { latestSnapshot: latest, coinIdByTicker };
}
