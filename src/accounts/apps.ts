/**
 * Apps and their published versions of trusted documents (docs/apps.md): the domain both the REST routes and the
 * CLI (through REST) use. An account registers an app (a name unique to it, allowed origins, the keys it uses); each
 * version is a manifest of documents, checked whole before anything is written (hash, schema, cost for the app's
 * plan) and written in one transaction, so a version that was acknowledged is on disk, complete. Versions are
 * immutable but for being active; documents are stored once by hash.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Plan } from '../access/plans.ts';
import { PLANS, planFigure } from '../access/plans.ts';
import { isUuid } from '../core/ids.ts';
import type { Db, Queryable } from '../store/db.ts';
import { appErrors } from './app-errors.ts';
import { appName, appVersion, documentsPolicy, keyIdList, originList } from './app-input.ts';
import type { DocumentsPolicy } from './app-input.ts';
import { parseTrustedManifest } from './app-manifest.ts';
import { appUsage, usageDays } from './app-usage.ts';
import type { AppUsage } from './app-usage.ts';
import { keyErrors } from './key-errors.ts';
import type { Account } from './types.ts';

/**
 * Validates one document against the current API schema and estimates its cost (no variables given: their defaults,
 * else the schema's list sizes). Built over the router's schema and cost model (`router/trusted/check.ts`) and handed
 * in, since the domain knows no GraphQL.
 */
export type DocumentCheck = (body: string) => { ok: true; cost: number } | { ok: false; reason: string };

export interface AppServiceOptions {
  check: DocumentCheck;
  /** The most one operation may cost, per plan (the router's `costLimits`); default the plans' `costCeiling`. */
  ceilings?: Partial<Record<Plan, number>> | undefined;
  /** Clock in ms; default `Date.now`. */
  now?: (() => number) | undefined;
  /** Called after every change of an app, its keys or versions (the policy cache forgets what it held). */
  onChange?: (() => void) | undefined;
}

export interface AppKeyView {
  id: string;
  prefix: string;
  plan: Plan;
  status: string;
  documents: DocumentsPolicy;
}

export interface AppVersionView {
  version: string;
  active: boolean;
  documents: number;
  createdAt: number;
}

export interface AppView {
  id: string;
  name: string;
  /** Allowed browser origins; empty: any. */
  origins: string[];
  keys: AppKeyView[];
  /** Newest first. */
  versions: AppVersionView[];
  createdAt: number;
}

/** Who publishes: the signed-in owner, or a CI job holding the app's publish token. */
export type Publisher = { kind: 'account'; account: Account } | { kind: 'token'; token: string };

const TOKEN_PREFIX = 'cwp_';

const tokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
const newToken = (): string => TOKEN_PREFIX + randomBytes(32).toString('base64url');

/** True for a string shaped like a publish token (what the REST guard routes to {@link AppService.publish}). */
export const isPublishToken = (s: string): boolean => s.startsWith(TOKEN_PREFIX);

interface AppRow {
  id: string;
  account_id: string;
  name: string;
  origins: string[];
  created_at: number;
}

export class AppService {
  private readonly now: () => number;
  private readonly ceilings: Readonly<Record<Plan, number>>;

  constructor(
    private readonly db: Db,
    private readonly opts: AppServiceOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.ceilings = { ...planFigure('costCeiling'), ...opts.ceilings };
  }

  /**
   * Registers an app. The publish token is in this result only (kept as its SHA-256). Keys must be the account's
   * and in no other app (404 `KEY_NOT_FOUND`, 409 `KEY_IN_OTHER_APP`); they start with documents `any`.
   */
  async create(
    account: Account,
    input: { name: unknown; origins?: unknown; keys?: unknown },
  ): Promise<{ app: AppView; publishToken: string }> {
    const name = appName(input.name);
    const origins = originList(input.origins);
    const keyIds = keyIdList(input.keys);
    const token = newToken();
    const id = randomUUID();
    await this.db
      .transaction(async (tx) => {
        const dup = await tx.query('SELECT 1 FROM apps WHERE account_id = $1 AND name = $2', [
          account.id,
          name,
        ]);
        if (dup.rows.length > 0) throw appErrors.appExists(name);
        await tx.query(
          'INSERT INTO apps (id, account_id, name, origins, publish_token_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
          [id, account.id, name, origins, tokenHash(token), this.now()],
        );
        for (const k of keyIds) await attachKey(tx, account, id, k, 'any');
      })
      .catch(uniqueAs(appErrors.appExists(name)));
    this.opts.onChange?.();
    return { app: await this.get(account, name), publishToken: token };
  }

