-- Proof-of-work network figures per coin (the graph's `Coin.mining`, the mining calculator widget's inputs): every
-- observation with its source (`demo` for the seeded demo generator, src/demo/mining.ts; a node or an explorer for
-- real data) and the time it was observed (UNIX milliseconds, bigint). A figure the source does not know is NULL,
-- never a guess. Readers take the newest observation of each coin.
CREATE TABLE mining_figures (
  asset text NOT NULL,
  source text NOT NULL,
  observed_at bigint NOT NULL,
  algorithm text NOT NULL,
  difficulty double precision CHECK (difficulty > 0),
  block_reward double precision CHECK (block_reward >= 0),
  block_time_seconds double precision CHECK (block_time_seconds > 0),
  PRIMARY KEY (asset, source, observed_at)
);

-- The newest observation of each coin.
CREATE INDEX mining_figures_latest ON mining_figures (asset, observed_at DESC);
