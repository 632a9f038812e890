/**
 * Retention of the append-only market tables (docs/operations.md, "Retention"): rows older than a time are deleted,
 * oldest first, at most {@link PRUNE_ROWS} per statement with a turn of the event loop between statements (the
 * embedded store holds the loop for a whole statement; the first run on a store that has kept everything may delete
 * hundreds of thousands of rows). What a read takes as "the newest" is never deleted, however old:
 *
 * - `supply_records`: the row each key's `supply_latest` row copies (so `supply_latest` stays the newest row of the
 *   history, as migration 014 built it);
 * - `ingest_log`: each source's newest snapshot (a source that keeps delivering it is still not applied twice);
 * - `mining_figures`: each coin and source's newest observation (what `readLatestMining` picks from).
 *
 * Each function resolves to the rows it deleted; a second run with the same time deletes none. On the embedded store
 * {@link reclaimSpace} then lets new rows use the space of those deleted.
 */
import { nextTurn } from '../core/turns.ts';
import type { Db, Queryable } from './db.ts';

/**
 * Rows one pruning statement deletes at most: some 25 ms of the embedded store. At 5,000 a statement took up to 66 ms,
 * and the first pruning of a fresh server (~124,000 rows) set the light client's p99 of a `bench:fairness` round.
 */
const PRUNE_ROWS = 2_000;

/** Supply records observed before `before` (UNIX ms), but for each key's newest. By the primary key (ts first). */
export function pruneSupplyRecords(q: Queryable, before: number, slice = PRUNE_ROWS): Promise<number> {
  return deleteInSlices(
    q,
    `DELETE FROM supply_records WHERE (ts, asset, kind, source) IN (
       SELECT ts, asset, kind, source FROM supply_records r WHERE ts < $1
         AND NOT EXISTS (SELECT 1 FROM supply_latest l
           WHERE l.asset = r.asset AND l.kind = r.kind AND l.source = r.source AND l.ts = r.ts)
       ORDER BY ts LIMIT $2)`,
    before,
    slice,
  );
}

/** Ingest log rows ingested before `before` (UNIX ms), but for each source's newest snapshot (migration 016). */
export function pruneIngestLog(q: Queryable, before: number, slice = PRUNE_ROWS): Promise<number> {
  return deleteInSlices(
    q,
    `DELETE FROM ingest_log WHERE (source, snapshot_ts, digest) IN (
       SELECT source, snapshot_ts, digest FROM ingest_log g WHERE ingested_at < $1
         AND EXISTS (SELECT 1 FROM ingest_log n WHERE n.source = g.source AND n.snapshot_ts > g.snapshot_ts)
       ORDER BY ingested_at LIMIT $2)`,
    before,
    slice,
  );
}

/** Chain figures observed before `before` (UNIX ms), but for each coin and source's newest (migration 016). */
export function pruneMiningFigures(q: Queryable, before: number, slice = PRUNE_ROWS): Promise<number> {
  return deleteInSlices(
    q,
    `DELETE FROM mining_figures WHERE (asset, source, observed_at) IN (
       SELECT asset, source, observed_at FROM mining_figures m WHERE observed_at < $1
         AND EXISTS (SELECT 1 FROM mining_figures n
           WHERE n.asset = m.asset AND n.source = m.source AND n.observed_at > m.observed_at)
       ORDER BY observed_at LIMIT $2)`,
    before,
    slice,
  );
}

/**
 * Runs `del` (a DELETE of at most `$2` rows older than `$1`) until it deletes fewer than `slice`. Another process
 * deleting the same rows at once (two markets on one PostgreSQL) only ends the run early; the next one goes on.
 */
async function deleteInSlices(q: Queryable, del: string, before: number, slice: number): Promise<number> {
  const counted = `WITH d AS (${del} RETURNING 1) SELECT count(*)::int AS n FROM d`;
  let total = 0;
  for (;;) {
    const n = (await q.query<{ n: number }>(counted, [before, slice])).rows[0]?.n ?? 0;
    total += n;
    if (n < slice) return total;
    await nextTurn();
  }
}

/** The tables pruned here. */
export type PrunedTable = 'supply_records' | 'ingest_log' | 'mining_figures';

/**
 * On the embedded store, `VACUUM` of `tables` (plain, not `FULL`: the files keep their size, and new rows fill the
 * space of those deleted). PGlite runs PostgreSQL in one process without its background workers, so no autovacuum
 * ever does it: measured with a tick's 300 supply records a minute and an hour pruned each hour, the table's files
 * grew about 2.9 MB an hour at the same row count without it, and stayed at 30.7 MB with it (12–37 ms a `VACUUM` for
 * 162,000 rows, 4–115 ms for a million). On PostgreSQL autovacuum does it; nothing is run.
 */
export async function reclaimSpace(db: Db, tables: readonly PrunedTable[]): Promise<void> {
  if (db.kind !== 'pglite') return;
  for (const table of tables) {
    await nextTurn();
    await db.query(`VACUUM ${table}`);
  }
}
