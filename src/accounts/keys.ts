/**
 * The API-key lifecycle (accounts domain): issue, review (pending → approved | rejected), revoke (approved → revoked),
 * each change audited in its transaction. Looking a presented key up is the request gate's (`src/access/key-lookup.ts`).
 */
import { randomUUID } from 'node:crypto';
import { KeyLookup } from '../access/key-lookup.ts';
import type { KeyLookupOptions } from '../access/key-lookup.ts';
import * as repo from '../access/key-repo.ts';
import type { ApiKeyRecord, KeyStatus, StoredKey } from '../access/key-repo.ts';
import { isPlan, limitFor } from '../access/plans.ts';
import type { Plan } from '../access/plans.ts';
import { displayPrefix, generateKey, hashKey } from '../access/secrets.ts';
import { isUuid } from '../core/ids.ts';
import type { Db, Queryable } from '../store/db.ts';
import { writeAudit } from './audit.ts';
import { keyErrors } from './key-errors.ts';
import { actorLabel } from './types.ts';
import type { Actor } from './types.ts';

/** The key hashing, lookup cache and last-use options of the request gate's {@link KeyLookup}. */
export type ApiKeyServiceOptions = KeyLookupOptions;

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
 * API keys: issue, review (pending → approved | rejected), revoke (approved → revoked); the key is returned once by
 * `create` and stored only as an HMAC under the pepper. After each change the gate's lookups are invalidated
 * ({@link KeyLookup.invalidate}), so a revocation applies to the very next request.
 */
export class ApiKeyService {
  private readonly now: () => number;
  /** The request gate's lookups, which this service invalidates after each change. */
  readonly gate: KeyLookup;

  constructor(
    private readonly db: Db,
    private readonly opts: ApiKeyServiceOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.gate = new KeyLookup(db, opts);
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
    await this.gate.invalidate();
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

  /** The keys of many owners in one read, per owner as asked: each list is what `list({ ownerId })` gives. */
  listByOwners(ownerIds: readonly string[]): Promise<ApiKeyRecord[][]> {
    return repo.selectKeysOfOwners(this.db, ownerIds);
  }

  /** The key with this value, or null ({@link KeyLookup.lookup}). */
  lookup(rawKey: string): Promise<ApiKeyRecord | null> {
    return this.gate.lookup(rawKey);
  }

  /** {@link KeyLookup.touch}. */
  touch(id: string): void {
    this.gate.touch(id);
  }

  /** {@link KeyLookup.flush}. */
  flush(): Promise<void> {
    return this.gate.flush();
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
    await this.gate.invalidate();
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
  if (s.length < 1 || s.length > MAX_TEXT)
    throw (field === 'description' ? keyErrors.invalidDescription : keyErrors.invalidReason)(MAX_TEXT);
  return s;
}
