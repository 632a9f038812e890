-- Wallet accounts, sign-in challenges, sessions and the audit log. Times are UNIX milliseconds (bigint).

-- A wallet account: the LTC address it signs in with (bech32 lowercased) and its role.
CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  address text NOT NULL UNIQUE,
  role text NOT NULL CHECK (role IN ('user', 'admin')),
  created_at bigint NOT NULL
);

-- The admin list.
CREATE INDEX accounts_role ON accounts (role, created_at);

-- Sign-in challenges: single use (`used_at` set once, atomically) and short-lived. Kept for an hour after they
-- expire so that a late or repeated sign-in can be told apart from one that never had a challenge.
CREATE TABLE auth_challenges (
  nonce text PRIMARY KEY,
  address text NOT NULL,
  message text NOT NULL,
  issued_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);

-- The newest challenges of an address (sign-in) and the purge of old ones.
CREATE INDEX auth_challenges_address ON auth_challenges (address, issued_at);

CREATE INDEX auth_challenges_expires ON auth_challenges (expires_at);

-- Sessions. The token itself is never stored: `token_hash` is SHA-256 of it in hex, the only lookup path.
CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  revoked_at bigint
);

CREATE INDEX sessions_account ON sessions (account_id, created_at);

CREATE INDEX sessions_expires ON sessions (expires_at);

-- Every state change of an API key, a dapp listing or an account's role: who, when, what and why. Written in the
-- same transaction as the change it records; never updated.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at bigint NOT NULL,
  actor text NOT NULL,
  action text NOT NULL,
  entity text NOT NULL CHECK (entity IN ('api_key', 'dapp', 'account')),
  entity_id text NOT NULL,
  from_state text,
  to_state text,
  reason text
);

-- The history of one thing, and what one actor did.
CREATE INDEX audit_log_entity ON audit_log (entity, entity_id, at);

CREATE INDEX audit_log_actor ON audit_log (actor, at);
