import type { Bar, Resolution } from '../engine/types.ts';
import type { FxRate, SupplyRecord, Ticker } from '../ingest/types.ts';
import type { Queryable } from './db.ts';

/** One bar of one asset at one resolution, as written to `price_bars`. */
export interface BarRow {
  asset: string;
  res: Resolution;
  bar: Bar;
}

const DAY_MS = 86_400_000;

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

/** Upserts the latest ticker per market; an older ticker never replaces a newer one. */
export async function saveTickers(q: Queryable, tickers: readonly Ticker[], source: string): Promise<void> {
  if (tickers.length === 0) return;
  const cols = columns(tickers, [
    (t) => t.venue,
    (t) => t.base,
    (t) => t.quote,
    (t) => t.venueKind,
    (t) => t.last,
    (t) => t.bid,
    (t) => t.ask,
    (t) => t.baseVolume,
    (t) => t.ts,
  ]);
  await q.query(
    `INSERT INTO tickers_latest AS t (venue, base, quote, venue_kind, last, bid, ask, base_volume, ts, source)
     SELECT v, b, qu, k, l, bi, a, bv, ts, $10 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[],
       $5::float8[], $6::float8[], $7::float8[], $8::float8[], $9::int8[]) AS x(v, b, qu, k, l, bi, a, bv, ts)
     ON CONFLICT (venue, base, quote) DO UPDATE SET venue_kind = EXCLUDED.venue_kind, last = EXCLUDED.last,
       bid = EXCLUDED.bid, ask = EXCLUDED.ask, base_volume = EXCLUDED.base_volume, ts = EXCLUDED.ts,
       source = EXCLUDED.source
     WHERE EXCLUDED.ts > t.ts`,
    [...cols, source],
  );
}

export async function saveSupply(q: Queryable, records: readonly SupplyRecord[]): Promise<void> {
  if (records.length === 0) return;
  const cols = columns(records, [
    (r) => r.asset,
    (r) => r.kind,
    (r) => r.source,
    (r) => r.sourceKind,
    (r) => r.value,
    (r) => r.ts,
  ]);
  await q.query(
    `INSERT INTO supply_records (asset, kind, source, source_kind, value, ts)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::int8[])
     ON CONFLICT DO NOTHING`,
    cols,
  );
}

/** One rate per currency and UTC day: the newest observation of the day wins. */
export async function saveFx(q: Queryable, rates: readonly FxRate[]): Promise<void> {
  if (rates.length === 0) return;
  const byKey = new Map<string, FxRate>();
  for (const r of rates) {
    const k = `${r.currency}|${dayOf(r.ts)}`;
    const prev = byKey.get(k);
    if (!prev || r.ts > prev.ts) byKey.set(k, r);
  }
  const rows = [...byKey.values()];
  const cols = columns(rows, [
    (r) => r.currency,
    (r) => dayOf(r.ts),
    (r) => r.usdPerUnit,
    (r) => r.ts,
    (r) => r.source,
  ]);
  await q.query(
    `INSERT INTO fx_rates AS f (currency, day, usd_per_unit, ts, source)
     SELECT * FROM unnest($1::text[], $2::int8[], $3::float8[], $4::int8[], $5::text[])
     ON CONFLICT (currency, day) DO UPDATE SET usd_per_unit = EXCLUDED.usd_per_unit, ts = EXCLUDED.ts,
       source = EXCLUDED.source WHERE EXCLUDED.ts > f.ts`,
    cols,
  );
}

