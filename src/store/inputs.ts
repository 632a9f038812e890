import type { FxRate, SupplyRecord, Ticker } from '../ingest/types.ts';
import type { Queryable } from './db.ts';
import { RETRACT_HORIZON } from './bars.ts';
import { arrayParams, dayOf, inSlices, numbers } from './sql.ts';

/** Upserts the latest ticker per market; an older ticker never replaces a newer one. */
export async function saveTickers(q: Queryable, tickers: readonly Ticker[], source: string): Promise<void> {
  await inSlices(tickers, (slice) => saveTickerSlice(q, slice, source));
}

async function saveTickerSlice(q: Queryable, tickers: readonly Ticker[], source: string): Promise<void> {
  const cols = arrayParams(tickers, [
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

/**
 * Stores supply records (a record already held at the same key and time is kept, not replaced) and, in the same
 * statement, keeps `supply_latest`: each key's newest record, from the rows this statement inserted only, and only
 * where newer than the one held, so that a late record of a backfill never replaces a newer one.
 */
export async function saveSupply(q: Queryable, records: readonly SupplyRecord[]): Promise<void> {
  await inSlices(records, (slice) => saveSupplySlice(q, slice));
}

async function saveSupplySlice(q: Queryable, records: readonly SupplyRecord[]): Promise<void> {
  const cols = arrayParams(records, [
    (r) => r.asset,
    (r) => r.kind,
    (r) => r.source,
    (r) => r.sourceKind,
    (r) => r.value,
    (r) => r.ts,
  ]);
  await q.query(
    `WITH w AS (
       INSERT INTO supply_records (asset, kind, source, source_kind, value, ts)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::int8[])
       ON CONFLICT DO NOTHING
       RETURNING asset, kind, source, source_kind, value, ts)
     INSERT INTO supply_latest AS l (asset, kind, source, source_kind, value, ts)
     SELECT DISTINCT ON (asset, kind, source) asset, kind, source, source_kind, value, ts FROM w
     ORDER BY asset, kind, source, ts DESC
     ON CONFLICT (asset, kind, source) DO UPDATE SET source_kind = EXCLUDED.source_kind, value = EXCLUDED.value,
       ts = EXCLUDED.ts
     WHERE EXCLUDED.ts > l.ts`,
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
  await inSlices([...byKey.values()], (slice) => saveFxSlice(q, slice));
}

async function saveFxSlice(q: Queryable, rows: readonly FxRate[]): Promise<void> {
  const cols = arrayParams(rows, [
    (r) => r.currency,
    (r) => dayOf(r.ts),
    (r) => r.usdPerUnit,
    (r) => r.ts,
    (r) => r.source,
  ]);
  // A rate that changed a day behind a history horizon retracts the claim (`HorizonClaim`), in the same statement.
  await q.query(
    `WITH w AS (
       INSERT INTO fx_rates AS f (currency, day, usd_per_unit, ts, source)
       SELECT * FROM unnest($1::text[], $2::int8[], $3::float8[], $4::int8[], $5::text[])
       ON CONFLICT (currency, day) DO UPDATE SET usd_per_unit = EXCLUDED.usd_per_unit, ts = EXCLUDED.ts,
         source = EXCLUDED.source WHERE EXCLUDED.ts > f.ts
       RETURNING day)
     ${RETRACT_HORIZON.replace('$1', '(SELECT min(day) + 86400000 FROM w)')}`,
    cols,
  );
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

/**
 * The newest record per (asset, kind, source), where observed at or after `since`, ordered by that key: the rows of
 * `DISTINCT ON (asset, kind, source) … ORDER BY asset, kind, source, ts DESC` over the whole of `supply_records`, read
 * from `supply_latest` (one row per key) instead of that history.
 */
export async function loadLatestSupply(q: Queryable, since: number): Promise<SupplyRecord[]> {
  const r = await q.query<{
    asset: string;
    kind: SupplyRecord['kind'];
    source: string;
    source_kind: SupplyRecord['sourceKind'];
    value: number;
    ts: number;
  }>(
    `SELECT asset, kind, source, source_kind, value, ts FROM supply_latest WHERE ts >= $1
     ORDER BY asset, kind, source`,
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

/**
 * Every FX rate, by currency then day. One row per currency and source: its days, rates and times as one JSON array
 * of numbers (the shortest text of each double, read back exactly); a currency's sources are merged by day.
 */
export async function loadFx(q: Queryable): Promise<FxRate[]> {
  const r = await q.query<{ currency: string; source: string; rows: string }>(
    `SELECT currency, source, '[' || string_agg(concat_ws(',', day, usd_per_unit, ts), ',' ORDER BY day) || ']' AS rows
     FROM fx_rates GROUP BY currency, source ORDER BY currency, source`,
  );
  const out: FxRate[] = [];
  let currency: string | null = null;
  let days: { day: number; rate: FxRate }[] = [];
  const flush = (): void => {
    if (days.length > 1) days.sort((a, b) => a.day - b.day);
    for (const d of days) out.push(d.rate);
    days = [];
  };
  for (const row of r.rows) {
    if (row.currency !== currency) flush();
    currency = row.currency;
    const v = numbers(row.rows);
    for (let i = 0; i < v.length; i += 3) {
      const rate = {
        currency: row.currency,
        usdPerUnit: v[i + 1] as number,
        ts: v[i + 2] as number,
        source: row.source,
      };
      days.push({ day: v[i] as number, rate });
    }
  }
  flush();
  return out;
}

/** The FX rates of `currencies` for days after `day`, by currency then day: index reads of the primary key. */
export async function loadFxAfter(
  q: Queryable,
  currencies: readonly string[],
  day: number,
): Promise<FxRate[]> {
  const r = await q.query<{ currency: string; usd_per_unit: number; ts: number; source: string }>(
    `SELECT currency, usd_per_unit, ts, source FROM fx_rates WHERE currency = ANY($1::text[]) AND day > $2
     ORDER BY currency, day`,
    [currencies, day],
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

/** Which of `snapshots` (of one source) the ingest log holds, in one read: their keys `ts|digest`. */
export async function loggedSnapshots(
  q: Queryable,
  source: string,
  snapshots: readonly { ts: number; digest: string }[],
): Promise<Set<string>> {
  if (snapshots.length === 0) return new Set();
  const r = await q.query<{ snapshot_ts: number | string; digest: string }>(
    'SELECT snapshot_ts, digest FROM ingest_log WHERE source = $1 AND snapshot_ts = ANY($2::int8[])',
    [source, [...new Set(snapshots.map((s) => s.ts))]],
  );
  return new Set(r.rows.map((row) => `${Number(row.snapshot_ts)}|${row.digest}`));
}

/**
 * The ingest log's snapshots of `source` from `from` on, the `limit` earliest (by time): keys `ts|digest` and the
 * time up to which they are all of them (`Infinity` when fewer than `limit` were left).
 */
export async function loggedFrom(
  q: Queryable,
  source: string,
  from: number,
  limit: number,
): Promise<{ keys: Set<string>; through: number }> {
  const r = await q.query<{ snapshot_ts: number | string; digest: string }>(
    `SELECT snapshot_ts, digest FROM ingest_log WHERE source = $1 AND snapshot_ts >= $2
     ORDER BY snapshot_ts, digest LIMIT $3`,
    [source, from, limit],
  );
  const keys = new Set(r.rows.map((row) => `${Number(row.snapshot_ts)}|${row.digest}`));
  const last = r.rows[r.rows.length - 1];
  // Cut short: the last time may have more snapshots than were read, so it is not covered.
  return { keys, through: r.rows.length < limit || !last ? Infinity : Number(last.snapshot_ts) - 1 };
}

/** One row of `ingest_log`: a snapshot ingested, with its record counts. */
export interface SnapshotLogRow {
  source: string;
  ts: number;
  digest: string;
  tickers: number;
  rejected: number;
}

export async function logSnapshots(
  q: Queryable,
  rows: readonly SnapshotLogRow[],
  now: number,
): Promise<void> {
  await inSlices(rows, (slice) => logSnapshotSlice(q, slice, now));
}

async function logSnapshotSlice(q: Queryable, rows: readonly SnapshotLogRow[], now: number): Promise<void> {
  const cols = arrayParams(rows, [
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