  /** The account's apps, oldest first. */
  async list(account: Account): Promise<AppView[]> {
    const rows = await this.db.query<AppRow>(
      'SELECT * FROM apps WHERE account_id = $1 ORDER BY created_at, name',
      [account.id],
    );
    return Promise.all(rows.rows.map((r) => this.view(this.db, r)));
  }

  async get(account: Account, name: string): Promise<AppView> {
    return this.view(this.db, await this.appOf(this.db, account, name));
  }

  /** Usage per document of the app over the last `days` UTC days (default 30), all its keys together (`app-usage.ts`). */
  async usage(account: Account, name: string, days: unknown = 30): Promise<AppUsage> {
    const d = usageDays(days);
    return appUsage(this.db, await this.appOf(this.db, account, name), d, this.now());
  }

  /** A new publish token for the app; the previous one stops working. */
  async rotateToken(account: Account, name: string): Promise<{ publishToken: string }> {
    const app = await this.appOf(this.db, account, name);
    const token = newToken();
    await this.db.query('UPDATE apps SET publish_token_hash = $1 WHERE id = $2', [tokenHash(token), app.id]);
    return { publishToken: token };
  }

  /** Replaces the allowed origins (an empty list: any origin). */
  async setOrigins(account: Account, name: string, origins: unknown): Promise<AppView> {
    const list = originList(origins);
    const app = await this.appOf(this.db, account, name);
    await this.db.query('UPDATE apps SET origins = $1 WHERE id = $2', [list, app.id]);
    this.opts.onChange?.();
    return this.get(account, name);
  }

  /** Adds a key to the app (if it is not yet) with this document policy, or changes the policy of one it has. */
  async setKey(account: Account, name: string, keyId: string, documents: unknown): Promise<AppView> {
    const policy = documentsPolicy(documents);
    if (!isUuid(keyId)) throw keyErrors.notFound(keyId);
    await this.db.transaction(async (tx) => {
      const app = await this.appOf(tx, account, name, true);
      await attachKey(tx, account, app.id, keyId, policy);
    });
    this.opts.onChange?.();
    return this.get(account, name);
  }

  /**
   * Publishes a version. Every document is checked before anything is written: its id against its body, then the
   * schema, then its cost against the ceiling of the app's smallest plan among its keys (free when it has none); the
   * first failure refuses the whole version, naming the document. Written in one transaction that holds the app's
   * row, so two publishes of one version cannot both succeed (the second: 409 `VERSION_EXISTS`).
   */
  async publish(
    who: Publisher,
    name: string,
    input: { version: unknown; manifest: unknown; activate?: unknown },
  ): Promise<AppVersionView> {
    const version = appVersion(input.version);
    const app = await this.publisherApp(who, name);
    const docs = parseTrustedManifest(input.manifest);
    const plan = await this.smallestPlan(app.id);
    const ceiling = this.ceilings[plan];
    const costs: number[] = [];
    for (const d of docs) {
      const r = this.opts.check(d.body);
      if (!r.ok) throw appErrors.invalidDocument(d.id, r.reason);
      if (r.cost > ceiling) throw appErrors.documentOverCost(d.id, r.cost, plan, ceiling);
      costs.push(r.cost);
    }
    const now = this.now();
    const active = input.activate === true;
    await this.db
      .transaction(async (tx) => {
        await tx.query('SELECT id FROM apps WHERE id = $1 FOR UPDATE', [app.id]);
        const dup = await tx.query('SELECT 1 FROM app_versions WHERE app_id = $1 AND version = $2', [
          app.id,
          version,
        ]);
        if (dup.rows.length > 0) throw appErrors.versionExists(name, version);
        await tx.query(
          `INSERT INTO app_documents (hash, body, cost, created_at)
           SELECT h, b, c, $4 FROM unnest($1::text[], $2::text[], $3::integer[]) AS t (h, b, c)
           ON CONFLICT (hash) DO NOTHING`,
          [docs.map((d) => d.hash), docs.map((d) => d.body), costs, now],
        );
        await tx.query(
          'INSERT INTO app_versions (app_id, version, active, document_count, created_at) VALUES ($1, $2, $3, $4, $5)',
          [app.id, version, active, docs.length, now],
        );
        await tx.query(
          `INSERT INTO app_version_documents (app_id, version, hash, name)
           SELECT $1, $2, h, n FROM unnest($3::text[], $4::text[]) AS t (h, n)`,
          [app.id, version, docs.map((d) => d.hash), docs.map((d) => d.name)],
        );
      })
      .catch(uniqueAs(appErrors.versionExists(name, version)));
    this.opts.onChange?.();
    return { version, active, documents: docs.length, createdAt: now };
  }

