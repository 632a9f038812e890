import { randomBytes, randomUUID } from 'node:crypto';
import { writeAudit } from '../accounts/audit.ts';
import { actorLabel } from '../accounts/types.ts';
import type { Actor } from '../accounts/types.ts';
import type { Db, Queryable } from '../store/db.ts';
import { partnerKeyHash } from './partner-auth.ts';

/** A partner as stored (never with its secret). */
export interface Partner {
  id: string;
  name: string;
  /** Hex SHA-256 of the secret: the HMAC key of its requests. */
  keyHash: string;
  createdAt: number;
}

/** A new partner credential: `secret` is shown this once and never stored. */
export interface NewPartner {
  id: string;
  name: string;
  secret: string;
  createdAt: number;
}

/**
 * Partner credentials. The secret is 32 random bytes (`cwp_` + base64url); the database keeps only SHA-256 of it. A
 * 256-bit random secret needs no slow hash or pepper against guessing; note that the hash is also the signing key
 * (HMAC is symmetric), see docs/names.md.
 */
export async function createPartner(db: Db, name: string, by: Actor, now: number): Promise<NewPartner> {
  const id = randomUUID();
  const secret = `cwp_${randomBytes(32).toString('base64url')}`;
  await db.transaction(async (tx) => {
    await tx.query(
      'INSERT INTO partners (id, name, key_hash, created_by, created_at) VALUES ($1, $2, $3, $4, $5)',
      [id, name, partnerKeyHash(secret), actorLabel(by), now],
    );
    await writeAudit(
      tx,
      {
        actor: actorLabel(by),
        action: 'partner.create',
        entity: 'partner',
        entityId: id,
        fromState: null,
        toState: 'active',
        reason: name,
      },
      now,
    );
  });
  return { id, name, secret, createdAt: now };
}

export async function selectPartner(q: Queryable, id: string): Promise<Partner | null> {
  const r = await q.query<{ id: string; name: string; key_hash: string; created_at: number }>(
    'SELECT id, name, key_hash, created_at FROM partners WHERE id = $1',
    [id],
  );
  const row = r.rows[0];
  return row
    ? { id: row.id, name: row.name, keyHash: row.key_hash, createdAt: Number(row.created_at) }
    : null;
}
