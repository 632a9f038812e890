/**
 * OpenAPI description of the accounts API under `/api` (`src/rest/accounts/`): wallet sign-in and sessions, the
 * signed-in account and its API keys, the operator's and administrators' endpoints (`/api/admin/…`, what the CLI
 * calls), and the dapp store. Shapes follow the domain types they serialise (`ApiKeyRecord`, `Account`,
 * `DappRecord`, `StorePage`…); see docs/accounts.md and docs/dapps.md for the rules.
 */
import { KEY_STATUSES } from '../../access/key-repo.ts';
import { PLANS } from '../../access/plans.ts';
import { DAPP_CHAINS, DAPP_LIMITS, DAPP_STATUSES } from '../../accounts/dapps.ts';
import { bodySchema, jsonResponse, operation, pathParam, queryParam, SECURITY } from './components.ts';
import type { Json, Paths } from './components.ts';

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const list = (name: string): Json => ({ type: 'array', items: ref(name) });
const str = { type: 'string' };
const ms = { type: 'integer', description: 'UNIX milliseconds' };
const nMs = { type: ['integer', 'null'], description: 'UNIX milliseconds; null when it has not happened' };
const uuid = { type: 'string', format: 'uuid' };
const withKey = (name: string): Json => ({
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
const ownKey: Json = { type: 'object', properties: KEY_FIELDS, required: Object.keys(KEY_FIELDS) };

const DAPP_FIELDS: Record<string, Json> = {
  id: uuid,
  accountId: uuid,
  name: str,
  site: { type: 'string', description: 'The https:// address as submitted' },
  origin: { type: 'string', description: "site's origin: what the wallet's access check compares" },
  icon: str,
  description: str,
  contactEmail: str,
  chains: { type: 'array', items: { type: 'string', enum: [...DAPP_CHAINS] } },
  status: { type: 'string', enum: [...DAPP_STATUSES] },
  reviewNotes: { type: ['string', 'null'] },
  createdAt: ms,
  reviewedAt: nMs,
};
const { reviewedBy: _hidden, ...OWN_DAPP_FIELDS } = {
  ...DAPP_FIELDS,
  reviewedBy: { type: ['string', 'null'], description: 'operator, or account:<id> of the reviewer' },
};
const STORE_FIELDS = ['id', 'name', 'site', 'origin', 'icon', 'description', 'chains'] as const;

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
  OwnApiKey: { ...ownKey, description: 'An API key as its owner sees it' },
  ApiKey: {
    type: 'object',
    description: 'An API key as administrators see it',
    properties: {
      ...KEY_FIELDS,
      ownerId: { type: ['string', 'null'], description: 'null for operator keys' },
    },
    required: [...Object.keys(KEY_FIELDS), 'ownerId'],
  },
  OwnDapp: {
    type: 'object',
    description: 'A listing request as its submitter sees it',
    properties: OWN_DAPP_FIELDS,
    required: Object.keys(OWN_DAPP_FIELDS),
  },
  Dapp: {
    type: 'object',
    description: 'A listing request as administrators see it',
    properties: {
      ...DAPP_FIELDS,
      reviewedBy: { type: ['string', 'null'], description: 'operator, or account:<id> of the reviewer' },
    },
    required: [...Object.keys(DAPP_FIELDS), 'reviewedBy'],
  },
  StoreDapp: {
    type: 'object',
    description: 'A dapp of the public store',
    properties: {
      ...Object.fromEntries(STORE_FIELDS.map((f) => [f, DAPP_FIELDS[f] as Json])),
      approvedAt: ms,
    },
    required: [...STORE_FIELDS, 'approvedAt'],
    additionalProperties: false,
  },
};

const SESSION_ERRORS = {
  401: 'AUTH_REQUIRED, INVALID_SESSION, SESSION_EXPIRED: no current session in Authorization: Bearer',
};
const ADMIN_ERRORS = {
  ...SESSION_ERRORS,
  401: 'AUTH_REQUIRED, INVALID_SESSION, SESSION_EXPIRED: neither an administrator session nor the operator token',
  403: 'FORBIDDEN: the session is not an administrator’s',
};
const NO_BODY = { 400: 'UNKNOWN_FIELD, INVALID_BODY: a body, when sent, must be {}' };
const keyId = pathParam('id', 'The key id (a UUID)', uuid);
const dappId = pathParam('id', 'The dapp id (a UUID)', uuid);
const reason = { type: 'string', maxLength: 500 };
const notes = { type: 'string', minLength: 1, maxLength: DAPP_LIMITS.notes };
const page = [
  queryParam('page', 'Page, from 1', { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 }),
  queryParam('per_page', 'Items per page', { type: 'integer', minimum: 1, maximum: 100, default: 50 }),
];
const addressBody = bodySchema({ address: { type: 'string', maxLength: 100 }, reason }, ['address']);
const adminChange: Json = {
  allOf: [
    ref('Account'),
    {
      type: 'object',
      properties: { changed: { type: 'boolean', description: 'false when the role was already so' } },
      required: ['changed'],
    },
  ],
};

const DONE = { approve: 'approved', reject: 'rejected', revoke: 'revoked', delist: 'delisted' } as const;
const auth = ['auth'];
const keys = ['api-keys'];
const admin = ['admin'];
const dapps = ['dapps'];
const ok = (description: string, schema: Json): Record<number, Json> => ({
  200: jsonResponse(description, schema),
});
const created = (description: string, schema: Json): Record<number, Json> => ({
  201: jsonResponse(description, schema),
});

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
        properties: { token: { type: 'string', pattern: '^cws_' }, expiresAt: ms, account: ref('Account') },
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
  '/api/admin/api-keys': {
    get: operation({
      operationId: 'adminApiKeys',
      summary: 'Every API key, newest first (the review queue with status=pending)',
      tags: admin,
      security: SECURITY.admin,
      parameters: [
        queryParam('status', 'Only keys in this state', { type: 'string', enum: [...KEY_STATUSES] }),
      ],
      responses: ok('The keys', list('ApiKey')),
      errors: { ...ADMIN_ERRORS, 400: 'INVALID_PARAMETER: status is not a key state' },
    }),
    post: operation({
      operationId: 'adminCreateApiKey',
      summary: 'Creates a key of no owner (operators and automation)',
      tags: admin,
      security: SECURITY.admin,
      body: bodySchema(
        {
          plan: { type: 'string', enum: [...PLANS] },
          description: { type: 'string', maxLength: 500 },
          limitPerMinute: { type: 'integer', minimum: 1, maximum: 10_000 },
          approve: { type: 'boolean', default: false, description: 'true skips the review' },
        },
        ['plan'],
      ),
      responses: created('The key record and the key itself (shown this once)', withKey('ApiKey')),
      errors: ADMIN_ERRORS,
    }),
  },
  '/api/admin/api-keys/{id}': {
    get: operation({
      operationId: 'adminApiKey',
      summary: 'One API key',
      tags: admin,
      security: SECURITY.admin,
      parameters: [keyId],
      responses: ok('The key', ref('ApiKey')),
      errors: { ...ADMIN_ERRORS, 404: 'KEY_NOT_FOUND' },
    }),
  },
  ...Object.fromEntries(
    (
      [
        [
          'approve',
          'Approves a pending key',
          bodySchema({ limitPerMinute: { type: 'integer', minimum: 1, maximum: 10_000 }, reason }),
          'pending',
        ],
        [
          'reject',
          'Rejects a pending key (the reason is shown to its owner)',
          bodySchema({ reason: { ...reason, minLength: 1 } }, ['reason']),
          'pending',
        ],
        ['revoke', 'Revokes an approved key', bodySchema({ reason }), 'approved'],
      ] as const
    ).map(([action, summary, body, from]) => [
      `/api/admin/api-keys/{id}/${action}`,
      {
        post: operation({
          operationId: `admin${action[0]?.toUpperCase()}${action.slice(1)}ApiKey`,
          summary,
          tags: admin,
          security: SECURITY.admin,
          parameters: [keyId],
          body,
          responses: ok('The key after the change', ref('ApiKey')),
          errors: {
            ...ADMIN_ERRORS,
            404: 'KEY_NOT_FOUND',
            409: `KEY_STATE_CONFLICT: only a ${from} key can be ${DONE[action]}`,
          },
        }),
      },
    ]),
  ),
  '/api/admin/admins': {
    get: operation({
      operationId: 'adminAdmins',
      summary: 'The administrators',
      tags: admin,
      security: SECURITY.admin,
      responses: ok('Their accounts', list('Account')),
      errors: ADMIN_ERRORS,
    }),
    post: operation({
      operationId: 'adminGrantAdmin',
      summary: 'Makes the account of an LTC address an administrator (created if new)',
      tags: admin,
      security: SECURITY.admin,
      body: addressBody,
      responses: ok('The account', adminChange),
      errors: { ...ADMIN_ERRORS, 400: 'INVALID_BODY, UNKNOWN_FIELD, INVALID_ADDRESS' },
    }),
  },
  '/api/admin/admins/revoke': {
    post: operation({
      operationId: 'adminRevokeAdmin',
      summary: 'Takes the administrator role from the account of an LTC address',
      tags: admin,
      security: SECURITY.admin,
      body: addressBody,
      responses: ok('The account', adminChange),
      errors: {
        ...ADMIN_ERRORS,
        400: 'INVALID_BODY, UNKNOWN_FIELD, INVALID_ADDRESS',
        404: 'ACCOUNT_NOT_FOUND: no account has this address',
      },
    }),
  },
  '/api/account/dapps': {
    post: operation({
      operationId: 'submitDapp',
      summary: 'Submits a dapp listing request (at most 3 per account in 24 hours)',
      tags: dapps,
      security: SECURITY.session,
      body: bodySchema(
        {
          name: { type: 'string', minLength: 1, maxLength: DAPP_LIMITS.name },
          site: { type: 'string', maxLength: DAPP_LIMITS.url, description: 'An https:// URL' },
          icon: { type: 'string', maxLength: DAPP_LIMITS.url, description: 'An https:// URL' },
          description: { type: 'string', minLength: 1, maxLength: DAPP_LIMITS.description },
          contactEmail: { type: 'string', maxLength: DAPP_LIMITS.email },
          chains: { type: 'array', minItems: 1, items: { type: 'string', enum: [...DAPP_CHAINS] } },
        },
        ['name', 'site', 'icon', 'description', 'contactEmail', 'chains'],
      ),
      responses: created('The request, submitted', ref('OwnDapp')),
      errors: {
        ...SESSION_ERRORS,
        400: 'INVALID_BODY, UNKNOWN_FIELD, INVALID_NAME, INVALID_SITE, INVALID_ICON, INVALID_DESCRIPTION, INVALID_CONTACT_EMAIL, INVALID_CHAINS',
        429: 'DAPP_LIMIT_REACHED (3 requests in 24 hours) or RATE_LIMITED; see Retry-After',
      },
    }),
    get: operation({
      operationId: 'myDapps',
      summary: 'The account’s listing requests, newest first',
      tags: dapps,
      security: SECURITY.session,
      responses: ok('The requests', list('OwnDapp')),
      errors: SESSION_ERRORS,
    }),
  },
  '/api/admin/dapps': {
    get: operation({
      operationId: 'adminDapps',
      summary: 'Listing requests, oldest first (the review queue with status=submitted)',
      tags: admin,
      security: SECURITY.admin,
      parameters: [
        queryParam('status', 'Only requests in this state', { type: 'string', enum: [...DAPP_STATUSES] }),
        ...page,
      ],
      responses: ok('The requests', list('Dapp')),
      errors: { ...ADMIN_ERRORS, 400: 'INVALID_PARAMETER: status, page or per_page out of range' },
    }),
  },
  ...Object.fromEntries(
    (
      [
        ['approve', 'Approves a submitted dapp (it joins the store)', false, 'submitted'],
        ['reject', 'Rejects a submitted dapp (notes say why)', true, 'submitted'],
        [
          'delist',
          'Delists an approved dapp (it leaves the store and loses wallet access)',
          true,
          'approved',
        ],
      ] as const
    ).map(([action, summary, needsNotes, from]) => [
      `/api/admin/dapps/{id}/${action}`,
      {
        post: operation({
          operationId: `admin${action[0]?.toUpperCase()}${action.slice(1)}Dapp`,
          summary,
          tags: admin,
          security: SECURITY.admin,
          parameters: [dappId],
          body: bodySchema({ notes }, needsNotes ? ['notes'] : []),
          responses: ok('The request after the decision', ref('Dapp')),
          errors: {
            ...ADMIN_ERRORS,
            400: 'INVALID_BODY, UNKNOWN_FIELD, INVALID_NOTES',
            404: 'DAPP_NOT_FOUND',
            409: `DAPP_STATE_CONFLICT: only a ${from} dapp can be ${DONE[action]}`,
          },
        }),
      },
    ]),
  ),
  '/api/dapps': {
    get: operation({
      operationId: 'dappStore',
      summary: 'The dapp store: approved dapps, newest listing first',
      tags: dapps,
      security: SECURITY.public,
      parameters: [
        ...page,
        queryParam('chain', 'Only dapps declaring this chain (any case)', { type: 'string' }),
      ],
      responses: ok('One page of the store', {
        type: 'object',
        properties: {
          page: { type: 'integer', minimum: 1 },
          perPage: { type: 'integer', minimum: 1 },
          total: {
            type: 'integer',
            minimum: 0,
            description: 'Approved dapps matching the filter, all pages',
          },
          dapps: list('StoreDapp'),
        },
        required: ['page', 'perPage', 'total', 'dapps'],
      }),
      errors: { 400: 'INVALID_PARAMETER: page, per_page or chain out of range' },
    }),
  },
  '/api/dapps/access': {
    get: operation({
      operationId: 'dappAccess',
      summary: 'Whether a page origin is an approved dapp (the wallet’s check)',
      description: 'Cache-Control: no-store (a delisting applies at once).',
      tags: dapps,
      security: SECURITY.public,
      parameters: [
        queryParam('origin', 'The page origin, e.g. https://app.example.com', { type: 'string' }, true),
      ],
      responses: ok('The answer', {
        type: 'object',
        properties: {
          origin: { type: 'string', description: 'The normalised origin checked' },
          allowed: { type: 'boolean' },
          dappId: { type: ['string', 'null'] },
        },
        required: ['origin', 'allowed', 'dappId'],
      }),
      errors: { 400: 'MISSING_PARAMETER, INVALID_PARAMETER: origin must be an http(s) URL' },
    }),
  },
};
