/**
 * OpenAPI description of the accounts API under `/api` (`src/rest/accounts/`): wallet sign-in and sessions, the
 * signed-in account and its API keys. The administrators' endpoints are in `admin.ts`, the dapp store in `dapps.ts`.
 * Shapes follow the domain types they serialise (`Account`, `ApiKeyRecord`); see docs/accounts.md for the rules.
 */
import { KEY_STATUSES } from '../../access/key-repo.ts';
import { PLANS } from '../../access/plans.ts';
import {
  bodySchema,
  created,
  list,
  ms,
  nMs,
  ok,
  operation,
  pathParam,
  ref,
  SECURITY,
  SESSION_ERRORS,
  str,
  uuid,
} from './components.ts';
import type { Json, Paths } from './components.ts';

/** A key record and the key itself (shown once, at creation). */
export const withKey = (name: string): Json => ({
  allOf: [
    ref(name),
    {
      type: 'object',
      properties: {
        key: { type: 'string', description: 'The API key itself: shown this once, stored only as a hash' },
      },
      required: ['key'],
    },
  ],
});

const KEY_FIELDS: Record<string, Json> = {
  id: uuid,
  prefix: { type: 'string', description: 'First 12 characters of the key, for telling keys apart' },
  plan: { type: 'string', enum: [...PLANS] },
  limitPerMinute: { type: 'integer', minimum: 1 },
  status: { type: 'string', enum: [...KEY_STATUSES] },
  description: str,
  rejectionReason: { type: ['string', 'null'], description: 'Why it was rejected; null unless rejected' },
  createdAt: ms,
  reviewedAt: nMs,
  revokedAt: nMs,
  lastUsedAt: { ...nMs, description: 'UNIX milliseconds; updated at most every 10 s' },
};

/** Component schemas of this surface. */
export const accountSchemas: Record<string, Json> = {
  Account: {
    type: 'object',
    properties: {
      id: uuid,
      address: { type: 'string', description: 'The LTC address signed in with' },
      role: { type: 'string', enum: ['user', 'admin'] },
      createdAt: ms,
    },
    required: ['id', 'address', 'role', 'createdAt'],
  },
  OwnApiKey: {
    type: 'object',
    description: 'An API key as its owner sees it',
    properties: KEY_FIELDS,
    required: Object.keys(KEY_FIELDS),
  },
  ApiKey: {
    type: 'object',
    description: 'An API key as administrators see it',
    properties: {
      ...KEY_FIELDS,
      ownerId: { type: ['string', 'null'], description: 'null for operator keys' },
    },
    required: [...Object.keys(KEY_FIELDS), 'ownerId'],
  },
};

const NO_BODY = { 400: 'UNKNOWN_FIELD, INVALID_BODY: a body, when sent, must be {}' };
const keyId = pathParam('id', 'The key id (a UUID)', uuid);
const reason = { type: 'string', maxLength: 500 };
const auth = ['auth'];
const keys = ['api-keys'];

export const accountPaths: Paths = {
  '/api/auth/challenge': {
    post: operation({
      operationId: 'requestSignInChallenge',
      summary: 'A sign-in challenge for an LTC address',
      description:
        'The text to sign with the wallet (a Litecoin signed message); valid 5 minutes, single-use.',
      tags: auth,
      security: SECURITY.public,
      body: bodySchema({ address: { type: 'string', maxLength: 100 } }, ['address']),
      responses: ok('The challenge', {
        type: 'object',
        properties: { challenge: str, nonce: { type: 'string', pattern: '^[0-9a-f]{32}$' }, expiresAt: ms },
        required: ['challenge', 'nonce', 'expiresAt'],
      }),
      errors: {
        400: 'INVALID_BODY, UNKNOWN_FIELD, INVALID_ADDRESS: address must be a Litecoin mainnet address',
      },
    }),
  },
  '/api/auth/session': {
    post: operation({
      operationId: 'signIn',
      summary: 'Signs in with a signed challenge: a session token',
      tags: auth,
      security: SECURITY.public,
      body: bodySchema(
        {
          address: { type: 'string', maxLength: 100 },
          signature: {
            type: 'string',
            maxLength: 200,
            description: 'Base64 Litecoin signed-message signature',
          },
          nonce: {
            type: 'string',
            maxLength: 64,
            description: 'The nonce of the challenge signed (recommended)',
          },
        },
        ['address', 'signature'],
      ),
      responses: created('The session', {
        type: 'object',
        properties: {
          token: { type: 'string', pattern: '^cws_' },
          expiresAt: ms,
          account: {
            type: 'object',
            properties: { id: uuid, address: str, role: { type: 'string', enum: ['user', 'admin'] } },
            required: ['id', 'address', 'role'],
          },
        },
        required: ['token', 'expiresAt', 'account'],
      }),
      errors: {
        400: 'INVALID_BODY, UNKNOWN_FIELD, INVALID_ADDRESS, MALFORMED_SIGNATURE',
        401: 'CHALLENGE_NOT_FOUND, CHALLENGE_USED, CHALLENGE_EXPIRED, ADDRESS_MISMATCH, BAD_SIGNATURE',
      },
    }),
  },
  '/api/auth/logout': {
    post: operation({
      operationId: 'signOut',
      summary: 'Ends the session of the bearer token',
      tags: auth,
      security: SECURITY.session,
      responses: { 204: { description: 'Signed out' } },
      errors: { ...NO_BODY, ...SESSION_ERRORS },
    }),
  },
  '/api/account/me': {
    get: operation({
      operationId: 'me',
      summary: 'The signed-in account',
      tags: auth,
      security: SECURITY.session,
      responses: ok('The account', ref('Account')),
      errors: SESSION_ERRORS,
    }),
  },
  '/api/account/api-keys': {
    post: operation({
      operationId: 'requestApiKey',
      summary: 'Requests an API key (pending until an administrator approves it)',
      tags: keys,
      security: SECURITY.session,
      body: bodySchema(
        {
          description: { type: 'string', minLength: 1, maxLength: 500 },
          plan: { type: 'string', enum: [...PLANS] },
        },
        ['description', 'plan'],
      ),
      responses: created('The key record and the key itself (shown this once)', withKey('OwnApiKey')),
      errors: SESSION_ERRORS,
    }),
    get: operation({
      operationId: 'myApiKeys',
      summary: 'The account’s API keys, newest first',
      tags: keys,
      security: SECURITY.session,
      responses: ok('The keys', list('OwnApiKey')),
      errors: SESSION_ERRORS,
    }),
  },
  '/api/account/api-keys/{id}': {
    get: operation({
      operationId: 'myApiKey',
      summary: 'One of the account’s API keys',
      tags: keys,
      security: SECURITY.session,
      parameters: [keyId],
      responses: ok('The key', ref('OwnApiKey')),
      errors: { ...SESSION_ERRORS, 404: 'KEY_NOT_FOUND: no key of this account has this id' },
    }),
  },
  '/api/account/api-keys/{id}/revoke': {
    post: operation({
      operationId: 'revokeMyApiKey',
      summary: 'Revokes one of the account’s approved keys',
      tags: keys,
      security: SECURITY.session,
      parameters: [keyId],
      body: bodySchema({ reason }),
      responses: ok('The revoked key', ref('OwnApiKey')),
      errors: {
        ...SESSION_ERRORS,
        404: 'KEY_NOT_FOUND: no key of this account has this id',
        409: 'KEY_STATE_CONFLICT: only an approved key can be revoked',
      },
    }),
  },
};
