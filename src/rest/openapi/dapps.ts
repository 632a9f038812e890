/**
 * OpenAPI description of the dapp routes of the accounts API (`src/rest/accounts/dapps.ts`): an account's listing
 * requests, their review by administrators, the public store and the wallet's access check. Shapes follow
 * `DappRecord`, `OwnDapp`, `StoreDapp` and `StorePage`; see docs/dapps.md for the rules.
 */
import { DAPP_CHAINS, DAPP_LIMITS, DAPP_STATUSES } from '../../accounts/dapps.ts';
import {
  ADMIN_ERRORS,
  bodySchema,
  created,
  DONE,
  list,
  ms,
  nMs,
  ok,
  operation,
  pathParam,
  queryParam,
  ref,
  SECURITY,
  SESSION_ERRORS,
  str,
  uuid,
} from './components.ts';
import type { Json, Paths } from './components.ts';

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
const STORE_FIELDS = ['id', 'name', 'site', 'origin', 'icon', 'description', 'chains'] as const;

export const dappSchemas: Record<string, Json> = {
  OwnDapp: {
    type: 'object',
    description: 'A listing request as its submitter sees it',
    properties: DAPP_FIELDS,
    required: Object.keys(DAPP_FIELDS),
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

const dappId = pathParam('id', 'The dapp id (a UUID)', uuid);
const notes = { type: 'string', minLength: 1, maxLength: DAPP_LIMITS.notes };
const page = [
  queryParam('page', 'Page, from 1', { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 }),
  queryParam('per_page', 'Items per page', { type: 'integer', minimum: 1, maximum: 100, default: 50 }),
];
const dapps = ['dapps'];
const admin = ['admin'];

export const dappPaths: Paths = {
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
