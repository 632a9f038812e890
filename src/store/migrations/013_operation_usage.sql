-- Usage per operation (src/access/usage-operations.ts, docs/apps.md "Usage per document", docs/mcp.md "Usage per
-- tool"): per API key, UTC day and operation, written by every process with additive upserts (`n = t.n + EXCLUDED.n`)
-- like 008_usage.sql. `day` is the start of the UTC day in UNIX milliseconds (bigint). Rows older than the retention
-- (40 days, so that a 30-day window is always whole) are deleted by the writers.
--
-- An operation is either a trusted document of one of the key's app versions (`kind = 'document'`: `operation` is
-- the SHA-256 of its body in lowercase hex, as app_documents.hash, with its app's id and version) or an MCP tool call
-- (`kind = 'tool'`: `operation` is the tool's name; no app, `app_id` and `version` empty). The empty strings stand in
-- for "none" because the columns are part of the primary key. Counts: requests (every one, refused or answered),
-- errors (answered with GraphQL errors or a 4xx/5xx after admission), refusals (refused by the key, its budget, its
-- app's policy or origin), cost (the sum of the answers' measured cost). No foreign key: a metrics write never fails
-- on a key, app or document row.
CREATE TABLE usage_operation_days (
  key_id uuid NOT NULL,
  day bigint NOT NULL,
  kind text NOT NULL CHECK (kind IN ('document', 'tool')),
  operation text NOT NULL,
  app_id text NOT NULL DEFAULT '',
  version text NOT NULL DEFAULT '',
  requests integer NOT NULL DEFAULT 0,
  errors integer NOT NULL DEFAULT 0,
  refusals integer NOT NULL DEFAULT 0,
  cost bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, day, kind, operation, app_id, version),
  CHECK ((kind = 'document') = (app_id <> ''))
);

CREATE INDEX usage_operation_days_day ON usage_operation_days (day);

CREATE INDEX usage_operation_days_app ON usage_operation_days (app_id, day) WHERE kind = 'document';
