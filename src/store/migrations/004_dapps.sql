-- Dapp listing requests and the dapp store (src/accounts/dapps.ts). Text is stored exactly as submitted.
-- States: submitted -> approved | rejected; approved -> delisted. Times are UNIX milliseconds (bigint).
-- `site_origin` is `site`'s normalised origin (scheme://host[:port]): the wallet's access check looks it up.
-- `reviewed_by` is the latest reviewer's actorLabel; the full history is in audit_log.
CREATE TABLE dapps (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  site text NOT NULL,
  site_origin text NOT NULL,
  icon text NOT NULL,
  description text NOT NULL,
  contact_email text NOT NULL,
  chains text[] NOT NULL CHECK (cardinality(chains) > 0),
  status text NOT NULL CHECK (status IN ('submitted', 'approved', 'rejected', 'delisted')),
  review_notes text,
  reviewed_by text,
  created_at bigint NOT NULL,
  reviewed_at bigint
);

-- An account's own list and its rolling 24-hour submission window.
CREATE INDEX dapps_account ON dapps (account_id, created_at);

-- The review queue and the store.
CREATE INDEX dapps_status ON dapps (status, created_at);

-- The wallet's access check by origin.
CREATE INDEX dapps_site_origin ON dapps (site_origin);
