import { ApiError } from '../core/errors.ts';

/** Largest request body the name endpoints accept (bytes). */
export const NAMES_BODY_LIMIT = 16 * 1024;

/** A 404 may be cached by heuristics unless told otherwise: a name registered or linked later must show at once. */
const noCache = { 'cache-control': 'no-cache' };

/**
 * The name service's error catalog (docs/names.md lists every code). Body errors (INVALID_BODY, UNKNOWN_FIELD) and
 * session errors (AUTH_REQUIRED, INVALID_SESSION…) come from `src/accounts/errors.ts`; query errors
 * (MISSING_PARAMETER, INVALID_PARAMETER) from `src/core/params.ts`.
 */
export const nameErrors = {
  invalidName: (rule: string) => new ApiError(400, 'INVALID_NAME', rule),
  /**
   * No such name — and, identically, a private name (same status, code, message and headers), so that a private
   * name's existence never shows through resolution or through another account's requests.
   */
  nameNotFound: (name: string) =>
    new ApiError(404, 'NAME_NOT_FOUND', `no public name ${JSON.stringify(name)} is registered`, noCache),
  addressNotLinked: (name: string, asset: string) =>
    new ApiError(404, 'ADDRESS_NOT_LINKED', `${name} has no ${asset} address linked`, noCache),
  nameTaken: (name: string) =>
    new ApiError(409, 'NAME_TAKEN', `${name} is already registered: names are first come, first served`),
  notYours: (name: string) =>
    new ApiError(403, 'NAME_NOT_YOURS', `${name} is held by someone else: only its holder can change it`),
  invalidAddress: (code: string, message: string) => new ApiError(400, code, message),
  transferToSelf: () =>
    new ApiError(
      400,
      'TRANSFER_TO_SELF',
      'the recipient already holds this name: transfer it to another account',
    ),
  transferTarget: () =>
    new ApiError(
      400,
      'INVALID_BODY',
      'give exactly one of toAddress (an LTC address) or toAccountId (an account id)',
    ),
  accountNotFound: () => new ApiError(404, 'ACCOUNT_NOT_FOUND', 'toAccountId names no account'),

  // Proof of control (account-owned links).
  proofRequired: (asset: string) =>
    new ApiError(
      400,
      'PROOF_REQUIRED',
      `linking a ${asset} address needs signature and nonce: request a challenge with POST /api/names/{name}/addresses/${asset}/challenge and sign it with that address`,
      {},
      `linking a ${asset} address needs signature and nonce: request a challenge with the requestAddressChallenge mutation and sign it with that address`,
    ),
  challengeNotFound: () =>
    new ApiError(
      400,
      'CHALLENGE_NOT_FOUND',
      'nonce names no challenge of yours for this name, coin and address: request a new challenge',
    ),
  challengeUsed: () =>
    new ApiError(400, 'CHALLENGE_USED', 'this challenge has already been used: challenges are single-use'),
  challengeExpired: () =>
    new ApiError(
      400,
      'CHALLENGE_EXPIRED',
      'this challenge has expired (challenges last 5 minutes): request a new one',
    ),
  malformedSignature: (format: string) =>
    new ApiError(400, 'MALFORMED_SIGNATURE', `signature must be ${format}`),
  unprovableAddress: (asset: string) =>
    new ApiError(
      400,
      'UNPROVABLE_ADDRESS',
      `this ${asset} address kind cannot sign messages: link a P2PKH, P2SH-P2WPKH or P2WPKH address`,
    ),
  wrongSigner: () =>
    new ApiError(
      403,
      'WRONG_SIGNER',
      "the signature is valid but was not made by this address's key: sign the challenge with the wallet of the address being linked",
    ),
  badSignature: () =>
    new ApiError(403, 'BAD_SIGNATURE', 'the signature does not verify over the exact challenge text'),

  // Partners.
  partnerAuthRequired: () =>
    new ApiError(
      401,
      'PARTNER_AUTH_REQUIRED',
      'partner endpoints need the headers x-partner-id, x-partner-timestamp, x-partner-nonce and x-partner-signature (see docs/names.md)',
    ),
  partnerUnknown: () => new ApiError(401, 'PARTNER_UNKNOWN', 'x-partner-id names no partner'),
  partnerTimestamp: () =>
    new ApiError(
      401,
      'PARTNER_TIMESTAMP',
      'x-partner-timestamp must be the current time in UNIX seconds, within 5 minutes of the server clock',
    ),
  partnerNonce: () =>
    new ApiError(
      401,
      'PARTNER_NONCE',
      'x-partner-nonce must be 16 to 64 characters of A-Z, a-z, 0-9, _ and -',
    ),
  partnerSignature: () =>
    new ApiError(
      401,
      'PARTNER_SIGNATURE',
      'x-partner-signature is not the hex HMAC-SHA256 of this request (method, path with query, timestamp, nonce, body hash)',
    ),
  partnerReplay: () =>
    new ApiError(
      401,
      'PARTNER_REPLAY',
      'this x-partner-nonce has already been used: every request needs a new nonce',
    ),

  // Primary names (reverse resolution) and bulk resolution.
  /**
   * No primary name to serve for an address: none was set, the name is private, or it no longer resolves to the
   * address (forward verification). One answer for all three, so a private name never shows through its addresses.
   */
  primaryNotFound: (asset: string) =>
    new ApiError(
      404,
      'PRIMARY_NAME_NOT_FOUND',
      `this ${asset} address has no public primary name that resolves back to it`,
      noCache,
    ),
  primaryProofRequired: (asset: string) =>
    new ApiError(
      400,
      'PROOF_REQUIRED',
      `making a name the primary name of a ${asset} address needs signature and nonce: request a challenge with POST /api/names/{name}/primary/${asset}/challenge and sign it with that address`,
      {},
      `making a name the primary name of a ${asset} address needs signature and nonce: request a challenge with the requestPrimaryNameChallenge mutation and sign it with that address`,
    ),
  primaryNeedsLink: (name: string, asset: string) =>
    new ApiError(
      409,
      'PRIMARY_NEEDS_LINK',
      `${name} must resolve to this ${asset} address before it can be its primary name: link the address to the name first (PUT /api/names/${name}/addresses/${asset})`,
      {},
      `${name} must resolve to this ${asset} address before it can be its primary name: link the address to the name first (the linkAddress mutation)`,
    ),
  primaryNotSet: (name: string, asset: string) =>
    new ApiError(404, 'PRIMARY_NAME_NOT_SET', `${name} is not the primary name of any ${asset} address`),
  batchTooLarge: (max: number) =>
    new ApiError(400, 'BATCH_TOO_LARGE', `names must hold at most ${max} {name, asset} pairs per request`),

  payloadTooLarge: () =>
    new ApiError(
      413,
      'PAYLOAD_TOO_LARGE',
      `request body must be at most ${NAMES_BODY_LIMIT / 1024} KiB on the name endpoints`,
    ),
  invalidJson: () => new ApiError(400, 'INVALID_JSON', 'request body must be a valid JSON document'),
};
