import { HORIZON_KEY } from './bars.ts';
import type { Db } from './db.ts';

/** The tables of market data: inputs, history, the ingest log and its rejects (not accounts, keys, names…). */
const MARKET_TABLES = [
  'tickers_latest',
  'supply_records',
  'supply_latest',
  'fx_rates',
  'price_bars',
  'mining_figures',
  'ingest_log',
  'ingest_rejects',
] as const;

/**
 * Removes every row of market data, and the history cache's claim on it (`meta.history_horizon`), in one transaction:
 * what a demo first start stopped midway had written (`src/start/demo.ts`), before it is generated again.
 */
export async function clearMarketData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const table of MARKET_TABLES) await tx.query(`DELETE FROM ${table}`);
    await tx.query('DELETE FROM meta WHERE key = $1', [HORIZON_KEY]);
  });
}
