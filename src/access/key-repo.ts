import type { Queryable } from '../store/db.ts';
import type { Plan } from './plans.ts';

/** The SQL of the `api_keys` table (migration 002). The service in keys.ts owns the rules. */

export type KeyStatus = 'pending' | 'approved' | 'rejected' | 'revoked';

export const KEY_STATUSES: readonly KeyStatus[] = ['pending', 'approved', 'rejected', 'revoked'];

/** An API key as shown to its owner and operators. The key itself and its hash are never part of it. Times in ms. */
export interface ApiKeyRecord {
  id: string;
  /** First 12 characters of the key (`cw_live_` + 4), for telling keys apart. */
  prefix: string;
  plan: Plan;
  limitPerMinute: number;
  status: KeyStatus;
  ownerId: string | null;
  description: string;
  /** Why it was rejected (shown to its owner); null unless rejected. */
  rejectionReason: string | null;
  createdAt: number;
  reviewedAt: number | null;
  revokedAt: number | null;
  /** Updated in batches (at most every 10 s), so it may lag by that much. */
  lastUsedAt: number | null;
}

/** A record with the stored hash, as read for a lookup. */
export interface StoredKey extends ApiKeyRecord {
  keyHash: string;
}

interface Row {
  id: string;
  key_hash: string;
  prefix: string;
  plan: Plan;
  limit_per_minute: number;
  status: KeyStatus;
  owner_id: string | null;
  description: string;
  rejection_reason: string | null;
  created_at: number;
  reviewed_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

const num = (v: number | null): number | null => (v === null ? null : Number(v));

/** A stored row without its hash, as an {@link ApiKeyRecord}. */
function recordFromRow(r: Omit<Row, 'key_hash'>): ApiKeyRecord {
  return {
    id: r.id,
    prefix: r.prefix,
    plan: r.plan,
    limitPerMinute: Number(r.limit_per_minute),
    status: r.status,
    ownerId: r.owner_id,
    description: r.description,
    rejectionReason: r.rejection_reason,
    createdAt: Number(r.created_at),
    reviewedAt: num(r.reviewed_at),
    revokedAt: num(r.revoked_at),
    lastUsedAt: num(r.last_used_at),
  };
}

function fromRow(r: Row): StoredKey {
  return { ...recordFromRow(r), keyHash: r.key_hash };
}

/**
 * The keys of many owners in one read, newest first (the order of {@link selectKeys}): one list per owner id given,
 * owner ids compared as stored. Never reads the key hash.
 */
export async function selectKeysOfOwners(
  q: Queryable,
  ownerIds: readonly string[],
): Promise<ApiKeyRecord[][]> {
  const wanted = [...new Set(ownerIds)];
  const byOwner = new Map<string, ApiKeyRecord[]>();
  if (wanted.length > 0) {
    const r = await q.query<Omit<Row, 'key_hash'>>(
      `SELECT id, prefix, plan, limit_per_minute, status, owner_id, description, rejection_reason, created_at,
         reviewed_at, revoked_at, last_used_at
       FROM api_keys WHERE owner_id = ANY($1::text[]) ORDER BY created_at DESC, id`,
      [wanted],
    );
    for (const row of r.rows) {
      const owner = row.owner_id as string;
      const list = byOwner.get(owner) ?? [];
      list.push(recordFromRow(row));
      byOwner.set(owner, list);
    }
  }
  return ownerIds.map((id) => byOwner.get(id) ?? []);
}

/** Drops the hash: what leaves the service. */
export function publicRecord(k: StoredKey): ApiKeyRecord {
  const { keyHash: _keyHash, ...rec } = k;
  return rec;
}

export async function insertKey(q: Queryable, k: StoredKey): Promise<void> {
  await q.query(
    `INSERT INTO api_keys (id, key_hash, prefix, plan, limit_per_minute, status, owner_id, description,
       rejection_reason, created_at, reviewed_at, revoked_at, last_used_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      k.id,
      k.keyHash,
      k.prefix,
      k.plan,
      k.limitPerMinute,
      k.status,
      k.ownerId,
      k.description,
      k.rejectionReason,
      k.createdAt,
      k.reviewedAt,
      k.revokedAt,
      k.lastUsedAt,
    ],
  );
}

/** One key by id; `forUpdate` locks the row for the rest of the transaction. */
export async function selectById(q: Queryable, id: string, forUpdate = false): Promise<StoredKey | null> {
  const r = await q.query<Row>(`SELECT * FROM api_keys WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return r.rows[0] ? fromRow(r.rows[0]) : null;
}

/** One key by the hash of its value (unique index). */
export async function selectByHash(q: Queryable, keyHash: string): Promise<StoredKey | null> {
  const r = await q.query<Row>('SELECT * FROM api_keys WHERE key_hash = $1', [keyHash]);
  return r.rows[0] ? fromRow(r.rows[0]) : null;
}

/** Keys matching the filter, newest first. */
export async function selectKeys(
  q: Queryable,
  filter: { ownerId?: string | undefined; status?: KeyStatus | undefined },
): Promise<StoredKey[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.ownerId !== undefined) where.push(`owner_id = $${params.push(filter.ownerId)}`);
  if (filter.status !== undefined) where.push(`status = $${params.push(filter.status)}`);
  const r = await q.query<Row>(
    `SELECT * FROM api_keys ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY created_at DESC, id`,
    params,
  );
  return r.rows.map(fromRow);
}

/** Sets the review/revocation columns of one key; returns it as stored afterwards. */
export async function updateState(
  q: Queryable,
  id: string,
  set: {
    status: KeyStatus;
    limitPerMinute: number;
    rejectionReason: string | null;
    reviewedAt: number | null;
    revokedAt: number | null;
  },
): Promise<StoredKey> {
  const r = await q.query<Row>(
    `UPDATE api_keys SET status = $2, limit_per_minute = $3, rejection_reason = $4, reviewed_at = $5, revoked_at = $6
     WHERE id = $1 RETURNING *`,
    [id, set.status, set.limitPerMinute, set.rejectionReason, set.reviewedAt, set.revokedAt],
  );
  if (!r.rows[0]) throw new Error(`api key ${id} vanished inside its transaction`);
  return fromRow(r.rows[0]);
}

/** Records last-use times for many keys in one statement (never moves a time backwards). */
export async function updateLastUsed(q: Queryable, uses: ReadonlyMap<string, number>): Promise<void> {
  if (uses.size === 0) return;
  await q.query(
    `UPDATE api_keys AS k SET last_used_at = GREATEST(COALESCE(k.last_used_at, 0), u.ts)
     FROM (SELECT unnest($1::uuid[]) AS id, unnest($2::bigint[]) AS ts) AS u WHERE k.id = u.id`,
    [[...uses.keys()], [...uses.values()]],
  );
}
