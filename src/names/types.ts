import type { Account } from '../accounts/types.ts';
import type { ApiError } from '../core/errors.ts';
import type { LinkedAddress } from './name-repo.ts';

/** Who holds (or acts on) a name: a signed-in wallet account, or a partner acting for one of its users. */
export type Holder = { kind: 'account'; account: Account } | { kind: 'partner'; partnerId: string };

/** `account:<id>` or `partner:<id>`: the audit log's actor. */
export function holderLabel(h: Holder): string {
  return h.kind === 'account' ? `account:${h.account.id}` : `partner:${h.partnerId}`;
}

/** A name as its holder sees it. */
export interface NameView {
  name: string;
  private: boolean;
  /** An account id, or the partner and its opaque reference of the user. */
  holder: { type: 'account'; accountId: string } | { type: 'partner'; partnerId: string; ownerRef: string };
  /** Uppercase ticker → linked address. */
  addresses: Record<string, LinkedAddress>;
  /** UNIX ms. */
  createdAt: number;
  /** UNIX ms: the last change of privacy or holder. */
  updatedAt: number;
}

/** A public resolution: `GET /api/resolve/{name}?asset=`. */
export interface Resolution {
  name: string;
  asset: string;
  address: string;
  /** UNIX ms of the link. */
  updatedAt: number;
}

/**
 * The outcome of a well-formed resolution: the address, or the catalog's 404 saying why there is none with the
 * normalised name and asset it is about — NAME_NOT_FOUND (a missing and a private name alike: the same error, built
 * from the name alone) or ADDRESS_NOT_LINKED. REST throws `error`; the identity subgraph answers it as data.
 */
export type ResolutionOutcome =
  { kind: 'found'; resolution: Resolution } | { kind: 'miss'; error: ApiError; name: string; asset: string };

/** A proof-of-control challenge to sign with the address being linked. */
export interface ProofChallenge {
  challenge: string;
  nonce: string;
  /** UNIX ms. */
  expiresAt: number;
}

/** Where a transfer goes: a wallet account by its LTC address (created if new) or an existing account by id. */
export type TransferTarget = { toAddress: string } | { toAccountId: string };
