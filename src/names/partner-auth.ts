/**
 * Partner request signing (docs/names.md, "Signing partner requests"). Each request carries
 *
 * - `x-partner-id`: the partner's id (uuid);
 * - `x-partner-timestamp`: the time of signing in UNIX seconds, within {@link PARTNER_WINDOW_S} of the server clock;
 * - `x-partner-nonce`: 16–64 characters `[A-Za-z0-9_-]`, never used before by this partner;
 * - `x-partner-signature`: hex HMAC-SHA256 of {@link canonicalRequest}, keyed with SHA-256(secret) (raw 32 bytes).
 *
 * The pure parts (canonical text, MAC, checks) live here beside the nonce store; the route hooks only wire them.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../store/db.ts';
import { nameErrors } from './errors.ts';
import { isLowercaseUuid } from '../core/ids.ts';

/** How far a request's timestamp may be from the server clock, either way (seconds). */
export const PARTNER_WINDOW_S = 300;
const NONCE_RE = /^[A-Za-z0-9_-]{16,64}$/;
const SIG_RE = /^[0-9a-f]{64}$/;

/** The signing headers of a request, checked for form only. */
export interface PartnerHeaders {
  partnerId: string;
  /** UNIX seconds. */
  timestamp: number;
  nonce: string;
  /** Lowercase hex. */
  signature: string;
}

/** SHA-256 of the partner secret, hex: both what `partners.key_hash` stores and (as bytes) the HMAC key. */
export function partnerKeyHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** `${METHOD}\n${path with query}\n${timestamp}\n${nonce}\n${sha256hex(body)}`; an absent body hashes as empty. */
export function canonicalRequest(
  method: string,
  pathWithQuery: string,
  timestamp: number | string,
  nonce: string,
  body: Uint8Array | string,
): string {
  const bodyHash = createHash('sha256').update(body).digest('hex');
  return `${method.toUpperCase()}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${bodyHash}`;
}

/** The hex signature of a canonical request, keyed with the partner's key hash (hex of SHA-256(secret)). */
export function partnerSignature(keyHashHex: string, canonical: string): string {
  return createHmac('sha256', Buffer.from(keyHashHex, 'hex')).update(canonical, 'utf8').digest('hex');
}

/** Signs a request the way a partner does (for partners' code and tests): returns the four headers. */
export function signPartnerRequest(o: {
  partnerId: string;
  secret: string;
  method: string;
  path: string;
  body?: string;
  timestamp: number;
  nonce: string;
}): Record<string, string> {
  const canonical = canonicalRequest(o.method, o.path, o.timestamp, o.nonce, o.body ?? '');
  return {
    'x-partner-id': o.partnerId,
    'x-partner-timestamp': String(o.timestamp),
    'x-partner-nonce': o.nonce,
    'x-partner-signature': partnerSignature(partnerKeyHash(o.secret), canonical),
  };
}

/** Reads the four headers; 401 PARTNER_AUTH_REQUIRED when one is missing or repeated, PARTNER_UNKNOWN/… when malformed. */
export function readPartnerHeaders(h: Record<string, string | string[] | undefined>): PartnerHeaders {
  const get = (name: string): string => {
    const v = h[name];
    if (typeof v !== 'string' || v === '') throw nameErrors.partnerAuthRequired();
    return v;
  };
  const partnerId = get('x-partner-id').toLowerCase();
  const ts = get('x-partner-timestamp');
  const nonce = get('x-partner-nonce');
  const signature = get('x-partner-signature').toLowerCase();
  if (!isLowercaseUuid(partnerId)) throw nameErrors.partnerUnknown();
  if (!/^\d{1,12}$/.test(ts)) throw nameErrors.partnerTimestamp();
  if (!NONCE_RE.test(nonce)) throw nameErrors.partnerNonce();
  if (!SIG_RE.test(signature)) throw nameErrors.partnerSignature();
  return { partnerId, timestamp: Number(ts), nonce, signature };
}

/** 401 PARTNER_TIMESTAMP unless `timestamp` (s) is within the window around `nowMs`. */
export function checkTimestamp(timestamp: number, nowMs: number): void {
  if (Math.abs(nowMs / 1000 - timestamp) > PARTNER_WINDOW_S) throw nameErrors.partnerTimestamp();
}

/** 401 PARTNER_SIGNATURE unless `signature` is the MAC of `canonical` (constant-time comparison). */
export function checkSignature(keyHashHex: string, canonical: string, signature: string): void {
  const expected = Buffer.from(partnerSignature(keyHashHex, canonical), 'hex');
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw nameErrors.partnerSignature();
}

/** Remembers the nonces of accepted requests for as long as their timestamp could still pass the window. */
export interface PartnerNonceStore {
  /** Records the nonce; false when it was already recorded (a replay). */
  remember(partnerId: string, nonce: string, expiresAtMs: number, nowMs: number): Promise<boolean>;
}

/** {@link PartnerNonceStore} over `partner_nonces` (migration 006): unique (partner, nonce), expired rows purged. */
export class SqlPartnerNonceStore implements PartnerNonceStore {
  constructor(private readonly q: Queryable) {}

  async remember(partnerId: string, nonce: string, expiresAtMs: number, nowMs: number): Promise<boolean> {
    // Safe to purge: a row past expires_at belongs to a timestamp the window already refuses.
    await this.q.query('DELETE FROM partner_nonces WHERE expires_at < $1', [nowMs]);
    const r = await this.q.query(
      `INSERT INTO partner_nonces (partner_id, nonce, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (partner_id, nonce) DO NOTHING RETURNING nonce`,
      [partnerId, nonce, expiresAtMs],
    );
    return r.rows.length === 1;
  }
}

/** When a nonce signed at `timestamp` (s) stops mattering (ms). */
export function nonceExpiry(timestamp: number): number {
  return (timestamp + PARTNER_WINDOW_S) * 1000;
}
