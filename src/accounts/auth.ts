import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { encodeP2sh, parseAddress } from '../crypto/address.ts';
import { LTC } from '../crypto/coins.ts';
import { signatureShapeError, verifySignedMessage } from '../crypto/signed-message.ts';
import { accountErrors } from './errors.ts';
import type { Db } from '../store/db.ts';
import * as accounts from './account-repo.ts';
import { writeAudit } from './audit.ts';
import { challengeText, newNonce } from './challenge.ts';
import * as repo from './session-repo.ts';
import type { StoredChallenge } from './session-repo.ts';
import type { Account } from './types.ts';

export interface AuthServiceOptions {
  /** Host (and port) named in challenges, e.g. `api.coinwallet.example`. */
  domain: string;
  /** URI named in challenges; default `http://<domain>`. */
  uri?: string | undefined;
  /** Clock in ms; default `Date.now`. */
  now?: () => number;
  /** How long a challenge may be signed; default 5 minutes. */
  challengeTtlMs?: number;
  /** How long a session lasts; default 24 hours. */
  sessionTtlMs?: number;
}

export const CHALLENGE_TTL_MS = 5 * 60_000;
export const SESSION_TTL_MS = 24 * 3_600_000;
/**
 * Unused challenges kept per address: issuing one more drops the oldest (it then answers CHALLENGE_NOT_FOUND). Bounds
 * the rows a flood of challenge requests for one address can leave behind.
 */
export const OPEN_CHALLENGES_PER_ADDRESS = 5;
/** Expired challenges and sessions are kept this long (to answer CHALLENGE_EXPIRED / SESSION_EXPIRED), then purged. */
const CHALLENGE_RETENTION_MS = 3_600_000;
const SESSION_RETENTION_MS = 7 * 24 * 3_600_000;

const TOKEN_PREFIX = 'cws_';
const TOKEN_RE = /^cws_[A-Za-z0-9_-]{43}$/;
const NONCE_RE = /^[0-9a-f]{32}$/;

/** A new session: the token is shown once; only its SHA-256 is stored. */
export interface SignIn {
  token: string;
  /** UNIX ms. */
  expiresAt: number;
  account: Account;
}

/**
 * Wallet sign-in without passwords: a challenge text (see challenge.ts) signed as a Litecoin message proves the
 * caller holds the address's key, and buys a session token. Tokens are 32 random bytes (`cws_` + base64url), stored
 * only as SHA-256 (a 256-bit random secret needs no slow hash or pepper); each request looks its session up again, so
 * a logout or a role change applies to the very next request.
 */
export class AuthService {
  private readonly now: () => number;
  private readonly uri: string;
  private readonly challengeTtl: number;
  private readonly sessionTtl: number;

  constructor(
    private readonly db: Db,
    private readonly opts: AuthServiceOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.uri = opts.uri ?? `http://${opts.domain}`;
    this.challengeTtl = opts.challengeTtlMs ?? CHALLENGE_TTL_MS;
    this.sessionTtl = opts.sessionTtlMs ?? SESSION_TTL_MS;
  }

  /** A new single-use challenge for `address` (400 `INVALID_ADDRESS` unless it is an LTC address). */
  async challenge(address: string): Promise<{ challenge: string; nonce: string; expiresAt: number }> {
    const addr = normaliseAddress(address);
    const issuedAt = this.now();
    const expiresAt = issuedAt + this.challengeTtl;
    const nonce = newNonce();
    const message = challengeText({
      domain: this.opts.domain,
      address: addr,
      uri: this.uri,
      nonce,
      issuedAt,
      expiresAt,
    });
    await repo.purgeChallenges(this.db, issuedAt - CHALLENGE_RETENTION_MS);
    await this.db.transaction(async (tx) => {
      await repo.insertChallenge(tx, { nonce, address: addr, message, issuedAt, expiresAt, usedAt: null });
      await repo.dropOldUnusedChallenges(tx, addr, OPEN_CHALLENGES_PER_ADDRESS);
    });
    return { challenge: message, nonce, expiresAt };
  }

