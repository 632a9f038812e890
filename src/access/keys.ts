import { randomUUID } from 'node:crypto';
import { writeAudit } from '../accounts/audit.ts';
import { actorLabel } from '../accounts/types.ts';
import type { Actor } from '../accounts/types.ts';
import type { Db, Queryable } from '../store/db.ts';
import { keyErrors } from './errors.ts';
import * as repo from './key-repo.ts';
import type { ApiKeyRecord, KeyStatus, StoredKey } from './key-repo.ts';
import { LastUsedBatcher } from './last-used.ts';
import { LookupCache } from './lookup-cache.ts';
import { isPlan, limitFor } from './plans.ts';
import type { Plan } from './plans.ts';
import { LocalRevision } from './revision.ts';
import type { KeyRevision } from './revision.ts';
import { displayPrefix, generateKey, hashKey, isWellFormedKey, safeEqual } from './secrets.ts';
import { isUuid } from '../core/ids.ts';

export type { ApiKeyRecord, KeyStatus } from './key-repo.ts';
export { KEY_STATUSES } from './key-repo.ts';
export { LocalRevision, NoCacheRevision, RedisRevision } from './revision.ts';
export type { KeyRevision } from './revision.ts';

export interface ApiKeyServiceOptions {
  /** Server-side secret keys are hashed with (see `resolvePepper`). */
  pepper: string;
  /** Invalidates the lookup cache on every key write; default {@link LocalRevision} (one process). */
  revision?: KeyRevision;
  /** Clock in ms; default `Date.now`. */
  now?: () => number;
  /** How often last-use times are written; default 10,000 ms. */
  touchIntervalMs?: number;
  /** Most lookups kept in the cache; default 10,000. */
  cacheSize?: number;
  /** Age after which a cached lookup is read again even at the same revision; default 60,000 ms. */
  cacheMaxAgeMs?: number;
}

export interface CreateKeyInput {
  plan: Plan;
  /** What the key is for: 1 to 500 characters. */
  description: string;
  /** The account that owns the key; null/absent for keys an operator makes. */
  ownerId?: string | null | undefined;
  /** Enterprise only: 1 to 10,000; default the plan's limit. */
  limitPerMinute?: number | undefined;
  /** Create it approved (operators); default false → pending review. */
  approve?: boolean | undefined;
  /** Who creates it, for the audit log; default the operator (the CLI and the operator token). */
  actor?: Actor | undefined;
}

/** Who makes a change and why, written to `audit_log` in the change's transaction. */
export interface ChangeContext {
  /** Default the operator: every caller without an actor is the operator's tooling (CLI, operator token). */
  actor?: Actor | undefined;
  /** Why, for the audit log (1 to 500 characters); default none. A rejection's reason is its own. */
  reason?: string | undefined;
}

const OPERATOR: Actor = { kind: 'operator' };

const MAX_TEXT = 500;

/**
 * API keys: issue, review (pending → approved | rejected), revoke (approved → revoked) and look up by value.
 * The key is returned once by `create` and stored only as an HMAC under the pepper. Lookups are cached per key hash
 * and reused only while the {@link KeyRevision} is unchanged, so a revocation applies to the very next request.
 */
export class ApiKeyService {
  private readonly now: () => number;
  private readonly cache: LookupCache;
  private readonly lastUsed: LastUsedBatcher;

  constructor(
    private readonly db: Db,
    private readonly opts: ApiKeyServiceOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.cache = new LookupCache(opts.revision ?? new LocalRevision(), {
      maxEntries: opts.cacheSize ?? 10_000,
      maxAgeMs: opts.cacheMaxAgeMs ?? 60_000,
      now: this.now,
    });
    this.lastUsed = new LastUsedBatcher(
      (uses) => repo.updateLastUsed(db, uses),
      opts.touchIntervalMs ?? 10_000,
    );
  }

  /** Issues a key. `key` is shown to the caller once and never again. */
  async create(input: CreateKeyInput): Promise<{ key: string; record: ApiKeyRecord }> {
    if (!isPlan(input.plan)) throw keyErrors.invalidPlan();
    const description = text(input.description, 'description');
    const ownerId = input.ownerId ?? null;
    if (ownerId !== null && (typeof ownerId !== 'string' || ownerId.length < 1 || ownerId.length > 200))
      throw keyErrors.invalidOwner();
    const limitPerMinute = limitFor(input.plan, input.limitPerMinute);
    const key = generateKey();
    const at = this.now();
    const stored: StoredKey = {
      id: randomUUID(),
      prefix: displayPrefix(key),
      plan: input.plan,
      limitPerMinute,
      status: input.approve ? 'approved' : 'pending',
      ownerId,
      description,
      rejectionReason: null,
      createdAt: at,
      reviewedAt: input.approve ? at : null,
      revokedAt: null,
      lastUsedAt: null,
      keyHash: hashKey(key, this.opts.pepper),
    };
    await this.db.transaction(async (tx) => {
      await repo.insertKey(tx, stored);
      await auditKey(tx, input.actor, 'create', stored.id, null, stored.status, description, at);
    });
    await this.cache.invalidate();
    return { key, record: repo.publicRecord(stored) };
  }

