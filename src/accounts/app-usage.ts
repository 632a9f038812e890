/**
 * Usage per document of apps (docs/apps.md, "Usage per document"): reads over `usage_operation_days`
 * (013_operation_usage.sql), which the router's usage recorder fills (`src/access/usage-recorder.ts`).
 */
import { DAY_MS, dayOf } from '../access/usage.ts';
import { documentUsageMany } from '../access/usage-operations.ts';
import type { KeyOperationUsage, OperationTotals } from '../access/usage.ts';
import { isUuid } from '../core/ids.ts';
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
  appId: string;
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
        appId: row.app_id,
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
  documents: (Omit<VersionDocument, 'hash' | 'appId'> & OperationTotals)[];
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
    documents: docs.map(({ hash: _hash, appId: _app, ...d }, i) => ({
      ...d,
      ...(totals[i] as OperationTotals),
    })),
  };
}

/** An app as the graph shows it: its versions carry the app's id (their documents are read by it). */
export interface AccountApp {
  id: string;
  name: string;
  origins: string[];
  keys: string[];
  versions: AccountAppVersion[];
}

export interface AccountAppVersion {
  appId: string;
  version: string;
  active: boolean;
  createdAt: number;
}

/** The apps of many accounts (oldest first), with their key ids and versions (newest first): three reads. */
export async function appsOfAccounts(q: Queryable, accountIds: readonly string[]): Promise<AccountApp[][]> {
  const wanted = [...new Set(accountIds.filter(isUuid).map((id) => id.toLowerCase()))];
  const byAccount = new Map<string, AccountApp[]>();
  if (wanted.length > 0) {
    const apps = await q.query<{ id: string; account_id: string; name: string; origins: string[] }>(
      'SELECT id, account_id, name, origins FROM apps WHERE account_id = ANY($1::uuid[]) ORDER BY created_at, name',
      [wanted],
    );
    const ids = apps.rows.map((a) => a.id);
    const byId = new Map<string, AccountApp>();
    for (const a of apps.rows) {
      const app: AccountApp = { id: a.id, name: a.name, origins: a.origins, keys: [], versions: [] };
      byId.set(a.id, app);
      const list = byAccount.get(a.account_id) ?? [];
      list.push(app);
      byAccount.set(a.account_id, list);
    }
    if (ids.length > 0) {
      const keys = await q.query<{ key_id: string; app_id: string }>(
        `SELECT a.key_id, a.app_id FROM app_keys a JOIN api_keys k ON k.id = a.key_id
         WHERE a.app_id = ANY($1::uuid[]) ORDER BY k.created_at`,
        [ids],
      );
      for (const k of keys.rows) byId.get(k.app_id)?.keys.push(k.key_id);
      const versions = await q.query<{
        app_id: string;
        version: string;
        active: boolean;
        created_at: number;
      }>(
        `SELECT app_id, version, active, created_at FROM app_versions WHERE app_id = ANY($1::uuid[])
         ORDER BY created_at DESC, version DESC`,
        [ids],
      );
      for (const v of versions.rows)
        byId.get(v.app_id)?.versions.push({
          appId: v.app_id,
          version: v.version,
          active: v.active,
          createdAt: Number(v.created_at),
        });
    }
  }
  return accountIds.map((id) => byAccount.get(id.toLowerCase()) ?? []);
}

/** One operation of a key over a window, with the names a reader shows (`ApiKey.operations`). */
export interface NamedKeyOperation extends OperationTotals {
  kind: 'document' | 'tool';
  /** The tool's name, or the document's operation name (its `sha256:` id when it has none). */
  name: string;
  documentId: string | null;
  app: string | null;
  version: string | null;
}

/** The named operations of many keys' usage (`UsageReads.operationsOfKeys`): one more read for the names. */
export async function namedOperations(
  q: Queryable,
  perKey: readonly KeyOperationUsage[][],
): Promise<NamedKeyOperation[][]> {
  const docs = perKey.flat().filter((o) => o.kind === 'document');
  const apps = new Map<string, string>();
  const names = new Map<string, string | null>();
  if (docs.length > 0) {
    const appIds = [...new Set(docs.map((d) => d.appId as string))].filter(isUuid);
    const a = await q.query<{ id: string; name: string }>(
      'SELECT id, name FROM apps WHERE id = ANY($1::uuid[])',
      [appIds],
    );
    for (const r of a.rows) apps.set(r.id, r.name);
    for (const list of await documentsOfVersions(
      q,
      [...new Set(docs.map((d) => `${d.appId}\u0000${d.version}`))].map((k) => {
        const [appId = '', version = ''] = k.split('\u0000');
        return { appId, version };
      }),
    ))
      for (const d of list) names.set(d.hash, d.name);
  }
  return perKey.map((list) =>
    list.map((o) => ({
      kind: o.kind,
      name: o.kind === 'tool' ? o.operation : (names.get(o.operation) ?? `sha256:${o.operation}`),
      documentId: o.kind === 'tool' ? null : `sha256:${o.operation}`,
      app: o.appId === null ? null : (apps.get(o.appId) ?? null),
      version: o.version,
      requests: o.requests,
      errors: o.errors,
      refusals: o.refusals,
      cost: o.cost,
    })),
  );
}
