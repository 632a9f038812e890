import type { Bar, Resolution } from '../engine/types.ts';
import type { Queryable } from './db.ts';
import { arrayParams, inSlices, numbers } from './sql.ts';

/** One bar of one asset at one resolution, as written to `price_bars`. */
export interface BarRow {
  asset: string;
  res: Resolution;
  bar: Bar;
}

// Merging an incoming bar into a stored one: earliest open, latest close (and the volume and market cap at that
// close), widest high/low. Commutative and idempotent, so replays and out-of-order writes change nothing.
const MERGE_BAR = `
  open = CASE WHEN EXCLUDED.open_ts < b.open_ts THEN EXCLUDED.open ELSE b.open END,
  open_ts = LEAST(b.open_ts, EXCLUDED.open_ts),
  high = GREATEST(b.high, EXCLUDED.high),
  low = LEAST(b.low, EXCLUDED.low),
  close = CASE WHEN EXCLUDED.close_ts > b.close_ts THEN EXCLUDED.close ELSE b.close END,
  volume_usd = CASE WHEN EXCLUDED.close_ts > b.close_ts THEN EXCLUDED.volume_usd ELSE b.volume_usd END,
  market_cap_usd = CASE WHEN EXCLUDED.close_ts > b.close_ts THEN EXCLUDED.market_cap_usd ELSE b.market_cap_usd END,
  close_ts = GREATEST(b.close_ts, EXCLUDED.close_ts)`;

/** Length of a bucket of each resolution, ms. */
const BUCKET_MS: Readonly<Record<Resolution, number>> = { '5m': 300_000, '1h': 3_600_000, '1d': 86_400_000 };

/**
 * A claim kept in `meta` (`history_horizon`): since it was made, no bar ending at or before `horizon` and no FX rate
 * of a day ending then has been written. Whoever writes one retracts the claim in the same transaction (`saveBars`,
 * `saveFx`, `rollupBars` do), so a copy of that part of the history taken when the claim was made, and named by its
 * `token`, is exactly what the store holds for as long as the claim stands.
 */
export interface HorizonClaim {
  token: string;
  horizon: number;
}

export const HORIZON_KEY = 'history_horizon';

/** Makes (or replaces) the claim. */
export async function claimHistoryHorizon(q: Queryable, claim: HorizonClaim): Promise<void> {
  await q.query(
    'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
    [HORIZON_KEY, JSON.stringify(claim)],
  );
}

/** The claim standing now, if any. */
export async function historyHorizonClaim(q: Queryable): Promise<HorizonClaim | null> {
  const r = await q.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [HORIZON_KEY]);
  const v = r.rows[0]?.value;
  if (v === undefined) return null;
  const c = JSON.parse(v) as Partial<HorizonClaim>;
  return typeof c.token === 'string' && typeof c.horizon === 'number'
    ? { token: c.token, horizon: c.horizon }
    : null;
}

/** Retracts the claim when its horizon is at or after `end` (the earliest end of something just written). */
// CASE keeps the cast to the claim's own row (AND does not promise an order).
export const RETRACT_HORIZON = `DELETE FROM meta
  WHERE key = '${HORIZON_KEY}' AND CASE WHEN key = '${HORIZON_KEY}' THEN (value::json->>'horizon')::int8 END >= $1`;

/**
 * Merges bars into `price_bars`. Rows must have unique (asset, res, ts) within one call. Retracts a history horizon
 * claim (`HorizonClaim`) that one of them ends before.
 */
export async function saveBars(q: Queryable, rows: readonly BarRow[]): Promise<void> {
  if (rows.length === 0) return;
  await inSlices(rows, (slice) => saveBarSlice(q, slice));
  let end = Infinity;
  for (const r of rows) end = Math.min(end, r.bar.ts + BUCKET_MS[r.res]);
  await q.query(RETRACT_HORIZON, [end]);
}

async function saveBarSlice(q: Queryable, rows: readonly BarRow[]): Promise<void> {
  const cols = arrayParams(rows, [
    (r) => r.asset,
    (r) => r.res,
    (r) => r.bar.ts,
    (r) => r.bar.open,
    (r) => r.bar.high,
    (r) => r.bar.low,
    (r) => r.bar.close,
    (r) => r.bar.openTs,
    (r) => r.bar.closeTs,
    (r) => r.bar.volumeUsd,
    (r) => r.bar.marketCapUsd,
  ]);
  await q.query(
    `INSERT INTO price_bars AS b (asset, res, ts, open, high, low, close, open_ts, close_ts, volume_usd, market_cap_usd)
     SELECT * FROM unnest($1::text[], $2::text[], $3::int8[], $4::float8[], $5::float8[], $6::float8[],
       $7::float8[], $8::int8[], $9::int8[], $10::float8[], $11::float8[])
     ON CONFLICT (asset, res, ts) DO UPDATE SET ${MERGE_BAR}`,
    cols,
  );
}

