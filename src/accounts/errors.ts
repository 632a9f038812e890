import { ApiError } from '../core/errors.ts';

/** Largest request body the accounts endpoints accept (bytes). */
export const ACCOUNTS_BODY_LIMIT = 16 * 1024;

const bearer = { 'www-authenticate': 'Bearer' };

/**
 * The accounts service's error catalog: sign-in, sessions, admin rights and request bodies. API-key state errors
 * (KEY_NOT_FOUND 404, KEY_STATE_CONFLICT 409, INVALID_PLAN/INVALID_DESCRIPTION/INVALID_REASON/INVALID_LIMIT 400)
 * come from `src/accounts/key-errors.ts` and `src/access/plans.ts`.
 */
export const accountErrors = {
  // 401: who is calling is unknown.
  authRequired: () =>
    new ApiError(
      401,
      'AUTH_REQUIRED',
      'this endpoint needs Authorization: Bearer <session token> (sign in with POST /api/auth/challenge and POST /api/auth/session)',
      bearer,
      'this field needs Authorization: Bearer <session token> (sign in with the requestSignInChallenge and signIn mutations)',
    ),
  invalidSession: () =>
    new ApiError(
      401,
      'INVALID_SESSION',
      'the bearer token is not a current session (unknown or logged out): sign in again',
      bearer,
    ),
  sessionExpired: () =>
    new ApiError(401, 'SESSION_EXPIRED', 'the session has expired: sign in again', bearer),

  // 401: sign-in refused.
  challengeNotFound: () =>
    new ApiError(
      401,
      'CHALLENGE_NOT_FOUND',
      'no sign-in challenge is open for this address: request one with POST /api/auth/challenge and sign it',
      {},
      'no sign-in challenge is open for this address: request one with the requestSignInChallenge mutation and sign it',
    ),
  challengeUsed: () =>
    new ApiError(
      401,
      'CHALLENGE_USED',
      'this challenge has already been used to sign in: challenges are single-use, request a new one',
    ),
  challengeExpired: () =>
    new ApiError(
      401,
      'CHALLENGE_EXPIRED',
      'this challenge has expired (challenges last 5 minutes): request a new one',
    ),
  addressMismatch: () =>
    new ApiError(
      401,
      'ADDRESS_MISMATCH',
      'the signature was not made by the key of this address over the challenge text: sign the exact challenge with the wallet of that address',
    ),
  badSignature: () =>
    new ApiError(
      401,
      'BAD_SIGNATURE',
      'the signature does not verify: sign the exact challenge text as a Litecoin signed message',
    ),

  // 400: malformed sign-in input (a client bug, not a failed sign-in).
  malformedSignature: () =>
    new ApiError(
      400,
      'MALFORMED_SIGNATURE',
      'signature must be a base64 Litecoin signed-message signature (65 bytes, 88 characters)',
    ),
  invalidAddress: (field = 'address') =>
    new ApiError(400, 'INVALID_ADDRESS', `${field} must be a Litecoin mainnet address (L…, M…, 3… or ltc1…)`),

  // 403 / 404.
  forbidden: () =>
    new ApiError(403, 'FORBIDDEN', 'this endpoint is for administrators: your account is not one'),
  accountNotFound: (address: string) =>
    new ApiError(404, 'ACCOUNT_NOT_FOUND', `no account with address ${JSON.stringify(address)}`),

  // Bodies.
  invalidBody: (field: string, expected: string) => new ApiError(400, 'INVALID_BODY', `${field} ${expected}`),
  unknownField: (field: string, known: readonly string[]) =>
    new ApiError(
      400,
      'UNKNOWN_FIELD',
      `unknown field ${JSON.stringify(field)}: this endpoint accepts ${
        known.length ? known.join(', ') : 'no fields'
      }`,
    ),
  payloadTooLarge: () =>
    new ApiError(
      413,
      'PAYLOAD_TOO_LARGE',
      `request body must be at most ${ACCOUNTS_BODY_LIMIT / 1024} KiB on the accounts endpoints`,
    ),
};
