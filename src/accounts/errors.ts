import { errorCatalog } from '../core/errors.ts';

/** Largest request body the accounts endpoints accept (bytes). */
export const ACCOUNTS_BODY_LIMIT = 16 * 1024;

const bearer = { 'www-authenticate': 'Bearer' };

/**
 * The accounts service's error catalog: sign-in, sessions, admin rights and request bodies. API-key state errors
 * (KEY_NOT_FOUND 404, KEY_STATE_CONFLICT 409, INVALID_PLAN/INVALID_DESCRIPTION/INVALID_REASON/INVALID_LIMIT 400)
 * come from `src/accounts/key-errors.ts` and `src/access/plans.ts`. The graph's accounts subgraph answers the same
 * entries, the 403s of another account's data included: both transports judge a caller by `guards.ts`.
 */
export const accountErrors = errorCatalog('accounts', {
  // 401: who is calling is unknown.
  authRequired: {
    status: 401,
    code: 'AUTH_REQUIRED',
    message:
      'this endpoint needs Authorization: Bearer <session token> (sign in with POST /api/auth/challenge and POST /api/auth/session)',
    headers: bearer,
    graphMessage:
      'this field needs Authorization: Bearer <session token> (sign in with the requestSignInChallenge and signIn mutations)',
  },
  invalidSession: {
    status: 401,
    code: 'INVALID_SESSION',
    message: 'the bearer token is not a current session (unknown or logged out): sign in again',
    headers: bearer,
  },
  sessionExpired: {
    status: 401,
    code: 'SESSION_EXPIRED',
    message: 'the session has expired: sign in again',
    headers: bearer,
  },

  // 401: sign-in refused.
  challengeNotFound: {
    status: 401,
    code: 'CHALLENGE_NOT_FOUND',
    message:
      'no sign-in challenge is open for this address: request one with POST /api/auth/challenge and sign it',
    graphMessage:
      'no sign-in challenge is open for this address: request one with the requestSignInChallenge mutation and sign it',
  },
  challengeUsed: {
    status: 401,
    code: 'CHALLENGE_USED',
    message: 'this challenge has already been used to sign in: challenges are single-use, request a new one',
  },
  challengeExpired: {
    status: 401,
    code: 'CHALLENGE_EXPIRED',
    message: 'this challenge has expired (challenges last 5 minutes): request a new one',
  },
  addressMismatch: {
    status: 401,
    code: 'ADDRESS_MISMATCH',
    message:
      'the signature was not made by the key of this address over the challenge text: sign the exact challenge with the wallet of that address',
  },
  badSignature: {
    status: 401,
    code: 'BAD_SIGNATURE',
    message: 'the signature does not verify: sign the exact challenge text as a Litecoin signed message',
  },

  // 400: malformed sign-in input (a client bug, not a failed sign-in).
  malformedSignature: {
    status: 400,
    code: 'MALFORMED_SIGNATURE',
    message: 'signature must be a base64 Litecoin signed-message signature (65 bytes, 88 characters)',
  },
  invalidAddress: {
    status: 400,
    code: 'INVALID_ADDRESS',
    message: (field = 'address') => `${field} must be a Litecoin mainnet address (L…, M…, 3… or ltc1…)`,
  },

  // 403 / 404.
  forbidden: {
    status: 403,
    code: 'FORBIDDEN',
    message: 'this endpoint is for administrators: your account is not one',
  },
  /**
   * The usage of a key that is not the caller's, asked by a non-administrator. Names no owner: the caller may not
   * know whose key it is.
   */
  notYourKey: {
    status: 403,
    code: 'FORBIDDEN',
    message: "only the key's owner and administrators see its usage: sign in as its owner",
  },
  /** Another account's API keys or dapp requests, asked by a non-administrator. */
  notYours: {
    status: 403,
    code: 'FORBIDDEN',
    message: (what: 'API keys' | 'dapp requests' | 'apps', accountId: string) =>
      `only account ${accountId} itself and administrators see its ${what}: sign in as that account`,
  },
  accountNotFound: {
    status: 404,
    code: 'ACCOUNT_NOT_FOUND',
    message: (address: string) => `no account with address ${JSON.stringify(address)}`,
  },

  // Bodies.
  invalidBody: {
    status: 400,
    code: 'INVALID_BODY',
    message: (field: string, expected: string) => `${field} ${expected}`,
  },
  unknownField: {
    status: 400,
    code: 'UNKNOWN_FIELD',
    message: (field: string, known: readonly string[]) =>
      `unknown field ${JSON.stringify(field)}: this endpoint accepts ${known.length ? known.join(', ') : 'no fields'}`,
  },
  payloadTooLarge: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: `request body must be at most ${ACCOUNTS_BODY_LIMIT / 1024} KiB on the accounts endpoints`,
  },
});
