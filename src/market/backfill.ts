/**
 * Replaying a recording through the engine (`MarketService.backfill`): each snapshot aggregated at its own time and
 * folded into history, in time order, with the writes batched.
 */
import { breathe } from '../core/turns.ts';
import { applyPoint } from '../engine/history.ts';
import type { EngineConfig } from '../engine/snapshot.ts';
import { computeCore } from '../engine/snapshot.ts';
import type { MarketState } from '../engine/state.ts';
import { SupplyMemo } from '../engine/supply-memo.ts';
import type { TickerSource } from '../ingest/types.ts';
import type { Queryable } from '../store/db.ts';
import type { Intake } from './intake.ts';
import { LogReader, snapshotKey } from './intake.ts';
import { PendingWrites } from './persist.ts';

/** Options of {@link MarketService.backfill}. */
export interface BackfillOptions {
  /**
   * Write after this many new snapshots, each batch in one transaction; default 100. `Infinity` writes once, at the
   * end: nothing of the run is stored before it is all aggregated.
   */
  flushEvery?: number;
  /** Called before each write with the number of snapshots it stores. */
  onWrite?: (snapshots: number) => void;
  /**
   * Leave the last write to the caller: the backfill resolves once everything is aggregated, with `writeRest`, which
   * writes what is left statement by statement (the store free for other work between them). Default false.
   */
  deferLastWrite?: boolean;
}

/** What a backfill did; `writeRest` is the write it left to the caller (`deferLastWrite`), else null. */
export interface BackfillResult {
  snapshots: number;
  skipped: number;
  writeRest: (() => Promise<void>) | null;
}

/** What a backfill works with: the service's store, state, engine rules, intake, and its way of writing. */
export interface BackfillContext {
  db: Queryable;
  state: MarketState;
  engine: EngineConfig;
  intake: Intake;
  /** The service's clock. */
  now(): number;
  /** Writes `pending`: in one transaction when `atomic` (default), else statement by statement. */
  write(pending: PendingWrites, atomic?: boolean): Promise<void>;
}

/**
 * Replays `source` until it is exhausted. Snapshots already ingested (in the ingest log, or earlier in this run) are
 * skipped, so a second run changes nothing while the log keeps them (7 days, `retention.ts`); the rest are applied,
 * aggregated at their own time (supply verified only when it can have changed: `SupplyMemo`) and written every
 * `flushEvery`. The log is read ahead by time (`LogReader`): one read for a replay into a store that has none of it.
 */
export async function backfill(
  ctx: BackfillContext,
  source: TickerSource,
  onProgress?: (done: number) => void,
  opts: BackfillOptions = {},
): Promise<BackfillResult> {
  const every = opts.flushEvery ?? 100;
  const pending = new PendingWrites();
  const supply = new SupplyMemo();
  const log = new LogReader(ctx.db);
  const ac = new AbortController();
  // Keys applied and not yet written (those written, the log has: `log` reads them again).
  const unwritten = new Set<string>();
  const flush = async (): Promise<void> => {
    opts.onWrite?.(pending.size);
    await ctx.write(pending);
    unwritten.clear();
    log.forget();
  };
  // Points fold into the history windows as of now, not of their own time: a 5-minute or hourly bar already past its
  // window now is never made, instead of made and dropped when the replay moves on (the store never held it either).
  const start = ctx.now();
  let done = 0;
  let skipped = 0;
  // One snapshot at a time, applied as soon as it is validated: a snapshot held back outlives the young generation.
  for (let raw = await source.poll(ac.signal); raw; raw = await source.poll(ac.signal)) {
    // A source in memory answers within microtasks: let the loop turn now and then (probes, signals).
    await breathe();
    done++;
    const p = ctx.intake.validate(raw, raw.ts);
    const key = p ? snapshotKey(p) : '';
    if (!p || unwritten.has(key) || (await log.has(p))) {
      skipped++;
      continue;
    }
    unwritten.add(key);
    ctx.intake.apply(ctx.state, p);
    pending.add(p);
    for (const pt of computeCore(ctx.state, ctx.engine, p.ts, undefined, supply).points) {
      applyPoint(ctx.state.history(pt.asset), pt, Math.max(start, p.ts));
      pending.touch(pt.asset, pt.ts);
    }
    if (pending.size >= every) await flush();
    onProgress?.(done);
  }
  if (opts.deferLastWrite) return { snapshots: done, skipped, writeRest: () => ctx.write(pending, false) };
  await flush();
  return { snapshots: done, skipped, writeRest: null };
}
