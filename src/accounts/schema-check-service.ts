/**
 * Schema checks over the store (docs/apps.md, "Schema checks"): the proposed SDL read and held to its limits, the
 * published documents of every app (or of the one app whose publish token asks), their traffic in the last 30 days,
 * and the comparison it is handed (`SchemaCheck`, over the API schema the router serves). The admin REST route and
 * the CLI (when it opens the store itself) both call it.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../store/db.ts';
import { appErrors } from './app-errors.ts';
import { documentsWithTraffic } from './app-usage.ts';
import { proposedSdl } from './schema-check.ts';
import type { PublishedDocument, SchemaCheck, SchemaCheckReport } from './schema-check.ts';

/** A document counts as in use with at least one request in this window. */
export const SCHEMA_CHECK_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

/** Whose documents: every app's (an operator), or the app of a publish token (that app's CI). */
export type SchemaCheckScope = { kind: 'all' } | { kind: 'token'; token: string };

export interface SchemaCheckResult extends SchemaCheckReport {
  /** The app the check was limited to (a publish token's), or null for every app. */
  app: string | null;
  /** Traffic counted since this time (UNIX ms): the start of the UTC day 30 days ago. */
  since: number;
}

export interface SchemaChecksOptions {
  /** The comparison, over the API schema the router serves (`router/trusted/schema-check.ts`). */
  check: SchemaCheck;
  /** Clock in ms; default `Date.now`. */
  now?: (() => number) | undefined;
}

export class SchemaChecks {
  private readonly now: () => number;

  constructor(
    private readonly q: Queryable,
    private readonly opts: SchemaChecksOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  /**
   * Checks the proposed schema (as {@link proposedSdl} reads `input`) against the published documents of `scope`:
   * 400 `INVALID_SCHEMA`, 413 `SCHEMA_TOO_LARGE`, 401 `INVALID_PUBLISH_TOKEN`.
   */
  async check(input: unknown, scope: SchemaCheckScope): Promise<SchemaCheckResult> {
    const app = scope.kind === 'token' ? await this.tokenApp(scope.token) : null;
    const sdl = proposedSdl(input);
    const since = Math.floor((this.now() - SCHEMA_CHECK_WINDOW_DAYS * DAY_MS) / DAY_MS) * DAY_MS;
    const [documents, inUse, requests] = await Promise.all([
      this.documents(app?.id ?? null),
      documentsWithTraffic(this.q, since),
      this.requests(since),
    ]);
    const report = await this.opts.check(sdl, documents, ({ hash }) => ({
      inUse: inUse.has(hash),
      requests: requests.get(hash) ?? 0,
    }));
    return { ...report, app: app?.name ?? null, since };
  }

  /** The app of a publish token (its SHA-256, as `apps.ts` keeps it); 401 `INVALID_PUBLISH_TOKEN` otherwise. */
  private async tokenApp(token: string): Promise<{ id: string; name: string }> {
    const hash = createHash('sha256').update(token, 'utf8').digest('hex');
    const r = await this.q.query<{ id: string; name: string }>(
      'SELECT id, name FROM apps WHERE publish_token_hash = $1',
      [hash],
    );
    const app = r.rows[0];
    if (!app) throw appErrors.invalidPublishToken();
    return app;
  }

  /**
   * Every document of every version (active or not) of one app or all, oldest app and version first. A body is read
   * once however many versions list it (the rows share the string).
   */
  private async documents(appId: string | null): Promise<PublishedDocument[]> {
    const scope = `FROM app_version_documents vd
       JOIN app_versions v ON v.app_id = vd.app_id AND v.version = vd.version
       JOIN apps a ON a.id = vd.app_id
       WHERE $1::uuid IS NULL OR a.id = $1::uuid`;
    const [listed, bodies] = await Promise.all([
      this.q.query<{ app_id: string; app: string; version: string; hash: string; name: string | null }>(
        `SELECT a.id AS app_id, a.name AS app, v.version, vd.hash, vd.name ${scope}
         ORDER BY a.created_at, a.name, v.created_at, v.version`,
        [appId],
      ),
      this.q.query<{ hash: string; body: string }>(
        `SELECT hash, body FROM app_documents WHERE hash IN (SELECT vd.hash ${scope})`,
        [appId],
      ),
    ]);
    const body = new Map(bodies.rows.map((row) => [row.hash, row.body]));
    return listed.rows.map((row) => ({
      appId: row.app_id,
      app: row.app,
      version: row.version,
      hash: row.hash,
      name: row.name,
      body: body.get(row.hash) ?? '',
    }));
  }

  /**
   * Requests per document (hash) since `since`, every key and app together: the figure beside "in use" in the
   * report. Whether a document is in use is `documentsWithTraffic`'s answer (`app-usage.ts`).
   */
  private async requests(since: number): Promise<Map<string, number>> {
    const r = await this.q.query<{ operation: string; requests: number }>(
      `SELECT operation, sum(requests)::bigint AS requests FROM usage_operation_days
       WHERE kind = 'document' AND day >= $1 GROUP BY operation`,
      [since],
    );
    return new Map(r.rows.map((row) => [row.operation, Number(row.requests)]));
  }
}