/** Merges bars into `price_bars`. Rows must have unique (asset, res, ts) within one call. */
export async function saveBars(q: Queryable, rows: readonly BarRow[]): Promise<void> {
  if (rows.length === 0) return;
  const cols = columns(rows, [
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

/** Bars of one asset at one resolution with from ≤ ts ≤ to, oldest first (charts). */
export async function readBars(
  q: Queryable,
  asset: string,
  res: Resolution,
  from: number,
  to: number,
): Promise<Bar[]> {
  const r = await q.query<BarDbRow>(
    `SELECT ts, open, high, low, close, open_ts, close_ts, volume_usd, market_cap_usd FROM price_bars
     WHERE asset = $1 AND res = $2 AND ts >= $3 AND ts <= $4 ORDER BY ts`,
    [asset, res, from, to],
  );
  return r.rows.map(toBar);
}

/** All bars of one resolution since `since`, for loading the engine's in-memory windows. */
export async function loadBars(q: Queryable, res: Resolution, since: number): Promise<BarRow[]> {
  const r = await q.query<BarDbRow & { asset: string }>(
    `SELECT asset, ts, open, high, low, close, open_ts, close_ts, volume_usd, market_cap_usd FROM price_bars
     WHERE res = $1 AND ts >= $2 ORDER BY asset, ts`,
    [res, since],
  );
  return r.rows.map((row) => ({ asset: row.asset, res, bar: toBar(row) }));
}

export async function loadTickers(q: Queryable): Promise<Ticker[]> {
  const r = await q.query<{
    venue: string;
    base: string;
    quote: string;
    venue_kind: 'cex' | 'dex';
    last: number;
    bid: number | null;
    ask: number | null;
    base_volume: number;
    ts: number;
  }>('SELECT venue, base, quote, venue_kind, last, bid, ask, base_volume, ts FROM tickers_latest');
  return r.rows.map((t) => ({
    venue: t.venue,
    venueKind: t.venue_kind,
    base: t.base,
    quote: t.quote,
    last: t.last,
    bid: t.bid,
    ask: t.ask,
    baseVolume: t.base_volume,
    ts: t.ts,
  }));
}

/** The newest record per (asset, kind, source) observed at or after `since`. */
export async function loadLatestSupply(q: Queryable, since: number): Promise<SupplyRecord[]> {
  const r = await q.query<{
    asset: string;
    kind: SupplyRecord['kind'];
    source: string;
    source_kind: SupplyRecord['sourceKind'];
    value: number;
    ts: number;
  }>(
    `SELECT DISTINCT ON (asset, kind, source) asset, kind, source, source_kind, value, ts FROM supply_records
     WHERE ts >= $1 ORDER BY asset, kind, source, ts DESC`,
    [since],
  );
  return r.rows.map((s) => ({
    asset: s.asset,
    kind: s.kind,
    source: s.source,
    sourceKind: s.source_kind,
    value: s.value,
    ts: s.ts,
  }));
}

export async function loadFx(q: Queryable): Promise<FxRate[]> {
  const r = await q.query<{ currency: string; usd_per_unit: number; ts: number; source: string }>(
    'SELECT currency, usd_per_unit, ts, source FROM fx_rates ORDER BY currency, day',
  );
  return r.rows.map((f) => ({
    currency: f.currency,
    usdPerUnit: f.usd_per_unit,
    ts: f.ts,
    source: f.source,
  }));
}

export async function hasSnapshot(
  q: Queryable,
  source: string,
  ts: number,
  digest: string,
): Promise<boolean> {
  const r = await q.query('SELECT 1 FROM ingest_log WHERE source = $1 AND snapshot_ts = $2 AND digest = $3', [
    source,
    ts,
    digest,
  ]);
  return r.rows.length > 0;
}

export async function logSnapshots(
  q: Queryable,
  rows: readonly { source: string; ts: number; digest: string; tickers: number; rejected: number }[],
  now: number,
): Promise<void> {
  if (rows.length === 0) return;
  const cols = columns(rows, [
    (r) => r.source,
    (r) => r.ts,
    (r) => r.digest,
    (r) => r.tickers,
    (r) => r.rejected,
  ]);
  await q.query(
    `INSERT INTO ingest_log (source, snapshot_ts, digest, tickers, rejected, ingested_at)
     SELECT *, $6::int8 FROM unnest($1::text[], $2::int8[], $3::text[], $4::int4[], $5::int4[]) ON CONFLICT DO NOTHING`,
    [...cols, now],
  );
}

export async function saveRejects(
  q: Queryable,
  rejects: ReadonlyMap<string, { count: number; example: string }>,
  now: number,
): Promise<void> {
  for (const [reason, { count, example }] of rejects) {
    await q.query(
      `INSERT INTO ingest_rejects (reason, count, last_example, last_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (reason) DO UPDATE SET count = ingest_rejects.count + EXCLUDED.count,
         last_example = EXCLUDED.last_example, last_at = EXCLUDED.last_at`,
      [reason, count, example.slice(0, 500), now],
    );
  }
}

export async function getMeta(q: Queryable, key: string): Promise<string | null> {
  const r = await q.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [key]);
  return r.rows[0]?.value ?? null;
}

export async function setMeta(q: Queryable, key: string, value: string): Promise<void> {
  await q.query(
    'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
    [key, value],
  );
}

export function dayOf(ts: number): number {
  return Math.floor(ts / DAY_MS) * DAY_MS;
}

interface BarDbRow {
  ts: number;
  open: number;
  high: number;
  low: number;
  close: number;
  open_ts: number;
  close_ts: number;
  volume_usd: number | null;
  market_cap_usd: number | null;
}

function toBar(r: BarDbRow): Bar {
  return {
    ts: r.ts,
    open: r.open,
    high: r.high,
    low: r.low,
    close: r.close,
    openTs: r.open_ts,
    closeTs: r.close_ts,
    volumeUsd: r.volume_usd,
    marketCapUsd: r.market_cap_usd,
  };
}

/** Column-major arrays for `unnest` bulk statements. */
function columns<T>(rows: readonly T[], pick: ((row: T) => unknown)[]): unknown[][] {
  const out = pick.map(() => new Array<unknown>(rows.length));
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as T;
    for (let c = 0; c < pick.length; c++) (out[c] as unknown[])[i] = (pick[c] as (row: T) => unknown)(row);
  }
  return out;
}