  /**
   * Exchanges a signed challenge for a session. The signature is checked against one challenge: the one `nonce`
   * names, or without a nonce the address's newest unused one (older clients; any newer challenge for the address
   * replaces it) — one signature check per attempt, never a scan. The challenge is consumed in the same transaction that creates
   * the session (and, on a first sign-in, the account). 401 codes: CHALLENGE_NOT_FOUND, CHALLENGE_USED,
   * CHALLENGE_EXPIRED, ADDRESS_MISMATCH, BAD_SIGNATURE; 400 INVALID_ADDRESS, MALFORMED_SIGNATURE.
   */
  async signIn(address: string, signature: string, nonce?: string): Promise<SignIn> {
    const addr = normaliseAddress(address);
    const at = this.now();
    const challenge =
      nonce === undefined
        ? ((await repo.selectRecentChallenges(this.db, addr, 1))[0] ?? null)
        : await this.named(addr, nonce);
    const match = this.verified(addr, signature, challenge);
    if (match.usedAt !== null) throw accountErrors.challengeUsed();
    if (at >= match.expiresAt) throw accountErrors.challengeExpired();

    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const expiresAt = at + this.sessionTtl;
    const account = await this.db.transaction(async (tx) => {
      if (!(await repo.consumeChallenge(tx, match.nonce, at))) throw accountErrors.challengeUsed();
      let acct = await accounts.selectByAddress(tx, addr);
      if (!acct) {
        const fresh: Account = { id: randomUUID(), address: addr, role: 'user', createdAt: at };
        if (await accounts.insertIfAbsent(tx, fresh)) {
          await writeAudit(
            tx,
            {
              actor: `account:${fresh.id}`,
              action: 'account.create',
              entity: 'account',
              entityId: fresh.id,
              fromState: null,
              toState: fresh.role,
              reason: 'first sign-in',
            },
            at,
          );
        }
        acct = (await accounts.selectByAddress(tx, addr)) ?? fresh;
      }
      await repo.insertSession(tx, {
        tokenHash: hashToken(token),
        accountId: acct.id,
        createdAt: at,
        expiresAt,
      });
      return acct;
    });
    // Housekeeping after the commit; a failure here never undoes the sign-in.
    await repo.purgeSessions(this.db, at - SESSION_RETENTION_MS).catch(() => undefined);
    return { token, expiresAt, account };
  }

  /** The account of a session token, as it is now. 401 INVALID_SESSION (unknown, logged out) or SESSION_EXPIRED. */
  async authenticate(token: string): Promise<Account> {
    if (!TOKEN_RE.test(token)) throw accountErrors.invalidSession();
    const s = await repo.selectSession(this.db, hashToken(token));
    if (!s || s.revokedAt !== null) throw accountErrors.invalidSession();
    if (this.now() >= s.expiresAt) throw accountErrors.sessionExpired();
    return s.account;
  }

  /** Ends the session of `token` (after {@link authenticate} succeeded for it). */
  async logout(token: string): Promise<void> {
    await repo.revokeSession(this.db, hashToken(token), this.now());
  }

  /** The challenge `nonce` names, when it is one of this address's. */
  private async named(addr: string, nonce: string): Promise<StoredChallenge | null> {
    const c = NONCE_RE.test(nonce) ? await repo.selectChallenge(this.db, nonce) : null;
    return c && c.address === addr ? c : null;
  }

  /** `challenge` when the signature signs it, else the 4xx that says why not (one signature check at most). */
  private verified(addr: string, signature: string, challenge: StoredChallenge | null): StoredChallenge {
    if (challenge === null) {
      // Still tell a malformed signature apart (a client bug) from a missing challenge: a parse, no verification.
      if (signatureShapeError(signature) !== null) throw accountErrors.malformedSignature();
      throw accountErrors.challengeNotFound();
    }
    const r = verifySignedMessage(LTC, addr, challenge.message, signature);
    if (r.ok) return challenge;
    if (r.code === 'MALFORMED_SIGNATURE') throw accountErrors.malformedSignature();
    if (r.code === 'MALFORMED_ADDRESS') throw accountErrors.invalidAddress();
    if (r.code === 'BAD_SIGNATURE') throw accountErrors.badSignature();
    throw accountErrors.addressMismatch();
  }
}

/** SHA-256 of a session token, hex: what `sessions` stores. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The canonical form of an LTC address (400 INVALID_ADDRESS when it is not one): bech32 lowercased, and a P2SH
 * address in the current `M…` version (the deprecated `3…` version names the same script, hence the same account).
 */
export function normaliseAddress(address: string): string {
  const a = address.trim();
  const parsed = a.length <= 100 ? parseAddress(a, LTC) : null;
  if (!parsed) throw accountErrors.invalidAddress();
  if (parsed.type === 'p2wpkh') return a.toLowerCase();
  if (parsed.type === 'p2sh') return encodeP2sh(parsed.hash, LTC);
  return a;
}
