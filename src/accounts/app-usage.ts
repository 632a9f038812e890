/**
 * Usage per document of apps (docs/apps.md, "Usage per document"): reads over `usage_operation_days`
 * (013_operation_usage.sql), which the router's usage recorder fills (`src/access/usage-recorder.ts`).
 */
import { DAY_MS, dayOf } from '../access/usage.ts';
import { documentUsageMany } from '../access/usage-operations.ts';
import type { OperationTotals } from '../access/usage-operations.ts';
import { paramErrors } from '../core/params.ts';
import type { Queryable } from '../store/db.ts';

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
    [dayOf(sinceMs)],
  );
  return new Set(r.rows.map((row) => row.operation));
}

/** The longest window of usage per document, in days (the store keeps 40). */
export const USAGE_MAX_DAYS = 35;

/** One document of an app version, as the graph and REST show it. */
export interface VersionDocument {
  version: string;
  /** `sha256:<hex>`: the id the client preset sends as `documentId`. */
  documentId: string;
  /** SHA-256 of the body, lowercase hex (as stored). */
  hash: string;
  /** The operation's name from the manifest (Apollo's format), else from the body's first operation; null if none. */
  name: string | null;
}

/** The operation name of a body: the first `query|mutation|subscription Name` (no parse: a manifest's documents). */
function nameOfBody(body: string): string | null {
  return /\b(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/.exec(body)?.[1] ?? null;
}

/** The documents of many app versions in one read, per version as asked, in publication order of the manifest's hashes. */
export async function documentsOfVersions(
  q: Queryable,
  versions: readonly { appId: string; version: string }[],
): Promise<VersionDocument[][]> {
  const apps = [...new Set(versions.map((v) => v.appId))];
  const by = new Map<string, VersionDocument[]>();
  if (apps.length > 0) {
    const r = await q.query<{
      app_id: string;
      version: string;
      hash: string;
      name: string | null;
      body: string;
    }>(
      `SELECT vd.app_id, vd.version, vd.hash, vd.name, d.body FROM app_version_documents vd
       JOIN app_documents d ON d.hash = vd.hash WHERE vd.app_id = ANY($1::uuid[]) ORDER BY vd.hash`,
      [apps],
    );
    for (const row of r.rows) {
      const k = `${row.app_id}\u0000${row.version}`;
      let list = by.get(k);
      if (!list) by.set(k, (list = []));
      list.push({
        version: row.version,
        documentId: `sha256:${row.hash}`,
        hash: row.hash,
        name: row.name ?? nameOfBody(row.body),
      });
    }
  }
  return versions.map((v) => by.get(`${v.appId}\u0000${v.version}`) ?? []);
}

/** `days` of a usage read: a whole number 1–{@link USAGE_MAX_DAYS}, else 400 INVALID_PARAMETER naming it. */
export function usageDays(days: unknown): number {
  const n = typeof days === 'string' && /^\d{1,3}$/.test(days) ? Number(days) : days;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= USAGE_MAX_DAYS) return n;
  throw paramErrors.invalid('days', `must be a whole number of days from 1 to ${USAGE_MAX_DAYS}`);
}

/** The first millisecond of a `days`-day window ending today (UTC days, today included). */
export const windowStart = (now: number, days: number): number => dayOf(now) - (days - 1) * DAY_MS;

/** Usage per document of one app: every document of every version (zeros included), newest version first. */
export interface AppUsage {
  app: string;
  /** The window, UNIX ms: the start of its first UTC day, and now. */
  from: number;
  to: number;
  documents: (Omit<VersionDocument, 'hash'> & OperationTotals)[];
}

/**
 * The usage of every document of an app's versions over `days` UTC days up to `now` (all its keys together), as
 * `GET /api/account/apps/{app}/usage` answers it. Reads the store: counts a process holds are seen once written
 * (at most the recorder's flush interval, 5 s, later).
 */
export async function appUsage(
  q: Queryable,
  app: { id: string; name: string },
  days: number,
  now: number,
): Promise<AppUsage> {
  const from = windowStart(now, days);
  const v = await q.query<{ version: string }>(
    'SELECT version FROM app_versions WHERE app_id = $1 ORDER BY created_at DESC, version DESC',
    [app.id],
  );
  const docs = (
    await documentsOfVersions(
      q,
      v.rows.map((r) => ({ appId: app.id, version: r.version })),
    )
  ).flat();
  const totals = await documentUsageMany(
    q,
    docs.map((d) => ({ appId: app.id, version: d.version, hash: d.hash })),
    from,
  );
  return {
    app: app.name,
    from,
    to: now,
    documents: docs.map(({ hash: _hash, ...d }, i) => ({ ...d, ...(totals[i] as OperationTotals) })),
  };
}
