/**
 * Per-request DataLoaders of the identity subgraph, created with the context (`contextFor`), never shared between
 * requests. Batch functions return one result per key, in key order.
 *
 * Each batch is a batch method of the name service: `namesByAccount` answers a whole batch of accounts with two SQL
 * reads, whatever its size (`NameService.namesOfAccounts`: the names of every account, then the addresses of every
 * one of those names, skipped when there are none). So `_entities` over N accounts asking `names { addresses { … } }`
 * costs two reads, not 2 × N. `coinIdByTicker` reads the catalog only.
 */
import DataLoader from 'dataloader';
import { ASSETS } from '../../src/catalog/assets.ts';
import type { NameService } from '../../src/names/service.ts';
import type { BulkOutcome } from '../../src/names/service.ts';
import type { PrimaryName, ReverseKey } from '../../src/names/primary.ts';
import type { NameView } from '../../src/names/types.ts';
import type { IdentityLoaders } from './context.ts';

/** Names of the batched loaders, as reported to {@link LoaderHooks.onBatch}. */
export type BatchedLoader = 'namesByAccount' | 'coinIdByTicker' | 'resolution' | 'primaryName';

export interface LoaderHooks {
  /** Called with the keys of each batch a loader dispatches (tests record them). */
  onBatch?(loader: BatchedLoader, keys: readonly unknown[]): void;
}

/**
 * Uppercase ticker → markets coin id: a kit coin by its kit ticker (`LTC` → `litecoin`), then any other tracked
 * asset by its symbol (`SOL` → `solana`). Kit tickers win a clash of symbols.
 */
export const COIN_ID_BY_TICKER: ReadonlyMap<string, string> = (() => {
  const m = new Map<string, string>();
  for (const a of ASSETS) if (a.kitTicker !== undefined) m.set(a.kitTicker, a.id);
  for (const a of ASSETS) if (!m.has(a.symbol.toUpperCase())) m.set(a.symbol.toUpperCase(), a.id);
  return m;
})();

/** Fresh loaders for one request over the name service. */
export function createLoaders(names: NameService, hooks: LoaderHooks = {}): IdentityLoaders {
  const seen = (loader: BatchedLoader, keys: readonly unknown[]): void => hooks.onBatch?.(loader, keys);

  const namesByAccount = new DataLoader<string, NameView[]>((ids) => {
    seen('namesByAccount', ids);
    return names.namesOfAccounts(ids);
  });

  const coinIdByTicker = new DataLoader<string, string | null>(async (tickers) => {
    seen('coinIdByTicker', tickers);
    return tickers.map((t) => COIN_ID_BY_TICKER.get(t) ?? null);
  });

  // Well-formed (normalised) pairs → their outcomes: every resolution of a request in one read (`resolveNames`).
  const resolution = new DataLoader<{ name: string; asset: string }, BulkOutcome, string>(
    async (pairs) => {
      seen('resolution', pairs);
      return names.resolutions(pairs);
    },
    { cacheKeyFn: (k) => `${k.name}\0${k.asset}` },
  );

  // Validated (asset, address) keys → the primary name served for each, or null: one read per batch.
  const primaryName = new DataLoader<ReverseKey, PrimaryName | null, string>(
    async (keys) => {
      seen('primaryName', keys);
      return names.primary.reverseMany(keys);
    },
    { cacheKeyFn: (k) => `${k.asset}\0${k.address}` },
  );

  return { namesByAccount, coinIdByTicker, resolution, primaryName };
}
