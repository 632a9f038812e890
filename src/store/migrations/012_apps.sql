-- Apps and their trusted documents (src/accounts/apps.ts, docs/apps.md). An app belongs to one account; its name is
-- unique within the account. `publish_token_hash` is SHA-256 (hex) of the app's publish token (a 256-bit random
-- secret shown once). Times are UNIX milliseconds (bigint).
CREATE TABLE apps (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  origins text[] NOT NULL,
  publish_token_hash text NOT NULL UNIQUE,
  created_at bigint NOT NULL,
  UNIQUE (account_id, name)
);

-- The keys an app uses (a key belongs to one app at most) and each key's document policy.
CREATE TABLE app_keys (
  key_id uuid PRIMARY KEY REFERENCES api_keys (id),
  app_id uuid NOT NULL REFERENCES apps (id),
  documents text NOT NULL CHECK (documents IN ('any', 'trusted-only'))
);

CREATE INDEX app_keys_app ON app_keys (app_id);

-- Every trusted document once, by the SHA-256 (hex) of its body; `cost` is its estimate when first published.
CREATE TABLE app_documents (
  hash text PRIMARY KEY,
  body text NOT NULL,
  cost integer NOT NULL,
  created_at bigint NOT NULL
);

-- Published versions: immutable but for `active` (the documents a trusted-only key may run are its app's active ones).
CREATE TABLE app_versions (
  app_id uuid NOT NULL REFERENCES apps (id),
  version text NOT NULL,
  active boolean NOT NULL,
  document_count integer NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (app_id, version)
);

CREATE TABLE app_version_documents (
  app_id uuid NOT NULL,
  version text NOT NULL,
  hash text NOT NULL REFERENCES app_documents (hash),
  name text,
  PRIMARY KEY (app_id, version, hash),
  FOREIGN KEY (app_id, version) REFERENCES app_versions (app_id, version)
);
