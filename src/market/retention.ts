/**
 * How long the append-only market tables keep their rows (docs/operations.md, "Retention"): run by the market service
 * with its hourly rollup (`MarketService.prune`). None of these rows is read on the way to an answer but the newest
 * of each key, which the store keeps whatever its age (`src/store/retention.ts`).
 */
import type { Db } from '../store/db.ts';
import type { PrunedTable } from '../store/retention.ts';
import { pruneIngestLog, pruneMiningFigures, pruneSupplyRecords, reclaimSpace } from '../store/retention.ts';

const DAY_MS = 86_400_000;

/**
 * Supply history (`supply_records`): 7 days, the longest a reading is used to verify a supply by default
 * (`SUPPLY_MAX_AGE_MS`; what it uses is each key's newest record, `supply_latest`, kept apart).
 */
export const SUPPLY_RETENTION_MS = 7 * DAY_MS;

/**
 * Ingest log (`ingest_log`), by when a snapshot was ingested: 7 days. A recording replayed again within them is
 * skipped; replayed later, its snapshots are applied again (tickers older than those held replace none).
 */
export const INGEST_LOG_RETENTION_MS = 7 * DAY_MS;

/** Chain figures (`mining_figures`): 7 days; each coin and source's newest is kept (the one `Coin.mining` serves). */
export const MINING_RETENTION_MS = 7 * DAY_MS;

/** Rows deleted by one {@link pruneMarketData}, by table. */
export interface Pruned {
  supplyRecords: number;
  ingestLog: number;
  miningFigures: number;
}

/**
 * Deletes what aged past each window at `now`; on the embedded store, the tables that lost rows are then vacuumed
 * (`reclaimSpace`), without which its files would grow as before.
 */
export async function pruneMarketData(db: Db, now: number): Promise<Pruned> {
  const pruned = {
    supplyRecords: await pruneSupplyRecords(db, now - SUPPLY_RETENTION_MS),
    ingestLog: await pruneIngestLog(db, now - INGEST_LOG_RETENTION_MS),
    miningFigures: await pruneMiningFigures(db, now - MINING_RETENTION_MS),
  };
  const tables: [PrunedTable, number][] = [
    ['supply_records', pruned.supplyRecords],
    ['ingest_log', pruned.ingestLog],
    ['mining_figures', pruned.miningFigures],
  ];
  await reclaimSpace(
    db,
    tables.filter(([, n]) => n > 0).map(([table]) => table),
  );
  return pruned;
}
