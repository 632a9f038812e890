-- Signed proof-of-reserves snapshots of the bridge (src/bridge/snapshots.ts), one row per `coinwallet bridge snapshot`.
-- A row covers every asset of the network's deployment: one report, one signature, one point in time.
-- `report` is the canonical JSON exactly as signed: text, not jsonb, which would reorder keys and lose the bytes.
-- `public_key` is the signer (hex); a deployment that pins a key serves only snapshots signed by it.
-- `source` is `recorded` or `live`. Times are UNIX milliseconds (bigint).
CREATE TABLE bridge_snapshots (
  id bigserial PRIMARY KEY,
  network text NOT NULL CHECK (network IN ('testnet', 'mainnet')),
  report text NOT NULL,
  signature text NOT NULL,
  public_key text NOT NULL,
  source text NOT NULL CHECK (source IN ('recorded', 'live')),
  created_at bigint NOT NULL
);

-- The latest snapshot of a network (by signer).
CREATE INDEX bridge_snapshots_latest ON bridge_snapshots (network, public_key, created_at DESC, id DESC);
