-- API keys. The key itself is never stored: `key_hash` is HMAC-SHA256(pepper, key) in hex, the only lookup path.
-- `prefix` is the first 12 characters, kept for display. Times are UNIX milliseconds (bigint).
CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  key_hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  plan text NOT NULL CHECK (plan IN ('free', 'pro', 'enterprise')),
  limit_per_minute integer NOT NULL CHECK (limit_per_minute BETWEEN 1 AND 10000),
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'revoked')),
  owner_id text,
  description text NOT NULL,
  rejection_reason text,
  created_at bigint NOT NULL,
  reviewed_at bigint,
  revoked_at bigint,
  last_used_at bigint
);

-- An owner's key list and the review queue.
CREATE INDEX api_keys_owner ON api_keys (owner_id, created_at);

CREATE INDEX api_keys_status ON api_keys (status, created_at);
