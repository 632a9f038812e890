import { bucketStart, lowerBound, RESOLUTION_MS, RETENTION_MS } from '../engine/history.ts';
import type { MarketState } from '../engine/state.ts';
import type { Bar, Resolution } from '../engine/types.ts';
import type { Ticker } from '../ingest/types.ts';
import type { PreparedSnapshot } from '../ingest/pipeline.ts';
import type { RejectCounter } from '../ingest/validate.ts';
import type { Db } from '../store/db.ts';
import type { BarRow } from '../store/bars.ts';
import { saveBars } from '../store/bars.ts';
import { logSnapshots, saveFx, saveRejects, saveSupply, saveTickers } from '../store/inputs.ts';
import { saveMiningFigures } from '../store/mining.ts';

const RESOLUTIONS: Resolution[] = ['5m', '1h', '1d'];

/**
 * Collects what a tick (or a run of backfilled snapshots) must write, then writes it in one transaction:
 * raw inputs (tickers, supply, FX, chain figures), the touched history bars (read back from the in-memory windows, already merged), the ingest log
 * and reject counts. Bars merge idempotently in SQL, so a replayed or retried batch changes nothing.
 */
export class PendingWrites {
  private snapshots: PreparedSnapshot[] = [];
  private touched = new Set<string>();

  add(s: PreparedSnapshot): void {
    this.snapshots.push(s);
  }

  touch(asset: string, ts: number): void {
    for (const res of RESOLUTIONS) this.touched.add(`${asset}|${res}|${bucketStart(ts, res)}`);
  }

  get size(): number {
    return this.snapshots.length;
  }

  async flush(db: Db, state: MarketState, rejects: RejectCounter, now: number): Promise<void> {
    const snaps = this.snapshots;
    const touched = this.touched;
    this.snapshots = [];
    this.touched = new Set();
    const bars = collectBars(state, touched, now);
    const rej = new Map<string, { count: number; example: string }>();
    const examples = rejects.examples();
    for (const [reason, count] of Object.entries(rejects.byReason())) {
      rej.set(reason, { count, example: examples.findLast((e) => e.reason === reason)?.sample ?? '' });
    }
    rejects.reset();
    // Only the newest ticker per market matters for `tickers_latest`: one statement per source for the batch.
    const latest = new Map<string, Map<string, Ticker>>();
    for (const s of snaps) {
      let m = latest.get(s.source);
      if (!m) latest.set(s.source, (m = new Map()));
      for (const t of s.tickers) {
        const key = `${t.venue}|${t.base}|${t.quote}`;
        const prev = m.get(key);
        if (!prev || t.ts > prev.ts) m.set(key, t);
      }
    }
    await db.transaction(async (tx) => {
      for (const [source, m] of latest) await saveTickers(tx, [...m.values()], source);
      await saveSupply(
        tx,
        dedupe(
          snaps.flatMap((s) => s.supply),
          (r) => `${r.asset}|${r.kind}|${r.source}|${r.ts}`,
        ),
      );
      await saveFx(
        tx,
        snaps.flatMap((s) => s.fx),
      );
      await saveMiningFigures(
        tx,
        snaps.flatMap((s) => s.mining),
      );
      await saveBars(tx, bars);
      await logSnapshots(
        tx,
        snaps.map((s) => ({
          source: s.source,
          ts: s.ts,
          digest: s.digest,
          tickers: s.tickers.length,
          rejected: s.rejected,
        })),
        now,
      );
      await saveRejects(tx, rej, now);
    });
  }
}

/**
 * Reads the touched bars from the in-memory windows. Bars already trimmed, or past their resolution's retention at
 * `now` (a backfill of old data), are skipped: the coarser bars folded from the same points hold that history.
 */
function collectBars(state: MarketState, touched: Set<string>, now: number): BarRow[] {
  const out: BarRow[] = [];
  for (const key of touched) {
    const [asset, res, tsText] = key.split('|') as [string, Resolution, string];
    const h = state.histories.get(asset);
    if (!h) continue;
    const bars = res === '5m' ? h.bars5m : res === '1h' ? h.bars1h : h.bars1d;
    const ts = Number(tsText);
    if (res !== '1d' && ts + RESOLUTION_MS[res] <= now - RETENTION_MS[res]) continue;
    const bar = findBar(bars, ts);
    if (bar) out.push({ asset, res, bar });
  }
  return out;
}

/** Keeps the last row per key (INSERT … ON CONFLICT cannot touch one row twice in a statement). */
function dedupe<T>(rows: readonly T[], key: (row: T) => string): T[] {
  const m = new Map<string, T>();
  for (const r of rows) m.set(key(r), r);
  return [...m.values()];
}

/** The bar starting exactly at `ts`, if the window holds one. */
function findBar(bars: readonly Bar[], ts: number): Bar | undefined {
  const b = bars[lowerBound(bars, ts)];
  return b?.ts === ts ? b : undefined;
}
