/**
 * Usage per document of apps (docs/apps.md, "Usage per document"): reads over `usage_operation_days`
 * (013_operation_usage.sql), which the router's usage recorder fills (`src/access/usage-recorder.ts`).
 */
import type { Queryable } from '../store/db.ts';

/** A UTC day in ms (the granularity of `usage_operation_days`). */
const DAY_MS = 86_400_000;

/**
 * The trusted documents with at least one request since `sinceMs` (UNIX ms), across every app and key: their hashes
 * as the apps tables store them (`app_documents.hash`: the SHA-256 of the body in lowercase hex, no `sha256:` prefix).
 * Usage is kept per UTC day, so the whole day holding `sinceMs` counts. Refused requests count too (a client sent
 * them). What a process holds in memory and has not written yet (at most a few seconds) is not seen.
 */
export async function documentsWithTraffic(q: Queryable, sinceMs: number): Promise<Set<string>> {
  const r = await q.query<{ operation: string }>(
    `SELECT DISTINCT operation FROM usage_operation_days
     WHERE kind = 'document' AND day >= $1 AND requests > 0`,
    [Math.floor(sinceMs / DAY_MS) * DAY_MS],
  );
  return new Set(r.rows.map((row) => row.operation));
}
