import {
  barsOf,
  bucketStart,
  lowerBound,
  RESOLUTION_MS,
  RESOLUTIONS,
  RETENTION_MS,
} from '../engine/history.ts';
import type { MarketState } from '../engine/state.ts';
import { marketKey } from '../engine/state.ts';
import type { FxRate, MiningRecord, SupplyRecord, Ticker } from '../ingest/types.ts';
import type { PreparedSnapshot } from '../ingest/pipeline.ts';
import type { RejectCounter } from '../ingest/validate.ts';
import type { Db, Queryable } from '../store/db.ts';
import type { BarRow } from '../store/bars.ts';
import { saveBars } from '../store/bars.ts';
import { logSnapshots, saveFx, saveRejects, saveSupply, saveTickers } from '../store/inputs.ts';
import type { SnapshotLogRow } from '../store/inputs.ts';
import { saveMiningFigures } from '../store/mining.ts';

/**
 * Collects what a tick (or a run of backfilled snapshots) must write, then writes it in one transaction:
 * raw inputs (the newest ticker per market, supply, FX, chain figures), the history bars the points touched (read
 * back from the in-memory windows, already merged), the ingest log and reject counts. Each snapshot is folded in as
 * it is added (its tickers are not kept), so a long run holds only what it will write. Bars merge idempotently in
 * SQL, so a replayed or retried batch changes nothing.
 */
export class PendingWrites {
  /** The newest ticker per market (`venue|base|quote`), per source. */
  private latest = new Map<string, Map<string, Ticker>>();
  private supply: SupplyRecord[] = [];
  private fx: FxRate[] = [];
  private mining: MiningRecord[] = [];
  private log: SnapshotLogRow[] = [];
  /** Per asset, the earliest point folded since the last flush: its bars from that bucket on are written. */
  private touched = new Map<string, number>();

  add(s: PreparedSnapshot): void {
    let m = this.latest.get(s.source);
    if (!m) this.latest.set(s.source, (m = new Map()));
    for (const t of s.tickers) {
      const key = marketKey(t);
      const prev = m.get(key);
      if (!prev || t.ts > prev.ts) m.set(key, t);
    }
    for (const r of s.supply) this.supply.push(r);
    for (const r of s.fx) this.fx.push(r);
    for (const r of s.mining) this.mining.push(r);
    this.log.push({
      source: s.source,
      ts: s.ts,
      digest: s.digest,
      tickers: s.tickers.length,
      rejected: s.rejected,
    });
  }

  /** Records that a point of `asset` at `ts` was folded into its history. */
  touch(asset: string, ts: number): void {
    const prev = this.touched.get(asset);
    if (prev === undefined || ts < prev) this.touched.set(asset, ts);
  }

  /** Snapshots added since the last flush. */
  get size(): number {
    return this.log.length;
  }

  /**
   * Writes everything collected, in one transaction (`atomic`, the default), or statement by statement so that the
   * store stays free for other work between them (a first start's history written after start-up; the caller marks
   * the store so that a write cut short is cleared, `src/start/demo.ts`). Resolves to the FX rates it stored (for
   * `StoredFx`).
   */
  async flush(
    db: Db,
    state: MarketState,
    rejects: RejectCounter,
    now: number,
    atomic = true,
  ): Promise<readonly FxRate[]> {
    const { latest, supply, fx, mining, log, touched } = this;
    this.latest = new Map();
    this.supply = [];
    this.fx = [];
    this.mining = [];
    this.log = [];
    this.touched = new Map();
    const bars = collectBars(state, touched, now);
    const rej = new Map<string, { count: number; example: string }>();
    const examples = rejects.examples();
    for (const [reason, count] of Object.entries(rejects.byReason())) {
      rej.set(reason, { count, example: examples.findLast((e) => e.reason === reason)?.sample ?? '' });
    }
    rejects.reset();
    const write = async (tx: Queryable): Promise<void> => {
      // Only the newest ticker per market matters for `tickers_latest`: one statement per source.
      for (const [source, m] of latest) await saveTickers(tx, [...m.values()], source);
      await saveSupply(
        tx,
        dedupe(supply, (r) => `${r.asset}|${r.kind}|${r.source}|${r.ts}`),
      );
      await saveFx(tx, fx);
      await saveMiningFigures(tx, mining);
      await saveBars(tx, bars);
      await logSnapshots(tx, log, now);
      await saveRejects(tx, rej, now);
    };
    if (atomic) await db.transaction(write);
    else await write(db);
    return fx;
  }
}

/**
 * The bars to write: of each touched asset, every bar of its in-memory windows from the bucket of its earliest
 * touched point on (the bars its points changed, and later ones, which merge into the store unchanged). Bars past
 * their resolution's retention at `now` (a backfill of old data) are skipped: the coarser bars folded from the same
 * points hold that history.
 */
function collectBars(state: MarketState, touched: ReadonlyMap<string, number>, now: number): BarRow[] {
  const out: BarRow[] = [];
  for (const [asset, from] of touched) {
    const h = state.histories.get(asset);
    if (!h) continue;
    for (const res of RESOLUTIONS) {
      const bars = barsOf(h, res);
      const keepFrom = res === '1d' ? -Infinity : now - RETENTION_MS[res] - RESOLUTION_MS[res];
      for (let i = lowerBound(bars, bucketStart(from, res)); i < bars.length; i++) {
        const bar = bars[i]!;
        if (bar.ts > keepFrom) out.push({ asset, res, bar });
      }
    }
  }
  return out;
}

/** Keeps the last row per key (INSERT … ON CONFLICT cannot touch one row twice in a statement). */
function dedupe<T>(rows: readonly T[], key: (row: T) => string): T[] {
  const m = new Map<string, T>();
  for (const r of rows) m.set(key(r), r);
  return [...m.values()];
}
