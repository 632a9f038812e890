/**
 * The per-key policy of apps, as the router and the REST access hook read it on every request: the key's app, its
 * allowed origins, its documents policy and the documents of the app's active versions. Read from the store and kept
 * in memory for {@link POLICY_TTL_MS} (one process's own changes are seen at once: `forget`); another process's
 * within that time. The checks themselves are pure (`originRefusal`, `trustedDocument`).
 */
import type { ApiError } from '../core/errors.ts';
import { isUuid } from '../core/ids.ts';
import type { Queryable } from '../store/db.ts';
import { clientErrorOf } from '../core/store-outage.ts';
import { appErrors } from './app-errors.ts';
import type { DocumentsPolicy } from './app-input.ts';

/** How long a key's policy is reused before it is read again (ms). */
export const POLICY_TTL_MS = 5_000;

export interface KeyPolicy {
  app: string;
  /** The app's id (usage per document is counted under it). */
  appId: string;
  documents: DocumentsPolicy;
  /** Allowed origins; empty: any. */
  origins: ReadonlySet<string>;
  /** The active versions' documents: SHA-256 (hex) → body. */
  byHash: ReadonlyMap<string, string>;
  bodies: ReadonlySet<string>;
  /** Each active document's newest active version (by publication), under which its usage is counted. */
  versionOf: ReadonlyMap<string, string>;
  /** Each active document's hash by its body (a body sent in full is counted as that document). */
  hashOfBody: ReadonlyMap<string, string>;
}

export interface AppPolicies {
  /** The policy of a key, or null when the key is in no app. */
  forKey(keyId: string): Promise<KeyPolicy | null>;
}

/** The refusal of a request from `origin` (its `Origin` header) under `policy`; null when allowed. */
export function originRefusal(policy: KeyPolicy | null, origin: string | undefined): ApiError | null {
  if (!policy || origin === undefined || policy.origins.size === 0) return null;
  return policy.origins.has(origin) ? null : appErrors.originNotAllowed(origin);
}

export class StoredAppPolicies implements AppPolicies {
  private readonly cache = new Map<string, { at: number; policy: Promise<KeyPolicy | null> }>();

  constructor(
    private readonly db: Queryable,
    private readonly opts: { now?: () => number; ttlMs?: number } = {},
  ) {}

  forKey(keyId: string): Promise<KeyPolicy | null> {
    const now = (this.opts.now ?? Date.now)();
    const hit = this.cache.get(keyId);
    if (hit && now - hit.at < (this.opts.ttlMs ?? POLICY_TTL_MS)) return hit.policy;
    // A store that does not answer: the policy last read stands (a key's rules do not lapse in an outage, and a key
    // in no app is not refused for a table it does not use); with none read yet, 503 STORE_UNAVAILABLE to the
    // client, on both transports.
    const policy = this.read(keyId).catch((err: unknown) => {
      if (hit) return hit.policy;
      throw clientErrorOf(err) ?? err;
    });
    this.cache.set(keyId, { at: now, policy });
    // A failed read is not kept: the next request reads again.
    policy.catch(() => {
      if (this.cache.get(keyId)?.policy === policy) this.cache.delete(keyId);
    });
    return policy;
  }

  /** Forgets every policy held (after a change made by this process). */
  forget(): void {
    this.cache.clear();
  }

  private async read(keyId: string): Promise<KeyPolicy | null> {
    if (!isUuid(keyId)) return null;
    const r = await this.db.query<{
      id: string;
      name: string;
      origins: string[];
      documents: DocumentsPolicy;
    }>(
      'SELECT a.id, a.name, a.origins, k.documents FROM app_keys k JOIN apps a ON a.id = k.app_id WHERE k.key_id = $1',
      [keyId],
    );
    const app = r.rows[0];
    if (!app) return null;
    const docs = await this.db.query<{ hash: string; body: string; version: string }>(
      `SELECT d.hash, d.body, v.version FROM app_versions v
       JOIN app_version_documents vd ON vd.app_id = v.app_id AND vd.version = v.version
       JOIN app_documents d ON d.hash = vd.hash
       WHERE v.app_id = $1 AND v.active ORDER BY v.created_at DESC, v.version DESC`,
      [app.id],
    );
    const byHash = new Map<string, string>();
    const versionOf = new Map<string, string>();
    for (const d of docs.rows) {
      if (byHash.has(d.hash)) continue;
      byHash.set(d.hash, d.body);
      versionOf.set(d.hash, d.version);
    }
    return {
      app: app.name,
      appId: app.id,
      versionOf,
      hashOfBody: new Map([...byHash].map(([h, b]) => [b, h])),
      documents: app.documents,
      origins: new Set(app.origins),
      byHash,
      bodies: new Set(byHash.values()),
    };
  }
}