  /** pending → approved; `limitPerMinute` (enterprise only) replaces the requested limit. */
  async approve(
    id: string,
    opts: ChangeContext & { limitPerMinute?: number | undefined } = {},
  ): Promise<ApiKeyRecord> {
    const why =
      opts.reason !== undefined
        ? text(opts.reason, 'reason')
        : opts.limitPerMinute !== undefined
          ? `limitPerMinute ${opts.limitPerMinute}`
          : null;
    return this.transition(id, 'approve', { actor: opts.actor, reason: why }, (k) => ({
      ...k,
      status: 'approved',
      reviewedAt: this.now(),
      limitPerMinute:
        opts.limitPerMinute === undefined ? k.limitPerMinute : limitFor(k.plan, opts.limitPerMinute),
    }));
  }

  /** pending → rejected, with the reason its owner will see (1 to 500 characters). */
  async reject(id: string, reason: string, opts: { actor?: Actor | undefined } = {}): Promise<ApiKeyRecord> {
    const why = text(reason, 'reason');
    return this.transition(id, 'reject', { actor: opts.actor, reason: why }, (k) => ({
      ...k,
      status: 'rejected',
      reviewedAt: this.now(),
      rejectionReason: why,
    }));
  }

  /**
   * approved → revoked. Every process refuses the key from its next request on. With `ownerId`, a key of another
   * owner (or of none) is 404 `KEY_NOT_FOUND`, exactly like a key that does not exist.
   */
  async revoke(
    id: string,
    opts: ChangeContext & { ownerId?: string | undefined } = {},
  ): Promise<ApiKeyRecord> {
    const why = opts.reason === undefined ? null : text(opts.reason, 'reason');
    return this.transition(id, 'revoke', { actor: opts.actor, reason: why, ownerId: opts.ownerId }, (k) => ({
      ...k,
      status: 'revoked',
      revokedAt: this.now(),
    }));
  }

  /** One key; 404 `KEY_NOT_FOUND` when there is none. */
  async get(id: string): Promise<ApiKeyRecord> {
    const k = isUuid(id) ? await repo.selectById(this.db, id) : null;
    if (!k) throw keyErrors.notFound(id);
    return repo.publicRecord(k);
  }

  /** Keys, newest first, optionally of one owner and/or in one state. */
  async list(
    filter: { ownerId?: string | undefined; status?: KeyStatus | undefined } = {},
  ): Promise<ApiKeyRecord[]> {
    return (await repo.selectKeys(this.db, filter)).map(repo.publicRecord);
  }

  /**
   * The key with this value, or null when there is none (or it is not even shaped like one of ours). Whatever its
   * state: the caller decides what a pending, rejected or revoked key means. Never logs the value.
   */
  async lookup(rawKey: string): Promise<ApiKeyRecord | null> {
    if (!isWellFormedKey(rawKey)) return null;
    const hash = hashKey(rawKey, this.opts.pepper);
    return this.cache.read(hash, async () => {
      const k = await repo.selectByHash(this.db, hash);
      return k && safeEqual(k.keyHash, hash) ? Object.freeze(repo.publicRecord(k)) : null;
    });
  }

  /** Notes that the key was used now; written in batches (see `touchIntervalMs`), never once per request. */
  touch(id: string): void {
    this.lastUsed.touch(id, this.now());
  }

  /** Writes pending last-use times now (call on shutdown). */
  flush(): Promise<void> {
    return this.lastUsed.flush();
  }

  private async transition(
    id: string,
    action: 'approve' | 'reject' | 'revoke',
    ctx: { actor: Actor | undefined; reason: string | null; ownerId?: string | undefined },
    next: (k: StoredKey) => StoredKey,
  ): Promise<ApiKeyRecord> {
    if (!isUuid(id)) throw keyErrors.notFound(id);
    const from: KeyStatus = action === 'revoke' ? 'approved' : 'pending';
    const updated = await this.db.transaction(async (tx) => {
      const k = await repo.selectById(tx, id, true);
      // Another owner's key answers exactly like a missing one: its existence is not revealed.
      if (!k || (ctx.ownerId !== undefined && k.ownerId !== ctx.ownerId)) throw keyErrors.notFound(id);
      if (k.status !== from) throw keyErrors.stateConflict(id, k.status, action);
      const changed = await repo.updateState(tx, id, next(k));
      await auditKey(tx, ctx.actor, action, id, k.status, changed.status, ctx.reason, this.now());
      return changed;
    });
    // After the commit: a reader that sees the new revision is sure to read the new state.
    await this.cache.invalidate();
    return repo.publicRecord(updated);
  }
}

/** Appends the audit row of a key change (inside the change's transaction). */
function auditKey(
  tx: Queryable,
  actor: Actor | undefined,
  action: 'create' | 'approve' | 'reject' | 'revoke',
  id: string,
  fromState: KeyStatus | null,
  toState: KeyStatus,
  reason: string | null,
  at: number,
): Promise<void> {
  return writeAudit(
    tx,
    {
      actor: actorLabel(actor ?? OPERATOR),
      action: `api_key.${action}`,
      entity: 'api_key',
      entityId: id,
      fromState,
      toState,
      reason,
    },
    at,
  );
}

function text(v: unknown, field: 'description' | 'reason'): string {
  const s = typeof v === 'string' ? v.trim() : '';
  if (s.length < 1 || s.length > MAX_TEXT) throw keyErrors.invalidText(field, MAX_TEXT);
  return s;
}
