-- Retention of the append-only market tables (src/store/retention.ts, docs/operations.md "Retention"): every hour the
-- market service deletes rows older than a window, a few thousand at a time, oldest first. supply_records' key starts
-- with its time (015); these two tables had no index that starts with theirs.
-- The ingest log ages by when a snapshot was ingested, not by the snapshot's own time: a recording replayed into the
-- store is known (and a second replay skipped) for the whole window after the replay, however old its snapshots.
CREATE INDEX ingest_log_ingested_at ON ingest_log (ingested_at);
-- Chain figures age by when they were observed; each coin and source keeps its newest observation whatever its age.
CREATE INDEX mining_figures_observed_at ON mining_figures (observed_at);
