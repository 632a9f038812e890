-- Partners (exchanges registering names for their users, docs/names.md): credentials, replay protection and the
-- names they hold. Times are UNIX milliseconds (bigint).

-- A partner credential. The secret is shown once; only `key_hash` = SHA-256(secret) in hex is kept, and that hash is
-- the HMAC key requests are signed with (see docs/names.md, "Partner credentials", for what this does and does not
-- protect).
CREATE TABLE partners (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_by text NOT NULL,
  created_at bigint NOT NULL
);

-- Nonces of signed partner requests already seen: a second request with the same (partner, nonce) is a replay.
-- A row is needed only while its timestamp is inside the 5-minute window (`expires_at`); older ones are purged.
CREATE TABLE partner_nonces (
  partner_id uuid NOT NULL REFERENCES partners (id),
  nonce text NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (partner_id, nonce)
);

CREATE INDEX partner_nonces_expires ON partner_nonces (expires_at);

-- A partner-registered name: the partner and its opaque reference of the user (never interpreted here).
ALTER TABLE names ADD COLUMN partner_id uuid REFERENCES partners (id);

ALTER TABLE names ADD COLUMN partner_owner_ref text;

-- Exactly one holder: an account, or a partner with its user reference.
ALTER TABLE names ADD CONSTRAINT names_one_holder CHECK ((owner_account_id IS NULL) <> (partner_id IS NULL) AND (partner_id IS NULL) = (partner_owner_ref IS NULL));

CREATE INDEX names_partner ON names (partner_id, label);

ALTER TABLE audit_log DROP CONSTRAINT audit_log_entity_check;

ALTER TABLE audit_log ADD CONSTRAINT audit_log_entity_check CHECK (entity IN ('api_key', 'dapp', 'account', 'name', 'partner'));