/**
 * Rollup: folds `fine` bars older than `before` into `coarse` buckets (same merge rule), then deletes them.
 * Returns the number of fine bars removed.
 */
export async function rollupBars(
  q: Queryable,
  fine: Resolution,
  coarse: Resolution,
  coarseMs: number,
  before: number,
): Promise<number> {
  // It rewrites history behind any horizon: first the claim goes.
  await q.query('DELETE FROM meta WHERE key = $1', [HORIZON_KEY]);
  await q.query(
    `INSERT INTO price_bars AS b (asset, res, ts, open, high, low, close, open_ts, close_ts, volume_usd, market_cap_usd)
     SELECT asset, $2, (ts / $3) * $3,
       (array_agg(open ORDER BY open_ts))[1], max(high), min(low), (array_agg(close ORDER BY close_ts DESC))[1],
       min(open_ts), max(close_ts), (array_agg(volume_usd ORDER BY close_ts DESC))[1],
       (array_agg(market_cap_usd ORDER BY close_ts DESC))[1]
     FROM price_bars WHERE res = $1 AND ts < $4 GROUP BY asset, (ts / $3) * $3
     ON CONFLICT (asset, res, ts) DO UPDATE SET ${MERGE_BAR}`,
    [fine, coarse, coarseMs, before],
  );
  const del = await q.query<{ n: number }>(
    'WITH d AS (DELETE FROM price_bars WHERE res = $1 AND ts < $2 RETURNING 1) SELECT count(*)::int AS n FROM d',
    [fine, before],
  );
  return del.rows[0]?.n ?? 0;
}

/**
 * An asset's bars (grouped by asset) as one JSON array of numbers, oldest first, nine per bar (`barsOf`), which
 * PostgreSQL writes and `JSON.parse` reads back exactly (both sides use the shortest text of each double): the
 * embedded store spends most of a row-per-bar read building rows, 4.7 s of a restart's 5 s for 262,000 bars.
 */
const BARS_JSON = `'[' || string_agg(concat_ws(',', ts, open, high, low, close, open_ts, close_ts,
  coalesce(volume_usd::text, 'null'), coalesce(market_cap_usd::text, 'null')), ',' ORDER BY ts) || ']' AS bars`;

/** Bars of one asset at one resolution with from ≤ ts ≤ to, oldest first (charts). */
export async function readBars(
  q: Queryable,
  asset: string,
  res: Resolution,
  from: number,
  to: number,
): Promise<Bar[]> {
  return (await readBarsMany(q, [asset], res, from, to)).get(asset) ?? [];
}

/**
 * Bars of several assets at one resolution with from ≤ ts ≤ to, in one query (the graph's batched chart reads):
 * a map from asset to its bars, oldest first; an asset without bars maps to an empty list. Read as {@link BARS_JSON}:
 * four 90-day hourly charts read row per bar held the embedded store's event loop 0.4 s in one piece.
 */
export async function readBarsMany(
  q: Queryable,
  assets: readonly string[],
  res: Resolution,
  from: number,
  to: number,
): Promise<Map<string, Bar[]>> {
  const out = new Map<string, Bar[]>(assets.map((a) => [a, []]));
  if (assets.length === 0) return out;
  const r = await q.query<{ asset: string; bars: string }>(
    `SELECT asset, ${BARS_JSON} FROM price_bars
     WHERE asset = ANY($1::text[]) AND res = $2 AND ts >= $3 AND ts <= $4 GROUP BY asset`,
    [[...new Set(assets)], res, from, to],
  );
  for (const row of r.rows) out.set(row.asset, barsOf(numbers(row.bars)));
  return out;
}

/**
 * All bars of one resolution with `ts >= since`, by asset (ascending), each asset's oldest first: what the engine's
 * in-memory windows load, as {@link BARS_JSON}.
 */
export async function loadHistory(
  q: Queryable,
  res: Resolution,
  since: number,
): Promise<{ asset: string; bars: Bar[] }[]> {
  const r = await q.query<{ asset: string; bars: string }>(
    `SELECT asset, ${BARS_JSON} FROM price_bars WHERE res = $1 AND ts >= $2 GROUP BY asset ORDER BY asset`,
    [res, since],
  );
  return r.rows.map((row) => ({ asset: row.asset, bars: barsOf(numbers(row.bars)) }));
}

/** Bars from their fields in a row: ts, open, high, low, close, open_ts, close_ts, volume_usd, market_cap_usd. */
function barsOf(v: readonly (number | null)[]): Bar[] {
  const out = new Array<Bar>(v.length / 9);
  for (let i = 0, j = 0; j < v.length; i++, j += 9) {
    out[i] = {
      ts: v[j] as number,
      open: v[j + 1] as number,
      high: v[j + 2] as number,
      low: v[j + 3] as number,
      close: v[j + 4] as number,
      openTs: v[j + 5] as number,
      closeTs: v[j + 6] as number,
      volumeUsd: v[j + 7] ?? null,
      marketCapUsd: v[j + 8] ?? null,
    };
  }
  return out;
}
