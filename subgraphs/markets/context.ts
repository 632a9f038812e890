/**
 * Per-request context of the markets subgraph: what every resolver receives as its third argument. Built once per
 * request (`contextFor` in `index.ts`) so that the loaders batch and cache within that request only.
 *
 * The loader shape is DataLoader's (`load`, `loadMany`); `loaders.ts` satisfies these types with real DataLoaders.
 */
import type { ChartCache } from '../../src/market/charts.ts';
import type { AssetMarket, Bar, Resolution } from '../../src/engine/types.ts';
import type { CategoryMarket } from '../../src/engine/categories.ts';
import type { MiningFigures } from '../../src/market/mining.ts';
import type { EngineConfig, MarketSnapshot } from '../../src/engine/snapshot.ts';

/** The part of DataLoader's API resolvers use: `load` batches keys of one tick into one call. */
export interface Loader<K, V> {
  load(key: K): Promise<V>;
  loadMany(keys: readonly K[]): Promise<Array<V | Error>>;
}

/** A history read: bars of coin `id` at resolution `res` with `from ≤ ts ≤ to` (UNIX ms). */
export interface BarsKey {
  id: string;
  res: Resolution;
  from: number;
  to: number;
}

/**
 * What the subgraph reads from the market: the in-memory snapshot, SQL history and the open daily bar. An interface
 * (not `MarketService`) so that tests can count the reads; `storeOf` in `loaders.ts` adapts a `MarketService`.
 */
export interface MarketsStore {
  /** The current snapshot; null before the engine's first tick. */
  snapshot(): MarketSnapshot | null;
  /** History bars of several coins over one window, in one SQL read (coin id → bars, oldest first). */
  readBarsMany(
    ids: readonly string[],
    res: Resolution,
    from: number,
    to: number,
  ): Promise<Map<string, Bar[]>>;
  /** The in-memory daily bar of the UTC day containing `now`, when the coin has one. */
  openDailyBar(id: string, now: number): Bar | null;
  /**
   * The in-memory bar of the UTC day or hour containing `now`, when the coin has one. Optional: without it only the
   * open day is known (`openDailyBar`), and hourly candle ranges end with the last completed hour.
   */
  openBar?(id: string, res: '1d' | '1h', now: number): Bar | null;
  /**
   * Each ingestion source with the time of its newest record and its validation rejects since start (what
   * `/healthz` reports), by name. Optional: a store without it reports no sources (`marketHealth.sources` empty).
   */
  sources?(): readonly SourceStatus[];
  /**
   * The newest proof-of-work network figures of several coins, in one SQL read (coin id → figures; coins without any
   * are absent). Optional: a store without it knows no mining figures (`Coin.mining` is null).
   */
  readMining?(ids: readonly string[]): Promise<Map<string, MiningFigures>>;
}

/** A `Mover`: the coin and its figures already in the currency `topMovers` was asked in. */
export interface MoverRow {
  market: AssetMarket;
  change: number;
  price: number | null;
  volume24h: number | null;
}

/** A `CoinHistory`: the coin, the day asked for (00:00 UTC, UNIX ms) and the bar whose close describes it. */
export interface CoinHistoryRow {
  market: AssetMarket;
  day: number;
  bar: Bar | null;
}

/** One ingestion source as `marketHealth` reads it. */
export interface SourceStatus {
  name: string;
  /** The source's kind; null when only seen through its rejects. */
  kind?: string | null;
  /** The last poll's error; null when it answered whole. */
  lastError?: string | null;
  /** Failed polls (and parts) since start. */
  failures?: number;
  /** Time of the newest record this source delivered, UNIX ms; null when it never delivered. */
  lastSeen: number | null;
  /** Records from this source rejected at validation since start. */
  rejected: number;
}

export interface MarketsLoaders {
  /** Coin id → its current market; an `Error` (`COIN_NOT_FOUND`) when it is not tracked. Every `__resolveReference` uses it. */
  coinById: Loader<string, AssetMarket>;
  /** Coin id → its current market; null when the coin is not tracked (a view of `coinById`, same batch). */
  coin: Loader<string, AssetMarket | null>;
  /** History bars per `{ id, res, from, to }`; identical keys of one request are read once. */
  barsByCoin: Loader<BarsKey, Bar[]>;
  /** Category id → its market figures; null for an unknown category. */
  category: Loader<string, CategoryMarket | null>;
  /** Quote currency code (lowercase) → USD per unit now; null when no rate is held. */
  usdRate: Loader<string, number | null>;
  /** Coin id → its newest mining figures; null when none is stored. One `readMining` per batch. */
  mining: Loader<string, MiningFigures | null>;
}

export interface MarketsContext {
  store: MarketsStore;
  /** The snapshot this request reads, taken on first use and kept for the request; none yet → NOT_READY error. */
  snapshot(): MarketSnapshot;
  engine: EngineConfig;
  /** The clock of this request, UNIX ms (chart windows end here). */
  now: number;
  loaders: MarketsLoaders;
  /** Charts and candles built once per snapshot, shared with the price API (`src/market/charts.ts`). */
  charts: ChartCache;
  /**
   * Each snapshot the market publishes, the current one first (what `Subscription` fields are subscribed to); absent
   * when the subgraph was built without a market that publishes them.
   */
  snapshots?: () => AsyncIterable<MarketSnapshot>;
}
