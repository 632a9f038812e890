/**
 * OpenAPI description of the administrators' endpoints of the accounts API (`src/rest/accounts/admin-routes.ts`):
 * the API-key review queue, operator keys (what the CLI calls with the operator token) and the administrator role.
 * Dapp review is in `dapps.ts`, partner credentials in `partners.ts`.
 */
import { KEY_STATUSES } from '../../access/key-repo.ts';
import { PLANS } from '../../access/plans.ts';
import { withKey } from './accounts.ts';
import {
  ADMIN_ERRORS,
  bodySchema,
  created,
  DONE,
  list,
  ok,
  operation,
  pathParam,
  queryParam,
  ref,
  SECURITY,
  uuid,
} from './components.ts';
import type { Json, Paths } from './components.ts';

const keyId = pathParam('id', 'The key id (a UUID)', uuid);
const reason = { type: 'string', maxLength: 500 };
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
const admin = ['admin'];

export const adminPaths: Paths = {
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
          limitPerMinute: {
            type: 'integer',
            minimum: 1,
            maximum: 10_000,
            description: 'Enterprise keys only; others have their plan’s limit',
          },
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
};