  /** Makes a version active (its documents run on the app's trusted-only keys) or inactive. */
  async setActive(who: Publisher, name: string, version: string, active: boolean): Promise<AppVersionView> {
    const app = await this.publisherApp(who, name);
    const r = await this.db.query<{
      version: string;
      active: boolean;
      document_count: number;
      created_at: number;
    }>('UPDATE app_versions SET active = $3 WHERE app_id = $1 AND version = $2 RETURNING *', [
      app.id,
      version,
      active,
    ]);
    const row = r.rows[0];
    if (!row) throw appErrors.versionNotFound(name, version);
    this.opts.onChange?.();
    return {
      version: row.version,
      active: row.active,
      documents: row.document_count,
      createdAt: row.created_at,
    };
  }

  private async publisherApp(who: Publisher, name: string): Promise<AppRow> {
    appName(name);
    if (who.kind === 'account') return this.appOf(this.db, who.account, name);
    const r = await this.db.query<AppRow>('SELECT * FROM apps WHERE publish_token_hash = $1', [
      tokenHash(who.token),
    ]);
    const app = r.rows[0];
    if (!app || app.name !== name) throw appErrors.invalidPublishToken();
    return app;
  }

  private async appOf(q: Queryable, account: Account, name: string, lock = false): Promise<AppRow> {
    const r = await q.query<AppRow>(
      `SELECT * FROM apps WHERE account_id = $1 AND name = $2${lock ? ' FOR UPDATE' : ''}`,
      [account.id, name],
    );
    const app = r.rows[0];
    if (!app) throw appErrors.appNotFound(name);
    return app;
  }

  private async smallestPlan(appId: string): Promise<Plan> {
    const r = await this.db.query<{ plan: Plan }>(
      'SELECT k.plan FROM app_keys a JOIN api_keys k ON k.id = a.key_id WHERE a.app_id = $1',
      [appId],
    );
    // The plan table lists the plans from the smallest up.
    const plans = r.rows.map((x) => PLANS.indexOf(x.plan));
    return plans.length === 0 ? 'free' : (PLANS[Math.min(...plans)] ?? 'free');
  }

  private async view(q: Queryable, app: AppRow): Promise<AppView> {
    const keys = await q.query<{
      id: string;
      prefix: string;
      plan: Plan;
      status: string;
      documents: DocumentsPolicy;
    }>(
      `SELECT k.id, k.prefix, k.plan, k.status, a.documents FROM app_keys a JOIN api_keys k ON k.id = a.key_id
       WHERE a.app_id = $1 ORDER BY k.created_at`,
      [app.id],
    );
    const versions = await q.query<{
      version: string;
      active: boolean;
      document_count: number;
      created_at: number;
    }>(
      'SELECT version, active, document_count, created_at FROM app_versions WHERE app_id = $1 ORDER BY created_at DESC, version DESC',
      [app.id],
    );
    return {
      id: app.id,
      name: app.name,
      origins: app.origins,
      keys: keys.rows,
      versions: versions.rows.map((v) => ({
        version: v.version,
        active: v.active,
        documents: v.document_count,
        createdAt: v.created_at,
      })),
      createdAt: app.created_at,
    };
  }
}

async function attachKey(
  tx: Queryable,
  account: Account,
  appId: string,
  keyId: string,
  documents: DocumentsPolicy,
): Promise<void> {
  const k = await tx.query<{ owner_id: string | null }>('SELECT owner_id FROM api_keys WHERE id = $1', [
    keyId,
  ]);
  if (k.rows[0]?.owner_id !== account.id) throw keyErrors.notFound(keyId);
  const r = await tx.query<{ app_id: string }>(
    `INSERT INTO app_keys (key_id, app_id, documents) VALUES ($1, $2, $3)
     ON CONFLICT (key_id) DO UPDATE SET documents = EXCLUDED.documents WHERE app_keys.app_id = EXCLUDED.app_id
     RETURNING app_id`,
    [keyId, appId, documents],
  );
  if (r.rows.length === 0) throw appErrors.keyInOtherApp(keyId);
}

/** A unique violation (a concurrent insert of the same row that won) answered as `err`; other errors unchanged. */
function uniqueAs(err: Error): (e: unknown) => never {
  return (e) => {
    throw (e as { code?: unknown }).code === '23505' ? err : e;
  };
}
