import type { Queryable } from '../store/db.ts';

/** One state change, written in the same transaction as the change itself. */
export interface AuditEntry {
  /** `account:<id>`, `operator` or `system` (see `actorLabel`). */
  actor: string;
  /** Verb, e.g. `api_key.approve`, `dapp.submit`, `account.grant_admin`. */
  action: string;
  entity: 'api_key' | 'dapp' | 'account' | 'name' | 'partner';
  entityId: string;
  fromState: string | null;
  toState: string | null;
  /** Why: a rejection reason, review notes; null when none was given. */
  reason: string | null;
}

/** Appends an audit row (table `audit_log`, migration 003). */
export async function writeAudit(q: Queryable, e: AuditEntry, now: number): Promise<void> {
  await q.query(
    `INSERT INTO audit_log (at, actor, action, entity, entity_id, from_state, to_state, reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [now, e.actor, e.action, e.entity, e.entityId, e.fromState, e.toState, e.reason],
  );
}
