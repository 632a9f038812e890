-- Names (`<label>.<suffix>`, docs/names.md): who holds each, whether it resolves publicly, the address linked per coin
-- and the proof-of-control challenges of account-owned links. Times are UNIX milliseconds (bigint).
-- Only the label is stored: the suffix is the service's own (NAME_SUFFIX) and the same for every name.

-- A name. An account-owned name has `owner_account_id`; a partner-registered one (migration 006) has `partner_id`.
CREATE TABLE names (
  label text PRIMARY KEY CHECK (label ~ '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$'),
  owner_account_id uuid REFERENCES accounts (id),
  private boolean NOT NULL DEFAULT false,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);

-- An account's own list.
CREATE INDEX names_owner_account ON names (owner_account_id, label);

-- The address a name resolves to for one coin (uppercase ticker), as normalised by validateAddress.
CREATE TABLE name_addresses (
  label text NOT NULL REFERENCES names (label) ON DELETE CASCADE,
  asset text NOT NULL,
  address text NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (label, asset)
);

-- Proof-of-control challenges: single use (`used_at` set once, atomically), bound to the account, name, coin and
-- address they were issued for; kept an hour after expiry so a late answer is told apart from an unknown nonce.
CREATE TABLE name_challenges (
  nonce text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  label text NOT NULL,
  asset text NOT NULL,
  address text NOT NULL,
  message text NOT NULL,
  issued_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);

CREATE INDEX name_challenges_expires ON name_challenges (expires_at);

-- The audit log now records names too (the constraint is PostgreSQL's default name for 003's column check).
ALTER TABLE audit_log DROP CONSTRAINT audit_log_entity_check;

ALTER TABLE audit_log ADD CONSTRAINT audit_log_entity_check CHECK (entity IN ('api_key', 'dapp', 'account', 'name'));
