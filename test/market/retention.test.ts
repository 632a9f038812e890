/**
 * Retention on the embedded store (`src/market/retention.ts`): pruning an hour of supply history each hour keeps the
 * table's files the same size at the same row count, because the pruned tables are vacuumed (PGlite runs no
 * autovacuum). The rules of what is deleted and what is kept are the store contract's (test/store/contract.ts).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SupplyRecord } from '../../src/ingest/types.ts';
import { pruneMarketData, SUPPLY_RETENTION_MS } from '../../src/market/retention.ts';
import type { Db } from '../../src/store/db.ts';
import { saveSupply } from '../../src/store/inputs.ts';
import { openMemoryDb } from '../support/memory-db.ts';

const NOW = Date.UTC(2026, 10, 29, 12);
const MIN = 60_000;
const HOUR = 3_600_000;

let db: Db;
beforeEach(async () => {
  db = await openMemoryDb();
});
afterEach(async () => {
  await db.close();
});

/** A tick's supply records: 100 coins, three kinds. */
const tick = (ts: number): SupplyRecord[] =>
  Array.from({ length: 300 }, (_, i) => ({
    asset: `coin-${i % 100}`,
    kind: (['circulating', 'total', 'max'] as const)[Math.floor(i / 100)] as 'total',
    source: 'demo',
    sourceKind: 'emission',
    value: 1e6 + i + ts / 1e9,
    ts,
  }));

async function ticks(from: number, minutes: number): Promise<void> {
  const rows: SupplyRecord[] = [];
  for (let m = 0; m < minutes; m++) rows.push(...tick(from + m * MIN));
  await saveSupply(db, rows);
}

async function sizes(): Promise<{ rows: number; bytes: number }> {
  const r = await db.query<{ rows: number; bytes: number }>(
    `SELECT (SELECT count(*)::int FROM supply_records) AS rows,
       pg_total_relation_size('supply_records')::float8 AS bytes`,
  );
  return r.rows[0] as { rows: number; bytes: number };
}

it('the embedded store reuses the space of pruned rows: an hour written and an hour pruned each hour, the files stay as large', async () => {
  // Three hours of ticks; each hour, the oldest hour goes and a new one comes.
  const start = NOW - 3 * HOUR;
  await ticks(start, 180);
  const at = (h: number): number => start + SUPPLY_RETENTION_MS + (h + 1) * HOUR;
  const seen: { rows: number; bytes: number }[] = [];
  for (let h = 0; h < 4; h++) {
    // Pruning at `at(h)` deletes what is older than `at(h)` less the window: the oldest hour held.
    const pruned = await pruneMarketData(db, at(h));
    expect(pruned.supplyRecords).toBe(60 * 300);
    await ticks(start + (180 + 60 * h) * MIN, 60);
    seen.push(await sizes());
  }
  expect(seen.map((s) => s.rows)).toEqual([54_000, 54_000, 54_000, 54_000]);
  // Without the VACUUM each hour adds the space of 18,000 rows, ~2.9 MB (heap and index); with it, next to nothing.
  expect(seen[3]!.bytes - seen[1]!.bytes).toBeLessThan(1_000_000);
}, 60_000);
