import { randomBytes, randomUUID } from 'node:crypto';
import { writeAudit } from '../accounts/audit.ts';
import { actorLabel } from '../accounts/types.ts';
import type { Actor } from '../accounts/types.ts';
import type { Db, Queryable } from '../store/db.ts';
import { nameErrors } from './errors.ts';
import {
  SqlPartnerNonceStore,
  canonicalRequest,
  checkSignature,
  checkTimestamp,
  nonceExpiry,
  partnerKeyHash,
  readPartnerHeaders,
} from './partner-auth.ts';
import type { PartnerHeaders, PartnerNonceStore } from './partner-auth.ts';

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

/** A partner request whose headers, clock and partner passed: what is checked once its body is read. */
export interface PartnerRequest {
  headers: PartnerHeaders;
  partner: Partner;
}

/**
 * Partners: their credentials and the check of their signed requests (docs/names.md, "Signing partner requests").
 * Built once per process (`src/services.ts`); the REST partner routes only hand it the request's parts, and the
 * accounts subgraph's `createPartner` issues credentials through it.
 */
export class PartnerService {
  private readonly now: () => number;
  private readonly nonces: PartnerNonceStore;

  constructor(
    private readonly db: Db,
    opts: { now?: (() => number) | undefined } = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.nonces = new SqlPartnerNonceStore(db);
  }

  /** A new credential for `name` (trimmed), issued by `by`; its secret is in this result only. */
  create(name: string, by: Actor): Promise<NewPartner> {
    return createPartner(this.db, name.trim(), by, this.now());
  }

  /**
   * What can be checked before the body is read: the four headers (401 PARTNER_AUTH_REQUIRED, …), a known partner
   * (401 PARTNER_UNKNOWN) and a timestamp within the window (401 PARTNER_TIMESTAMP).
   */
  async identify(headers: Record<string, string | string[] | undefined>): Promise<PartnerRequest> {
    const h = readPartnerHeaders(headers);
    const partner = await selectPartner(this.db, h.partnerId);
    if (!partner) throw nameErrors.partnerUnknown();
    checkTimestamp(h.timestamp, this.now());
    return { headers: h, partner };
  }

  /**
   * Once the body is read: the signature over the exact method, path with query and bytes received (401
   * PARTNER_SIGNATURE), then a nonce never seen before (401 PARTNER_REPLAY).
   */
  async verify(
    r: PartnerRequest,
    method: string,
    pathWithQuery: string,
    body: Uint8Array | string,
  ): Promise<void> {
    const h = r.headers;
    checkSignature(
      r.partner.keyHash,
      canonicalRequest(method, pathWithQuery, h.timestamp, h.nonce, body),
      h.signature,
    );
    if (!(await this.nonces.remember(r.partner.id, h.nonce, nonceExpiry(h.timestamp), this.now())))
      throw nameErrors.partnerReplay();
  }
}
