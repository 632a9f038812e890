-- The newest supply record of each (asset, kind, source), what a start-up reads (src/store/inputs.ts
-- loadLatestSupply) instead of finding each key's newest row in the whole history of supply_records (a skip scan of
-- ~130,000 rows whose pages, cold after a restart, the embedded store reads one by one). Kept by saveSupply in the
-- statement that inserts into supply_records: only the rows that statement inserted, and only when newer than the row
-- held, so a record arriving late from a backfill never replaces a newer one, and of two records at the same time the
-- first stays (as in supply_records). Cleared with the rest of the market data (src/store/market-data.ts).
CREATE TABLE supply_latest (
  asset text NOT NULL,
  kind text NOT NULL,
  source text NOT NULL,
  source_kind text NOT NULL,
  value double precision NOT NULL,
  ts bigint NOT NULL,
  PRIMARY KEY (asset, kind, source)
);

-- A store that already holds supply history: each key's newest record (one per key and time, by supply_records' key).
INSERT INTO supply_latest (asset, kind, source, source_kind, value, ts)
SELECT DISTINCT ON (asset, kind, source) asset, kind, source, source_kind, value, ts FROM supply_records
ORDER BY asset, kind, source, ts DESC;
