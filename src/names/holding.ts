/**
 * Rules every name operation shares (the name service, `service.ts`, and primary names, `primary.ts`): who holds a
 * name, how an address is validated, how a change is audited.
 */
import { writeAudit } from '../accounts/audit.ts';
import type { Account } from '../accounts/types.ts';
import type { Network } from '../crypto/chains.ts';
import { validateAddress } from '../crypto/validate-address.ts';
import type { Queryable } from '../store/db.ts';
import { addressError, nameErrors } from './errors.ts';
import * as repo from './name-repo.ts';
import type { NameRow } from './name-repo.ts';
import type { ParsedName } from './name-rules.ts';
import { newProofNonce, proofChallengeText, verifyProof } from './proof.ts';
import { holderLabel } from './types.ts';
import type { Holder, ProofChallenge } from './types.ts';

/** How long a used or expired proof challenge is kept before a new one sweeps it away. */
const CHALLENGE_RETENTION_MS = 3_600_000;

/**
 * The name, when `holder` holds it: else 404 NAME_NOT_FOUND (missing, or private and not theirs) or 403
 * NAME_NOT_YOURS. `forUpdate` locks its row for the rest of the transaction.
 */
export async function heldName(
  q: Queryable,
  holder: Holder,
  n: ParsedName,
  forUpdate: boolean,
): Promise<NameRow> {
  const row = await repo.selectName(q, n.label, forUpdate);
  if (!row) throw nameErrors.nameNotFound(n.name);
  const mine =
    holder.kind === 'account' ? row.ownerAccountId === holder.account.id : row.partnerId === holder.partnerId;
  if (mine) return row;
  throw row.private ? nameErrors.nameNotFound(n.name) : nameErrors.notYours(n.name);
}

/** `input` validated for `asset` on `network`, in its normalised form; 400 INVALID_ADDRESS / WRONG_NETWORK… */
export function validAddress(asset: string, input: string, network: Network): string {
  const v = validateAddress(asset, input.trim(), network);
  if (!v.ok) throw addressError(v.code, v.message);
  return v.address;
}

/** Writes one `audit_log` row about name `label` in the transaction `tx`. */
export function auditName(
  tx: Queryable,
  holder: Holder,
  change: { action: string; label: string; from: string | null; to: string | null; reason: string | null },
  at: number,
): Promise<void> {
  return writeAudit(
    tx,
    {
      actor: holderLabel(holder),
      action: change.action,
      entity: 'name',
      entityId: change.label,
      fromState: change.from,
      toState: change.to,
      reason: change.reason,
    },
    at,
  );
}

/**
 * Issues and stores a single-use challenge for `account` to sign with `address`: linking it to the name
 * (`link`) or making the name its primary name (`primary`). Challenges older than an hour are swept on the way.
 */
export async function issueProofChallenge(
  q: Queryable,
  purpose: 'link' | 'primary',
  c: { account: Account; n: ParsedName; asset: string; address: string; issuedAt: number; ttlMs: number },
): Promise<ProofChallenge> {
  const { account, n, asset, address, issuedAt } = c;
  const expiresAt = issuedAt + c.ttlMs;
  const nonce = newProofNonce();
  const fields = { name: n.name, asset, address, account: account.address, nonce, issuedAt, expiresAt };
  const message = proofChallengeText(fields, purpose);
  await repo.purgeChallenges(q, issuedAt - CHALLENGE_RETENTION_MS);
  await repo.insertChallenge(q, {
    purpose,
    nonce,
    accountId: account.id,
    label: n.label,
    asset,
    address,
    message,
    issuedAt,
    expiresAt,
    usedAt: null,
  });
  return { challenge: message, nonce, expiresAt };
}

/**
 * Checks the signature of the challenge `proof.nonce` names: issued for this purpose, account, name, asset and address,
 * unused and unexpired at `at` (else CHALLENGE_NOT_FOUND, CHALLENGE_USED, CHALLENGE_EXPIRED, or the signature's own
 * error). Returns the nonce, for the caller to mark the challenge used.
 */
export async function verifiedChallenge(
  q: Queryable,
  purpose: 'link' | 'primary',
  c: { account: Account; n: ParsedName; asset: string; address: string; at: number; network: Network },
  proof: { nonce: string; signature: string },
): Promise<string> {
  const row = await repo.selectChallenge(q, proof.nonce);
  if (
    !row ||
    row.purpose !== purpose ||
    row.accountId !== c.account.id ||
    row.label !== c.n.label ||
    row.asset !== c.asset ||
    row.address !== c.address
  )
    throw nameErrors.challengeNotFound();
  if (row.usedAt !== null) throw nameErrors.challengeUsed();
  if (c.at >= row.expiresAt) throw nameErrors.challengeExpired();
  verifyProof(c.asset, c.network, c.address, row.message, proof.signature);
  return row.nonce;
}
