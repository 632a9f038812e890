import { ChartCache } from './charts.ts';
import { silentLogger } from '../core/log.ts';
import type { Logger } from '../core/log.ts';
import { nextTurn } from '../core/turns.ts';
import { applyPoint, RESOLUTION_MS, RETENTION_MS } from '../engine/history.ts';
import type { EngineConfig, MarketSnapshot } from '../engine/snapshot.ts';
import { computeSnapshot } from '../engine/snapshot.ts';
import { DEFAULT_FX_MAX_AGE_MS, MarketState } from '../engine/state.ts';
import type { Bar, Resolution } from '../engine/types.ts';
import type { PollOutcome, PreparedSnapshot } from '../ingest/pipeline.ts';
import { pollAll } from '../ingest/pipeline.ts';
import type { RejectCounter } from '../ingest/validate.ts';
import type { SourceSnapshot, TickerSource } from '../ingest/types.ts';
import type { Db } from '../store/db.ts';
import { readBars, readBarsMany, rollupBars } from '../store/bars.ts';
import { readLatestMining } from '../store/mining.ts';
import type { BackfillOptions, BackfillResult } from './backfill.ts';
import { backfill } from './backfill.ts';
import type { CacheSetup } from './history-load.ts';
import { loadState, saveCache } from './history-load.ts';
import { Intake, snapshotKey } from './intake.ts';
import type { MiningFigures } from './mining.ts';
import { PendingWrites } from './persist.ts';
import type { Pruned } from './retention.ts';
import { pruneMarketData } from './retention.ts';
import { SourceHealthBook } from './source-health.ts';
import type { SourceHealth } from './source-health.ts';
import { StoredFx } from './stored-fx.ts';

const DAY_MS = 86_400_000;
/** `MarketService.stored` when the store holds everything the state does. */
const STORED: Promise<void> = Promise.resolve();
const HOUR_MS = 3_600_000;
/** Bars of one history read at most, about (one asset's window may be longer): some 30 ms of the embedded store. */
const READ_BARS = 2_000;

export interface MarketServiceOptions {
  db: Db;
  engine: EngineConfig;
  /** Live sources polled every tick. */
  sources?: readonly TickerSource[];
  /** Time between ticks; default 60,000 ms. */
  tickIntervalMs?: number;
  /** A source that has not answered after this long is cut off for this tick; default 10,000 ms. */
  sourceTimeoutMs?: number;
  /** Clock, for tests; default `Date.now`. */
  now?: () => number;
  log?: Logger;
  /**
   * Work that follows each scheduled tick (`start`), with the tick's clock: the demo keeps its mining figures current
   * this way (`demoMiningRefresher`). A failure is logged; the next tick runs regardless.
   */
  afterTick?: (now: number) => Promise<void>;
}

export type { SourceHealth } from './source-health.ts';
export type { BackfillOptions, BackfillResult } from './backfill.ts';

/**
 * The market engine in service: loads state from the store, runs ingestion ticks (poll → validate → aggregate →
 * persist → publish), backfills recordings, rolls up aged history, and serves the current snapshot from memory.
 */
export class MarketService {
  readonly state: MarketState;
  /** Every rejected input record since start, with recent examples (reported by `/healthz`). */
  readonly rejects: RejectCounter;
  /** Charts and candles, built once per snapshot and shared by the price API and the graph. */
  readonly charts = new ChartCache();
  private readonly intake: Intake;
  private readonly health: SourceHealthBook;
  private current: MarketSnapshot | null = null;
  /** Called with each snapshot as it is published (`onSnapshot`). */
  private readonly listeners = new Set<(snapshot: MarketSnapshot) => void>();
  private timer: NodeJS.Timeout | null = null;
  /** The history cache, when `useHistoryCache` set one. */
  private cache: CacheSetup | null = null;
  /** Whether the state holds exactly what the store holds (false while a load, tick or backfill is under way). */
  private inSync = false;
  /** A write failed: the state has points the store has not, for the rest of this process. */
  private diverged = false;
  private running: Promise<void> | null = null;
  /** The write a first start left for after start-up (`storeLater`), until `start` runs it. */
  private deferred: (() => Promise<void>) | null = null;
  private fromCache = false;
  /** Resolves once the store holds what the state holds from start-up on (`STORED` without `storeLater`). */
  private stored: Promise<void> = STORED;
  private storedNow: () => void = () => undefined;
  /** The service's clock (`MarketServiceOptions.now`): what its snapshots, history and charts are reckoned by. */
  readonly now: () => number;
  private readonly log: Logger;
  lastTick: { at: number; ms: number; tickers: number; rejected: number } | null = null;

