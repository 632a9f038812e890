import type { ApiError } from '../core/errors.ts';
import { errorCatalog } from '../core/errors.ts';
import type { ValidateAddressErrorCode } from '../crypto/validate-address.ts';

/** Largest request body the name endpoints accept (bytes). */
export const NAMES_BODY_LIMIT = 16 * 1024;

/** A 404 may be cached by heuristics unless told otherwise: a name registered or linked later must show at once. */
const noCache = { 'cache-control': 'no-cache' };

/**
 * The name service's error catalog (docs/names.md lists every code). Body errors (INVALID_BODY, UNKNOWN_FIELD) and
 * session errors (AUTH_REQUIRED, INVALID_SESSION…) come from `src/accounts/errors.ts`; query errors
 * (MISSING_PARAMETER, INVALID_PARAMETER) from `src/core/params.ts`.
 */
export const nameErrors = errorCatalog('names', {
  invalidName: {
    status: 400,
    code: 'INVALID_NAME',
    message: (rule: string) => rule,
  },
  /**
   * No such name — and, identically, a private name (same status, code, message and headers), so that a private
   * name's existence never shows through resolution or through another account's requests.
   */
  nameNotFound: {
    status: 404,
    code: 'NAME_NOT_FOUND',
    message: (name: string) => `no public name ${JSON.stringify(name)} is registered`,
    headers: noCache,
  },
  addressNotLinked: {
    status: 404,
    code: 'ADDRESS_NOT_LINKED',
    message: (name: string, asset: string) => `${name} has no ${asset} address linked`,
    headers: noCache,
  },
  nameTaken: {
    status: 409,
    code: 'NAME_TAKEN',
    message: (name: string) => `${name} is already registered: names are first come, first served`,
  },
  /**
   * `Account.names` of another account (the graph's field): the accounts catalog's code, with this field's rule for
   * a message, since that catalog's own FORBIDDEN message speaks of administrators.
   */
  namesOfAnother: {
    status: 403,
    code: 'FORBIDDEN',
    message: "an account's names are shown to that account only: sign in as it",
  },
  notYours: {
    status: 403,
    code: 'NAME_NOT_YOURS',
    message: (name: string) => `${name} is held by someone else: only its holder can change it`,
  },
  /** An address that does not validate (`src/crypto/validate-address.ts` says why): {@link addressError}. */
  invalidAddress: { status: 400, code: 'INVALID_ADDRESS', message: (message: string) => message },
  wrongNetwork: { status: 400, code: 'WRONG_NETWORK', message: (message: string) => message },
  unsupportedAsset: { status: 400, code: 'UNSUPPORTED_ASSET', message: (message: string) => message },
  transferToSelf: {
    status: 400,
    code: 'TRANSFER_TO_SELF',
    message: 'the recipient already holds this name: transfer it to another account',
  },
  transferTarget: {
    status: 400,
    code: 'INVALID_BODY',
    message: 'give exactly one of toAddress (an LTC address) or toAccountId (an account id)',
  },
  accountNotFound: {
    status: 404,
    code: 'ACCOUNT_NOT_FOUND',
    message: 'toAccountId names no account',
  },

  // Proof of control (account-owned links).
  proofRequired: {
    status: 400,
    code: 'PROOF_REQUIRED',
    message: (asset: string) =>
      `linking a ${asset} address needs signature and nonce: request a challenge with POST /api/names/{name}/addresses/${asset}/challenge and sign it with that address`,
    graphMessage: (asset: string) =>
      `linking a ${asset} address needs signature and nonce: request a challenge with the requestAddressChallenge mutation and sign it with that address`,
  },
  challengeNotFound: {
    status: 400,
    code: 'CHALLENGE_NOT_FOUND',
    message: 'nonce names no challenge of yours for this name, coin and address: request a new challenge',
  },
  challengeUsed: {
    status: 400,
    code: 'CHALLENGE_USED',
    message: 'this challenge has already been used: challenges are single-use',
  },
  challengeExpired: {
    status: 400,
    code: 'CHALLENGE_EXPIRED',
    message: 'this challenge has expired (challenges last 5 minutes): request a new one',
  },
  malformedSignature: {
    status: 400,
    code: 'MALFORMED_SIGNATURE',
    message: (format: string) => `signature must be ${format}`,
  },
  unprovableAddress: {
    status: 400,
    code: 'UNPROVABLE_ADDRESS',
    message: (asset: string) =>
      `this ${asset} address kind cannot sign messages: link a P2PKH, P2SH-P2WPKH or P2WPKH address`,
  },
  wrongSigner: {
    status: 403,
    code: 'WRONG_SIGNER',
    message:
      "the signature is valid but was not made by this address's key: sign the challenge with the wallet of the address being linked",
  },
  badSignature: {
    status: 403,
    code: 'BAD_SIGNATURE',
    message: 'the signature does not verify over the exact challenge text',
  },

  // Partners.
  partnerAuthRequired: {
    status: 401,
    code: 'PARTNER_AUTH_REQUIRED',
    message:
      'partner endpoints need the headers x-partner-id, x-partner-timestamp, x-partner-nonce and x-partner-signature (see docs/names.md)',
  },
  partnerUnknown: {
    status: 401,
    code: 'PARTNER_UNKNOWN',
    message: 'x-partner-id names no partner',
  },
  partnerTimestamp: {
    status: 401,
    code: 'PARTNER_TIMESTAMP',
    message:
      'x-partner-timestamp must be the current time in UNIX seconds, within 5 minutes of the server clock',
  },
  partnerNonce: {
    status: 401,
    code: 'PARTNER_NONCE',
    message: 'x-partner-nonce must be 16 to 64 characters of A-Z, a-z, 0-9, _ and -',
  },
  partnerSignature: {
    status: 401,
    code: 'PARTNER_SIGNATURE',
    message:
      'x-partner-signature is not the hex HMAC-SHA256 of this request (method, path with query, timestamp, nonce, body hash)',
  },
  partnerReplay: {
    status: 401,
    code: 'PARTNER_REPLAY',
    message: 'this x-partner-nonce has already been used: every request needs a new nonce',
  },

  // Primary names (reverse resolution) and bulk resolution.
  /**
   * No primary name to serve for an address: none was set, the name is private, or it no longer resolves to the
   * address (forward verification). One answer for all three, so a private name never shows through its addresses.
   */
  primaryNotFound: {
    status: 404,
    code: 'PRIMARY_NAME_NOT_FOUND',
    message: (asset: string) => `this ${asset} address has no public primary name that resolves back to it`,
    headers: noCache,
  },
  primaryProofRequired: {
    status: 400,
    code: 'PROOF_REQUIRED',
    message: (asset: string) =>
      `making a name the primary name of a ${asset} address needs signature and nonce: request a challenge with POST /api/names/{name}/primary/${asset}/challenge and sign it with that address`,
    graphMessage: (asset: string) =>
      `making a name the primary name of a ${asset} address needs signature and nonce: request a challenge with the requestPrimaryNameChallenge mutation and sign it with that address`,
  },
  primaryNeedsLink: {
    status: 409,
    code: 'PRIMARY_NEEDS_LINK',
    message: (name: string, asset: string) =>
      `${name} must resolve to this ${asset} address before it can be its primary name: link the address to the name first (PUT /api/names/${name}/addresses/${asset})`,
    graphMessage: (name: string, asset: string) =>
      `${name} must resolve to this ${asset} address before it can be its primary name: link the address to the name first (the linkAddress mutation)`,
  },
  primaryNotSet: {
    status: 404,
    code: 'PRIMARY_NAME_NOT_SET',
    message: (name: string, asset: string) => `${name} is not the primary name of any ${asset} address`,
  },
  batchTooLarge: {
    status: 400,
    code: 'BATCH_TOO_LARGE',
    message: (max: number) => `names must hold at most ${max} {name, asset} pairs per request`,
  },

  payloadTooLarge: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: `request body must be at most ${NAMES_BODY_LIMIT / 1024} KiB on the name endpoints`,
  },
  invalidJson: {
    status: 400,
    code: 'INVALID_JSON',
    message: 'request body must be a valid JSON document',
  },
});

/** The refusal of an address the validator refused, under its code and with its message. */
export const addressError = (code: ValidateAddressErrorCode, message: string): ApiError =>
  ({
    INVALID_ADDRESS: nameErrors.invalidAddress,
    WRONG_NETWORK: nameErrors.wrongNetwork,
    UNSUPPORTED_ASSET: nameErrors.unsupportedAsset,
  })[code](message);
