/**
 * Per-request DataLoaders of the markets subgraph, created with the context (`contextFor`), never shared between
 * requests. Batch functions return one result per key, in key order, with an `Error` for each missing key.
 *
 * `barsByCoin`: the keys of a batch are grouped by window `(res, from, to)` and each group is one multi-asset SQL
 * read (`readBarsMany`), so `coins(first: 250) { chart(days: 30) }` reads history once. DataLoader's cache (keyed by
 * `id|res|from|to`) dedupes identical keys within the request: the same chart asked twice reads SQL once.
 */
import DataLoader from 'dataloader';
import { bucketStart } from '../../src/engine/history.ts';
import type { MarketService } from '../../src/market/service.ts';
import type { AssetMarket, Bar } from '../../src/engine/types.ts';
import type { CategoryMarket } from '../../src/engine/categories.ts';
import type { BarsKey, MarketsLoaders, MarketsStore, SourceStatus } from './context.ts';
import { notReady } from './errors.ts';
import { miningLoader } from './mining.ts';

/** Code (and message) of the Error a missing coin gets from `coinById`. */
export const COIN_NOT_FOUND = 'COIN_NOT_FOUND';

/** The store of a `MarketService`: its snapshot, its SQL history, its in-memory open day and its sources. */
export function storeOf(market: MarketService): MarketsStore {
  const rejected = market.rejects.bySource();
  return {
    sources: () => {
      // Polled sources (with their freshness), then any source seen only through its rejects.
      const out: SourceStatus[] = [...market.sources].map(([name, h]) => ({
        name,
        kind: h.kind,
        lastError: h.lastError,
        failures: Object.values(h.failures).reduce((a, b) => a + b, 0),
        lastSeen: h.lastSnapshotTs,
        rejected: rejected.get(name) ?? 0,
      }));
      for (const [name, n] of rejected)
        if (!market.sources.has(name)) out.push({ name, lastSeen: null, rejected: n });
      return out.sort((a, b) => a.name.localeCompare(b.name));
    },
    snapshot: () => market.snapshot,
    readBarsMany: (ids, res, from, to) => market.readBarsMany(ids, res, from, to),
    readMining: (ids) => market.readMining(ids),
    openDailyBar: (id, now) => openBarOf(market, id, '1d', now),
    openBar: (id, res, now) => openBarOf(market, id, res, now),
  };
}

/** The in-memory bar of the bucket of `res` containing `now` (the still open day or hour), if the coin has one. */
function openBarOf(market: MarketService, id: string, res: '1d' | '1h', now: number): Bar | null {
  const h = market.state.histories.get(id);
  const bars = res === '1d' ? h?.bars1d : h?.bars1h;
  const last = bars?.[bars.length - 1];
  return last && last.ts === bucketStart(now, res) ? last : null;
}

const barsKey = (k: BarsKey): string => `${k.id}|${k.res}|${k.from}|${k.to}`;

/** Names of the batched loaders, as reported to {@link LoaderHooks.onBatch}. */
export type BatchedLoader = 'coinById' | 'barsByCoin' | 'category' | 'usdRate' | 'mining';

export interface LoaderHooks {
  /** Called with the keys of each batch a loader dispatches (tests record them). */
  onBatch?(loader: BatchedLoader, keys: readonly unknown[]): void;
}

/** Fresh loaders for one request. */
export function createLoaders(store: MarketsStore, hooks: LoaderHooks = {}): MarketsLoaders {
  const seen = (loader: BatchedLoader, keys: readonly unknown[]): void => hooks.onBatch?.(loader, keys);
  const snapshotOrThrow = () => {
    const s = store.snapshot();
    if (!s) throw notReady();
    return s;
  };

  // One snapshot read per batch; results in key order, an Error per missing key.
  const coinById = new DataLoader<string, AssetMarket>(async (ids) => {
    seen('coinById', ids);
    const markets = snapshotOrThrow().markets;
    return ids.map((id) => markets.get(id) ?? new Error(COIN_NOT_FOUND));
  });

  const barsByCoin = new DataLoader<BarsKey, Bar[], string>(
    async (keys) => {
      seen('barsByCoin', keys);
      const windows = new Map<string, BarsKey[]>();
      for (const k of keys) {
        const w = `${k.res}|${k.from}|${k.to}`;
        const group = windows.get(w);
        if (group) group.push(k);
        else windows.set(w, [k]);
      }
      const read = new Map<string, Bar[]>();
      await Promise.all(
        [...windows.values()].map(async (group) => {
          const first = group[0] as BarsKey;
          const byId = await store.readBarsMany(
            group.map((k) => k.id),
            first.res,
            first.from,
            first.to,
          );
          for (const k of group) read.set(barsKey(k), byId.get(k.id) ?? []);
        }),
      );
      return keys.map((k) => read.get(barsKey(k)) ?? []);
    },
    { cacheKeyFn: barsKey },
  );

  const category = new DataLoader<string, CategoryMarket | null>(async (ids) => {
    seen('category', ids);
    const byId = new Map(snapshotOrThrow().categories.map((c) => [c.id, c]));
    return ids.map((id) => byId.get(id) ?? null);
  });

  const usdRate = new DataLoader<string, number | null>(async (codes) => {
    seen('usdRate', codes);
    const rates = snapshotOrThrow().rates;
    return codes.map((c) => rates.now(c));
  });

  const orNull = (v: AssetMarket | Error): AssetMarket | null | Error =>
    v instanceof Error ? (v.message === COIN_NOT_FOUND ? null : v) : v;
  const coin = {
    load: async (id: string) => {
      const v = orNull(await coinById.loadMany([id]).then((r) => r[0] as AssetMarket | Error));
      if (v instanceof Error) throw v;
      return v;
    },
    loadMany: async (ids: readonly string[]) => (await coinById.loadMany(ids)).map(orNull),
  };

  const mining = miningLoader(store, (ids) => seen('mining', ids));

  return { coinById, coin, barsByCoin, category, usdRate, mining };
}
