/**
 * Digests of what a start-up leaves behind, for differential tests of the start-up's data work: the store's market
 * tables (every row, every column, in key order) and the engine's state and snapshot. Numbers are written as JSON
 * writes them (the shortest text that reads back as the same double), so one bar or one ticker that differs in one
 * bit changes the digest. Times that are not part of the data (`ingest_log.ingested_at`, `ingest_rejects.last_at`,
 * the manifest's `generatedAt`) are left out.
 */
import { createHash } from 'node:crypto';
import type { MarketSnapshot } from '../../src/engine/snapshot.ts';
import type { MarketState } from '../../src/engine/state.ts';
import type { Queryable } from '../../src/store/db.ts';

/** Each market table's query: every column that is data, ordered by its key. */
const TABLES: Readonly<Record<string, string>> = {
  price_bars: `SELECT asset, res, ts, open, high, low, close, open_ts, close_ts, volume_usd, market_cap_usd
    FROM price_bars ORDER BY asset COLLATE "C", res COLLATE "C", ts`,
  tickers_latest: `SELECT venue, base, quote, venue_kind, last, bid, ask, base_volume, ts, source FROM tickers_latest
    ORDER BY venue COLLATE "C", base COLLATE "C", quote COLLATE "C"`,
  supply_records: `SELECT asset, kind, source, source_kind, value, ts FROM supply_records
    ORDER BY asset COLLATE "C", kind COLLATE "C", source COLLATE "C", ts`,
  supply_latest: `SELECT asset, kind, source, source_kind, value, ts FROM supply_latest
    ORDER BY asset COLLATE "C", kind COLLATE "C", source COLLATE "C"`,
  fx_rates: 'SELECT currency, day, usd_per_unit, ts, source FROM fx_rates ORDER BY currency COLLATE "C", day',
  mining_figures: `SELECT asset, source, observed_at, algorithm, difficulty, block_reward, block_time_seconds, height,
    network_hashps, tip_time FROM mining_figures ORDER BY asset COLLATE "C", source COLLATE "C", observed_at`,
  ingest_log: `SELECT source, snapshot_ts, digest, tickers, rejected FROM ingest_log
    ORDER BY source COLLATE "C", snapshot_ts, digest COLLATE "C"`,
  ingest_rejects: 'SELECT reason, count, last_example FROM ingest_rejects ORDER BY reason COLLATE "C"',
  // The history cache's claim (`history_horizon`) is the cache's bookkeeping, not data: when it is made depends on when
  // the cache is written (after start-up), not on what the start-up stored.
  meta: `SELECT key, value FROM meta WHERE key <> 'history_horizon' ORDER BY key COLLATE "C"`,
};

/** JSON with maps as sorted entry lists and non-finite numbers spelled out. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Map) {
      return [...(v as Map<unknown, unknown>).entries()].sort(([a], [b]) =>
        String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0,
      );
    }
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    if (typeof v === 'bigint') return Number(v);
    return v;
  });
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** One digest per market table (row counts alongside, for a readable failure). */
export async function storeDigests(db: Queryable): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [table, sql] of Object.entries(TABLES)) {
    const rows = (await db.query<Record<string, unknown>>(sql)).rows.map((r) => normalise(table, r));
    out[table] = `${rows.length} rows ${sha(canonicalJson(rows))}`;
  }
  return out;
}

/** Row values as numbers where the driver may hand back text (int8 on some paths), `generatedAt` left out. */
function normalise(table: string, row: Record<string, unknown>): unknown[] {
  const values = Object.entries(row).map(([k, v]) =>
    typeof v === 'string' &&
    /^(ts|day|open_ts|close_ts|snapshot_ts|observed_at|height|tip_time|count)$/.test(k)
      ? Number(v)
      : v,
  );
  if (table === 'meta' && row['key'] === 'dataset') {
    const manifest = JSON.parse(String(row['value'])) as Record<string, unknown>;
    delete manifest['generatedAt'];
    return [row['key'], manifest];
  }
  return values;
}

/** Digest of the engine's in-memory inputs and history windows. */
export function stateDigest(state: MarketState): string {
  const tickers = [...state.tickers.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sha(
    canonicalJson({
      tickers,
      supply: state.supply,
      fx: state.fx,
      fxDaily: state.fxDaily,
      histories: state.histories,
    }),
  );
}

/** Digest of a published snapshot: every figure served from it (rates as their current value per currency). */
export function snapshotDigest(snap: MarketSnapshot, currencies: readonly string[]): string {
  const tickers = [...snap.tickers].sort((a, b) => {
    const ka = `${a.ticker.venue}|${a.ticker.base}|${a.ticker.quote}`;
    const kb = `${b.ticker.venue}|${b.ticker.base}|${b.ticker.quote}`;
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return sha(
    canonicalJson({
      computedAt: snap.computedAt,
      markets: snap.markets,
      ranked: snap.ranked.map((m) => m.id),
      categories: snap.categories,
      global: snap.global,
      trending: snap.trending,
      rates: currencies.map((c) => [c, snap.rates.now(c)]),
      tickers,
      listedAt: snap.listedAt,
    }),
  );
}
