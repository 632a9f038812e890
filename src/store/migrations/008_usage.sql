-- Request statistics (src/access/usage.ts): counts per minute, written by every process with additive upserts
-- (`n = t.n + EXCLUDED.n`), so processes sharing one PostgreSQL add up. `minute` is the start of the minute in UNIX
-- milliseconds (bigint). Rows older than the retention (2 days) are deleted by the writers.

-- Per API key and minute: admitted, refused by the rate limit (429), refused for the key's state (401: pending,
-- rejected, revoked). No foreign key: a metrics write never fails on a key row.
CREATE TABLE usage_key_minutes (
  key_id uuid NOT NULL,
  minute bigint NOT NULL,
  admitted integer NOT NULL DEFAULT 0,
  rate_limited integer NOT NULL DEFAULT 0,
  unauthorized integer NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, minute)
);

CREATE INDEX usage_key_minutes_minute ON usage_key_minutes (minute);

-- Per plan (`keyless`, `free`, `pro`, `enterprise`) and minute: answered requests (REST requests and GraphQL
-- operations) by outcome. `client_errors` are 4xx other than 401 and 429.
CREATE TABLE usage_plan_minutes (
  minute bigint NOT NULL,
  plan text NOT NULL,
  requests integer NOT NULL DEFAULT 0,
  client_errors integer NOT NULL DEFAULT 0,
  server_errors integer NOT NULL DEFAULT 0,
  rate_limited integer NOT NULL DEFAULT 0,
  unauthorized integer NOT NULL DEFAULT 0,
  PRIMARY KEY (minute, plan)
);

-- GraphQL operations per minute by estimated query cost: `up_to` is the bucket's inclusive upper bound, -1 for the
-- last bucket (above every bound).
CREATE TABLE usage_cost_minutes (
  minute bigint NOT NULL,
  up_to integer NOT NULL,
  count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (minute, up_to)
);
