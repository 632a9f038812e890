/**
 * OpenAPI description of the partner routes of the name service (`src/rest/names/partner-routes.ts`): an
 * administrator creates a partner credential; partners register and manage names for their users with
 * HMAC-signed requests (docs/names.md says how to sign).
 */
import {
  ADMIN_ERRORS,
  bodySchema,
  jsonResponse,
  ms,
  object,
  ok,
  operation,
  ref,
  SECURITY,
  str,
} from './components.ts';
import type { Json, OperationSpec, Paths } from './components.ts';
import { addressOnly, ASSET_PARAM, BAD_NAME, HELD_ERRORS, NAME_PARAM, privacy } from './names.ts';

const PARTNER_ERRORS = {
  401:
    'PARTNER_AUTH_REQUIRED, PARTNER_UNKNOWN, PARTNER_TIMESTAMP, PARTNER_NONCE, PARTNER_SIGNATURE, PARTNER_REPLAY: ' +
    'the request is not signed by a partner as docs/names.md describes',
};

/** A partner's signed operation. */
const signed = (s: Omit<OperationSpec, 'tags' | 'security'>): Json =>
  operation({
    ...s,
    tags: ['partners'],
    security: SECURITY.partner,
    errors: { ...PARTNER_ERRORS, ...s.errors },
  });

export const partnerPaths: Paths = {
  '/api/admin/partners': {
    post: operation({
      operationId: 'adminCreatePartner',
      summary: 'Creates a partner credential (its secret is shown this once)',
      tags: ['admin'],
      security: SECURITY.admin,
      body: bodySchema({ name: { type: 'string', minLength: 1, maxLength: 100 } }, ['name']),
      responses: {
        201: jsonResponse(
          'The credential',
          object({ id: str, name: str, secret: { type: 'string', pattern: '^cwp_' }, createdAt: ms }),
        ),
      },
      errors: ADMIN_ERRORS,
    }),
  },
  '/api/partner/names': {
    post: signed({
      operationId: 'partnerRegisterName',
      summary: 'Registers a name for one of the partner’s users',
      body: bodySchema(
        {
          name: { type: 'string', maxLength: 100 },
          owner: {
            type: 'string',
            maxLength: 200,
            description: 'The partner’s opaque reference of its user',
          },
        },
        ['name', 'owner'],
      ),
      responses: { 201: jsonResponse('The name', ref('Name')) },
      errors: { 400: 'INVALID_NAME', 409: 'NAME_TAKEN' },
    }),
  },
  '/api/partner/names/{name}': {
    patch: signed({
      operationId: 'partnerSetNamePrivate',
      summary: 'Makes one of the partner’s names private or public',
      parameters: [NAME_PARAM],
      body: privacy,
      responses: ok('The name', ref('Name')),
      errors: { ...HELD_ERRORS, 400: 'INVALID_NAME' },
    }),
  },
  '/api/partner/names/{name}/addresses/{asset}': {
    put: signed({
      operationId: 'partnerLinkAddress',
      summary: 'Links a custodied address to one of the partner’s names (no proof: the partner holds it)',
      parameters: [NAME_PARAM, ASSET_PARAM],
      body: addressOnly(200),
      responses: ok('The name', ref('Name')),
      errors: { ...HELD_ERRORS, 400: BAD_NAME },
    }),
    delete: signed({
      operationId: 'partnerUnlinkAddress',
      summary: 'Removes the address of a coin from one of the partner’s names',
      parameters: [NAME_PARAM, ASSET_PARAM],
      responses: ok('The name', ref('Name')),
      errors: { ...HELD_ERRORS, 400: `${BAD_NAME}; a body, when sent, must be {}` },
    }),
  },
  '/api/partner/names/{name}/primary/{asset}': {
    put: signed({
      operationId: 'partnerSetPrimaryName',
      summary: 'Makes one of the partner’s names the primary name of a custodied address',
      parameters: [NAME_PARAM, ASSET_PARAM],
      body: addressOnly(200),
      responses: ok('The reverse record', ref('PrimaryName')),
      errors: { ...HELD_ERRORS, 400: BAD_NAME, 409: 'PRIMARY_NEEDS_LINK' },
    }),
    delete: signed({
      operationId: 'partnerClearPrimaryName',
      summary: 'Stops one of the partner’s names being the primary name of any address of the coin',
      parameters: [NAME_PARAM, ASSET_PARAM],
      responses: ok('What was cleared', ref('ClearedPrimary')),
      errors: {
        ...HELD_ERRORS,
        400: `${BAD_NAME}; a body, when sent, must be {}`,
        404: 'NAME_NOT_FOUND, PRIMARY_NAME_NOT_SET',
      },
    }),
  },
};