  constructor(private readonly opts: MarketServiceOptions) {
    this.now = opts.now ?? Date.now;
    const windows = opts.engine.fxMaxAgeMs;
    this.state = new MarketState((source) => windows?.get(source) ?? DEFAULT_FX_MAX_AGE_MS);
    this.log = opts.log ?? silentLogger;
    this.intake = new Intake(new Set(opts.engine.assets.map((a) => a.id)), this.now);
    this.rejects = this.intake.rejects;
    this.health = new SourceHealthBook(this.log, opts.sources);
  }

  /** Per-source health (freshness, last error, failures by reason), by source id: what `/healthz` reports. */
  get sources(): ReadonlyMap<string, SourceHealth> {
    return this.health.entries;
  }

  /** The snapshot of the last tick; null before the first aggregation. */
  get snapshot(): MarketSnapshot | null {
    return this.current;
  }

  /**
   * Calls `listener` with every snapshot this service publishes from now on (each tick, each `ingest`), right after
   * it becomes `snapshot`: live subscriptions and the snapshot's publication to other processes hang on it. A
   * listener's failure is logged and does not stop the others. Returns the function that removes it.
   */
  onSnapshot(listener: (snapshot: MarketSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * Keeps a history cache in the file `path` (`history-cache.ts`): written once the state is loaded or built (by
   * `start`), after each hourly rollup and by `stop`, and read by `load` while the store's claim on it stands. Call
   * before `load` or `backfill`. Meant for the embedded store, whose one process is the only writer.
   */
  useHistoryCache(path: string): void {
    this.cache = { path, fx: new StoredFx() };
  }

  /** Loads the latest inputs and the history windows from the store (the closed history from the cache, if any). */
  async load(): Promise<{ fromCache: boolean }> {
    this.inSync = false;
    const fromCache = await loadState(this.opts.db, this.state, this.now(), {
      cache: this.cache,
      currencies: this.opts.engine.currencies.map((c) => c.code),
    });
    this.inSync = true;
    this.fromCache = fromCache;
    return { fromCache };
  }

  /**
   * Whether the last `load` read the history cache: then the cache on disk already holds what start-up loaded, and
   * start-up left next to no garbage (8 of 127 MB of heap, measured).
   */
  get loadedFromCache(): boolean {
    return this.fromCache;
  }

  /** One ingestion tick: poll every live source, ingest what came back, recompute and publish. */
  async tick(): Promise<MarketSnapshot> {
    const outcomes = await pollAll(this.opts.sources ?? [], this.opts.sourceTimeoutMs ?? 10_000);
    return this.ingest(outcomes);
  }

  /** Ingests already-polled snapshots (also used by tests and the CLI), recomputes and publishes. */
  async ingest(outcomes: readonly PollOutcome[]): Promise<MarketSnapshot> {
    const t0 = performance.now();
    const now = this.now();
    const pending = new PendingWrites();
    this.inSync = false;
    let tickers = 0;
    let rejected = 0;
    for (const o of outcomes) {
      this.health.record(o, now);
      if (!o.snapshot) continue;
      const p = await this.prepare(o.snapshot, now);
      if (!p) continue;
      this.health.delivered(o.source, p);
      tickers += p.tickers.length;
      rejected += p.rejected;
      pending.add(p);
    }
    const { snapshot, points } = computeSnapshot(this.state, this.opts.engine, now);
    for (const pt of points) {
      applyPoint(this.state.history(pt.asset), pt, now);
      pending.touch(pt.asset, pt.ts);
    }
    if (rejected > 0)
      this.log.warn('rejected input records', { count: rejected, byReason: this.intake.unsaved.byReason() });
    await this.write(pending, now);
    // With history still to store (`storeLater`), the store holds less than the state until that is done.
    this.inSync = this.historyStored;
    this.current = snapshot;
    this.lastTick = { at: now, ms: Math.round(performance.now() - t0), tickers, rejected };
    for (const l of this.listeners) {
      try {
        l(snapshot);
      } catch (err) {
        this.log.error('snapshot listener failed', {
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
    return snapshot;
  }

  /**
   * Replays a recording in time order: each snapshot is aggregated at its own time and folded into history.
   * Already-ingested snapshots (in the ingest log, or earlier in this run) are skipped, so a second run changes
   * nothing while the log keeps them (7 days, `retention.ts`). Snapshots are read and validated a chunk at a time,
   * with one ingest-log read per chunk; the writes go out every `flushEvery` new snapshots (each batch one
   * transaction).
   */
  async backfill(
    source: TickerSource,
    onProgress?: (done: number) => void,
    opts: BackfillOptions = {},
  ): Promise<BackfillResult> {
    this.inSync = false;
    const ctx = {
      db: this.opts.db,
      state: this.state,
      engine: this.opts.engine,
      intake: this.intake,
      now: this.now,
      write: (pending: PendingWrites, atomic?: boolean) => this.write(pending, this.now(), atomic),
    };
    const r = await backfill(ctx, source, onProgress, opts);
    this.inSync = r.writeRest === null;
    return r;
  }

  /**
   * Has `write` (what a first start built in memory and has not stored yet, `deferLastWrite`) run once the service
   * has started (`start`), in the background: until it is done, the history the store serves (charts, candles, mining
   * figures) waits for it, scheduled ticks are skipped and no history cache is written. Ready sooner by the time the
   * embedded store takes to write a dataset (about 10 s for the demo's 456,000 rows), the same answers.
   */
  storeLater(write: () => Promise<void>): void {
    this.deferred = write;
    this.inSync = false;
    this.stored = new Promise<void>((resolve) => (this.storedNow = resolve));
  }

  /** Resolves once the store holds what the state held at start-up (at once, unless `storeLater` is under way). */
  whenStored(): Promise<void> {
    return this.stored;
  }

  /** False while a write left for after start-up (`storeLater`) is under way. */
  get historyStored(): boolean {
    return this.stored === STORED;
  }

  /** Writes what `pending` collected; a write that fails leaves memory ahead of the store for good (no cache). */
  private async write(pending: PendingWrites, now: number, atomic = true): Promise<void> {
    try {
      const fx = await pending.flush(this.opts.db, this.state, this.intake.unsaved, now, atomic);
      this.cache?.fx.apply(fx);
    } catch (err) {
      this.diverged = true;
      throw err;
    }
  }

  /**
   * Writes the history cache (`useHistoryCache`) when the state holds exactly what the store holds: after a load, a
   * backfill or a tick that completed, never after a failed write. Resolves to whether it wrote one.
   */
  async saveHistoryCache(): Promise<boolean> {
    if (!this.cache || !this.inSync || this.diverged) return false;
    await saveCache(this.opts.db, this.state, this.cache, this.now());
    return true;
  }

  /** Downsamples history that aged out of its resolution: 5-minute → hourly after 2 days, hourly → daily after 95. */
  async rollup(): Promise<{ fiveMinute: number; hourly: number }> {
    const now = this.now();
    const db = this.opts.db;
    const fiveMinute = await rollupBars(db, '5m', '1h', HOUR_MS, now - RETENTION_MS['5m']);
    const hourly = await rollupBars(db, '1h', '1d', DAY_MS, now - RETENTION_MS['1h']);
    return { fiveMinute, hourly };
  }

  /**
   * Deletes the append-only market data that aged past its retention (`retention.ts`: supply history, the ingest log
   * and chain figures older than 7 days, each key's newest kept), a few thousand rows per statement. Run by `start`
   * after each hourly rollup.
   */
  async prune(): Promise<Pruned> {
    return pruneMarketData(this.opts.db, this.now());
  }

  /** History bars for charts, read from SQL (once a write left for after start-up is done: `storeLater`). */
  async readBars(asset: string, res: Resolution, from: number, to: number): Promise<Bar[]> {
    await this.stored;
    return readBars(this.opts.db, asset, res, from, to);
  }

  /**
   * History bars of several assets over one window (asset → bars, oldest first): one SQL read per
   * {@link READ_BARS} bars or so, a turn of the event loop between them. The embedded store holds the loop for its
   * whole read: four coins' 90-day hourly charts in one read held every other request ~120 ms.
   */
  async readBarsMany(
    assets: readonly string[],
    res: Resolution,
    from: number,
    to: number,
  ): Promise<Map<string, Bar[]>> {
    await this.stored;
    const unique = [...new Set(assets)];
    const perRead = Math.max(1, Math.floor(READ_BARS / ((to - from) / RESOLUTION_MS[res] + 1)));
    if (unique.length <= perRead) return readBarsMany(this.opts.db, unique, res, from, to);
    const out = new Map<string, Bar[]>();
    for (let i = 0; i < unique.length; i += perRead) {
      if (i > 0) await nextTurn();
      for (const [a, bars] of await readBarsMany(this.opts.db, unique.slice(i, i + perRead), res, from, to))
        out.set(a, bars);
    }
    return out;
  }

  /** The newest proof-of-work network figures of each of `assets` (one SQL read; coins without any are absent). */
  async readMining(assets: readonly string[]): Promise<Map<string, MiningFigures>> {
    await this.stored;
    return readLatestMining(this.opts.db, assets);
  }

  /**
   * Ticks every `tickIntervalMs` (never overlapping), rolling up history and pruning old market data (`prune`) once an
   * hour, the first time at the first tick. With a history cache, writes it at once when start-up built the history
   * from the store (not when it read the cache: rewriting it then would only move its horizon, and a process killed
   * while writing it would leave the next restart without one), and after each rollup, between ticks.
   */
  start(): void {
    if (this.timer) return;
    const every = this.opts.tickIntervalMs ?? 60_000;
    let lastRollup = 0;
    const run = (work: () => Promise<void>, failure: string): void => {
      if (this.running) return;
      this.running = (async () => {
        try {
          await work();
        } catch (err) {
          this.log.error(failure, { error: err instanceof Error ? err.message : String(err) });
        } finally {
          this.running = null;
        }
      })();
    };
    const deferred = this.deferred;
    this.deferred = null;
    if (deferred) {
      // After the current turn: the start-up that called `start` says it is ready first.
      setImmediate(() =>
        run(async () => {
          const t0 = performance.now();
          try {
            await deferred();
            // What aged past its resolution while start-up ran was written after start-up's rollup: roll it up now.
            await this.rollup();
            this.log.info('history stored', { ms: Math.round(performance.now() - t0) });
          } finally {
            this.stored = STORED;
            this.inSync = true;
            this.storedNow();
          }
          await this.checkpoint();
        }, 'history not stored'),
      );
    } else if (!this.loadedFromCache) run(() => this.checkpoint(), 'history cache not written');
    this.timer = setInterval(() => {
      run(async () => {
        await this.tick();
        if (this.now() - lastRollup >= HOUR_MS) {
          lastRollup = this.now();
          await this.rollup();
          await this.checkpoint();
          await this.pruneLogged();
        }
        await this.opts.afterTick?.(this.now());
      }, 'tick failed');
    }, every);
    this.timer.unref();
  }

  /** Stops ticking (waiting for a tick under way), writes the history cache, closes the sources. */
  async stop(): Promise<void> {
    const started = this.timer !== null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    if (started) await this.checkpoint();
    for (const s of this.opts.sources ?? []) await s.close?.();
  }

  /** `prune`, what it deleted and its failure logged (the next hour tries again; the tick goes on). */
  private async pruneLogged(): Promise<void> {
    const t0 = performance.now();
    try {
      const pruned = await this.prune();
      if (pruned.supplyRecords + pruned.ingestLog + pruned.miningFigures > 0)
        this.log.info('market data pruned', { ...pruned, ms: Math.round(performance.now() - t0) });
    } catch (err) {
      this.log.warn('market data not pruned', { error: err instanceof Error ? err.message : String(err) });
    }
  }

  /** `saveHistoryCache`, its failure logged (the cache is an optimisation: the store stays the truth). */
  private async checkpoint(): Promise<void> {
    try {
      await this.saveHistoryCache();
    } catch (err) {
      this.log.warn('history cache not written', { error: err instanceof Error ? err.message : String(err) });
    }
  }

  /** Validates a raw snapshot, skips one already ingested, and applies its records to the in-memory state. */
  private async prepare(raw: SourceSnapshot, now: number): Promise<PreparedSnapshot | null> {
    const p = this.intake.validate(raw, now);
    if (!p || (await this.intake.logged(this.opts.db, [p])).has(snapshotKey(p))) return null;
    this.intake.apply(this.state, p);
    return p;
  }
}
