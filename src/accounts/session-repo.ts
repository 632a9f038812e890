import type { Queryable } from '../store/db.ts';
import { fromRow as accountFromRow } from './account-repo.ts';
import type { Account, Role } from './types.ts';

/** The SQL of `auth_challenges` and `sessions` (migration 003). The rules live in auth.ts. */

export interface StoredChallenge {
  nonce: string;
  address: string;
  message: string;
  issuedAt: number;
  expiresAt: number;
  usedAt: number | null;
}

export interface StoredSession {
  account: Account;
  expiresAt: number;
  revokedAt: number | null;
}

interface ChallengeRow {
  nonce: string;
  address: string;
  message: string;
  issued_at: number;
  expires_at: number;
  used_at: number | null;
}

export async function insertChallenge(q: Queryable, c: StoredChallenge): Promise<void> {
  await q.query(
    `INSERT INTO auth_challenges (nonce, address, message, issued_at, expires_at, used_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [c.nonce, c.address, c.message, c.issuedAt, c.expiresAt, c.usedAt],
  );
}

function challengeFromRow(c: ChallengeRow): StoredChallenge {
  return {
    nonce: c.nonce,
    address: c.address,
    message: c.message,
    issuedAt: Number(c.issued_at),
    expiresAt: Number(c.expires_at),
    usedAt: c.used_at === null ? null : Number(c.used_at),
  };
}

/** One challenge by its nonce. */
export async function selectChallenge(q: Queryable, nonce: string): Promise<StoredChallenge | null> {
  const r = await q.query<ChallengeRow>(
    'SELECT nonce, address, message, issued_at, expires_at, used_at FROM auth_challenges WHERE nonce = $1',
    [nonce],
  );
  return r.rows[0] ? challengeFromRow(r.rows[0]) : null;
}

/**
 * The newest `limit` challenges of an address, unused ones first (expired ones included), then used ones: the first is
 * the address's newest open challenge, or its newest when none is open.
 */
export async function selectRecentChallenges(
  q: Queryable,
  address: string,
  limit: number,
): Promise<StoredChallenge[]> {
  const r = await q.query<ChallengeRow>(
    `SELECT nonce, address, message, issued_at, expires_at, used_at FROM auth_challenges
     WHERE address = $1 ORDER BY used_at IS NULL DESC, issued_at DESC, nonce LIMIT $2`,
    [address, limit],
  );
  return r.rows.map(challengeFromRow);
}

/** Marks a challenge used; false when it already was (another request won the race). */
export async function consumeChallenge(q: Queryable, nonce: string, at: number): Promise<boolean> {
  const r = await q.query(
    'UPDATE auth_challenges SET used_at = $2 WHERE nonce = $1 AND used_at IS NULL RETURNING nonce',
    [nonce, at],
  );
  return r.rows.length === 1;
}

/** Deletes challenges that expired before `before`. */
export async function purgeChallenges(q: Queryable, before: number): Promise<void> {
  await q.query('DELETE FROM auth_challenges WHERE expires_at < $1', [before]);
}

export async function insertSession(
  q: Queryable,
  s: { tokenHash: string; accountId: string; createdAt: number; expiresAt: number },
): Promise<void> {
  await q.query(
    `INSERT INTO sessions (token_hash, account_id, created_at, expires_at, revoked_at)
     VALUES ($1, $2, $3, $4, NULL)`,
    [s.tokenHash, s.accountId, s.createdAt, s.expiresAt],
  );
}

/** The session with this token hash and its account as it is now (role included). */
export async function selectSession(q: Queryable, tokenHash: string): Promise<StoredSession | null> {
  const r = await q.query<{
    id: string;
    address: string;
    role: Role;
    created_at: number;
    expires_at: number;
    revoked_at: number | null;
  }>(
    `SELECT a.id, a.address, a.role, a.created_at, s.expires_at, s.revoked_at
     FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = $1`,
    [tokenHash],
  );
  const row = r.rows[0];
  if (!row) return null;
  return {
    account: accountFromRow(row),
    expiresAt: Number(row.expires_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

/** Ends a session (logout); false when it was already ended or never existed. */
export async function revokeSession(q: Queryable, tokenHash: string, at: number): Promise<boolean> {
  const r = await q.query(
    'UPDATE sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL RETURNING token_hash',
    [tokenHash, at],
  );
  return r.rows.length === 1;
}

/** Deletes sessions that expired before `before`. */
export async function purgeSessions(q: Queryable, before: number): Promise<void> {
  await q.query('DELETE FROM sessions WHERE expires_at < $1', [before]);
}

/**
 * Deletes the unused challenges of `address` beyond its `keep` newest (used ones stay: each belongs to a sign-in).
 */
export async function dropOldUnusedChallenges(q: Queryable, address: string, keep: number): Promise<void> {
  await q.query(
    `DELETE FROM auth_challenges WHERE address = $1 AND used_at IS NULL AND nonce NOT IN (
       SELECT nonce FROM auth_challenges WHERE address = $1 AND used_at IS NULL
       ORDER BY issued_at DESC, nonce LIMIT $2)`,
    [address, keep],
  );
}
