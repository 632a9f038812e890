-- Market inputs and history. Times are UNIX milliseconds (bigint); money is USD (double precision).

-- Latest ticker per market (venue, base, quote). History lives in price_bars after aggregation.
CREATE TABLE tickers_latest (
  venue text NOT NULL,
  base text NOT NULL,
  quote text NOT NULL,
  venue_kind text NOT NULL,
  last double precision NOT NULL,
  bid double precision,
  ask double precision,
  base_volume double precision NOT NULL,
  ts bigint NOT NULL,
  source text NOT NULL,
  PRIMARY KEY (venue, base, quote)
);

-- Every supply observation, with its source and time.
CREATE TABLE supply_records (
  asset text NOT NULL,
  kind text NOT NULL,
  source text NOT NULL,
  source_kind text NOT NULL,
  value double precision NOT NULL,
  ts bigint NOT NULL,
  PRIMARY KEY (asset, kind, source, ts)
);

-- FX (fiat and metal) rates, one per currency and UTC day; `ts` is the observation kept for that day.
CREATE TABLE fx_rates (
  currency text NOT NULL,
  day bigint NOT NULL,
  usd_per_unit double precision NOT NULL,
  ts bigint NOT NULL,
  source text NOT NULL,
  PRIMARY KEY (currency, day)
);

-- Aggregate price history as OHLC bars at three resolutions ('5m', '1h', '1d').
CREATE TABLE price_bars (
  asset text NOT NULL,
  res text NOT NULL,
  ts bigint NOT NULL,
  open double precision NOT NULL,
  high double precision NOT NULL,
  low double precision NOT NULL,
  close double precision NOT NULL,
  open_ts bigint NOT NULL,
  close_ts bigint NOT NULL,
  volume_usd double precision,
  market_cap_usd double precision,
  PRIMARY KEY (asset, res, ts)
);
-- Retention and rollup scan by resolution and age.
CREATE INDEX price_bars_res_ts ON price_bars (res, ts);

-- Snapshots already ingested: replaying one is a no-op.
CREATE TABLE ingest_log (
  source text NOT NULL,
  snapshot_ts bigint NOT NULL,
  digest text NOT NULL,
  tickers integer NOT NULL,
  rejected integer NOT NULL,
  ingested_at bigint NOT NULL,
  PRIMARY KEY (source, snapshot_ts, digest)
);

-- Rejected input records, counted by reason.
CREATE TABLE ingest_rejects (
  reason text PRIMARY KEY,
  count bigint NOT NULL,
  last_example text NOT NULL,
  last_at bigint NOT NULL
);

-- Small key/value facts about this data directory (e.g. the demo dataset manifest).
CREATE TABLE meta (
  key text PRIMARY KEY,
  value text NOT NULL
);
