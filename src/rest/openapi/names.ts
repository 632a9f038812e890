/**
 * OpenAPI description of the name service under `/api` (`src/rest/names/`): public resolution (single, bulk,
 * reverse) and a signed-in account's names; partners' operations are in `partners.ts`. Shapes follow `src/names/types.ts` (`NameView`, `Resolution`, `ProofChallenge`) and `PrimaryName`; see
 * docs/names.md for the rules.
 */
import { NAME_ASSETS } from '../../names/name-rules.ts';
import { MAX_BULK_NAMES } from '../../names/bulk.ts';
import {
  bodySchema,
  ERROR_DETAIL,
  jsonResponse,
  ms,
  object,
  ok,
  operation,
  pathParam,
  queryParam,
  ref,
  SECURITY,
  SESSION_ERRORS,
  str,
} from './components.ts';
import type { Json, OperationSpec, Paths } from './components.ts';

/** An uppercase ticker a name can hold an address of. */
export const asset = { type: 'string', enum: [...NAME_ASSETS] };

export const nameSchemas: Record<string, Json> = {
  Resolution: object({
    name: str,
    asset,
    address: str,
    updatedAt: { ...ms, description: 'When it was linked' },
  }),
  PrimaryName: object({
    address: str,
    asset,
    name: str,
    updatedAt: { ...ms, description: 'When the name became the primary name of the address' },
  }),
  Name: {
    ...object({
      name: { type: 'string', examples: ['alice.coin'] },
      private: { type: 'boolean', description: 'A private name resolves for nobody' },
      holder: {
        oneOf: [
          object({ type: { const: 'account' }, accountId: str }),
          object({ type: { const: 'partner' }, partnerId: str, ownerRef: str }),
        ],
      },
      addresses: {
        type: 'object',
        description: 'Uppercase ticker → the linked address',
        propertyNames: asset,
        additionalProperties: object({ address: str, updatedAt: ms }),
      },
      createdAt: ms,
      updatedAt: { ...ms, description: 'The last change of privacy or holder' },
    }),
    description: 'A name as its holder sees it',
  },
  ProofChallenge: {
    ...object({ challenge: str, nonce: str, expiresAt: ms }),
    description: 'Text to sign with the address being proved (a signed message of its coin); single-use',
  },
  ClearedPrimary: object({
    name: str,
    asset,
    cleared: { type: 'array', items: str, description: 'The addresses the name stopped being primary for' },
  }),
};

export const HELD_ERRORS = {
  403: 'NAME_NOT_YOURS: the name is held by someone else',
  404: 'NAME_NOT_FOUND: no such name',
};
export const NAME_PARAM = pathParam('name', 'The name with its suffix, e.g. alice.coin');
export const ASSET_PARAM = pathParam('asset', 'An uppercase ticker, e.g. LTC', asset);
export const BAD_NAME = 'INVALID_NAME, INVALID_PARAMETER (asset), or the address is not one of that coin';
const etag = {
  ETag: { description: 'Strong validator of the body: send it as If-None-Match', schema: str },
  'Cache-Control': { description: 'no-cache: keep, but revalidate every time', schema: str },
};
const notModified = { 304: { description: 'Unchanged since the ETag named in If-None-Match' } };
const proof = bodySchema(
  {
    address: { type: 'string', maxLength: 200 },
    signature: { type: 'string', maxLength: 200, description: 'The challenge signed by the address' },
    nonce: { type: 'string', maxLength: 64, description: 'The challenge’s nonce' },
  },
  ['address'],
);
export const addressOnly = (max: number): Json =>
  bodySchema({ address: { type: 'string', maxLength: max } }, ['address']);
export const privacy = bodySchema({ private: { type: 'boolean' } }, ['private']);
const PROOF_ERRORS =
  'PROOF_REQUIRED, CHALLENGE_NOT_FOUND, CHALLENGE_USED, CHALLENGE_EXPIRED, MALFORMED_SIGNATURE, UNPROVABLE_ADDRESS, ' +
  BAD_NAME;

const names = ['names'];

/** A signed-in account's operation on one of its names. */
const own = (s: Omit<OperationSpec, 'tags' | 'security'>): Json =>
  operation({ ...s, tags: names, security: SECURITY.session });

export const namePaths: Paths = {
  '/api/resolve/{name}': {
    get: operation({
      operationId: 'resolveName',
      summary: 'The address a name resolves to for a coin',
      tags: names,
      security: SECURITY.public,
      parameters: [NAME_PARAM, queryParam('asset', 'Uppercase ticker', asset, true)],
      responses: { 200: jsonResponse('The resolution', ref('Resolution'), etag), ...notModified },
      errors: {
        400: 'INVALID_NAME; MISSING_PARAMETER or INVALID_PARAMETER: asset',
        404: 'NAME_NOT_FOUND (missing or private: the same answer), ADDRESS_NOT_LINKED',
      },
    }),
  },
  '/api/resolve': {
    post: operation({
      operationId: 'resolveNames',
      summary: `Resolves up to ${MAX_BULK_NAMES} (name, asset) pairs at once`,
      description:
        'One outcome per pair in the order asked: the single resolution’s answer, with its status. Cache-Control: no-store.',
      tags: names,
      security: SECURITY.public,
      body: bodySchema(
        {
          names: {
            type: 'array',
            maxItems: MAX_BULK_NAMES,
            items: bodySchema(
              { name: { type: 'string', maxLength: 100 }, asset: { type: 'string', maxLength: 20 } },
              ['name', 'asset'],
            ),
          },
        },
        ['names'],
      ),
      responses: ok(
        'The outcomes',
        object({
          results: {
            type: 'array',
            items: {
              oneOf: [
                {
                  type: 'object',
                  allOf: [ref('Resolution')],
                  properties: { status: { const: 200 } },
                  required: ['status'],
                },
                object({
                  status: { enum: [400, 404] },
                  name: str,
                  asset: str,
                  error: ERROR_DETAIL,
                }),
              ],
            },
          },
        }),
      ),
      errors: { 400: 'INVALID_BODY, UNKNOWN_FIELD, BATCH_TOO_LARGE' },
    }),
  },
  '/api/reverse/{address}': {
    get: operation({
      operationId: 'reverseName',
      summary: 'The primary name of an address (forward-verified)',
      tags: names,
      security: SECURITY.public,
      parameters: [
        pathParam('address', 'An address of the coin'),
        queryParam('asset', 'Uppercase ticker', asset, true),
      ],
      responses: { 200: jsonResponse('The primary name', ref('PrimaryName'), etag), ...notModified },
      errors: {
        400: 'MISSING_PARAMETER or INVALID_PARAMETER (asset); the address is not one of that coin',
        404: 'PRIMARY_NAME_NOT_FOUND: none set, private, or no longer resolving to the address',
      },
    }),
  },
  '/api/names': {
    post: own({
      operationId: 'registerName',
      summary: 'Registers a name for the signed-in account (first come, first served)',
      body: bodySchema({ name: { type: 'string', maxLength: 100 } }, ['name']),
      responses: { 201: jsonResponse('The name', ref('Name')) },
      errors: { ...SESSION_ERRORS, 400: 'INVALID_NAME', 409: 'NAME_TAKEN' },
    }),
    get: own({
      operationId: 'myNames',
      summary: 'The signed-in account’s names',
      responses: ok('The names', { type: 'array', items: ref('Name') }),
      errors: SESSION_ERRORS,
    }),
  },
  '/api/names/{name}': {
    patch: own({
      operationId: 'setNamePrivate',
      summary: 'Makes a name private (resolves for nobody) or public',
      parameters: [NAME_PARAM],
      body: privacy,
      responses: ok('The name', ref('Name')),
      errors: { ...SESSION_ERRORS, ...HELD_ERRORS, 400: 'INVALID_NAME' },
    }),
  },
  '/api/names/{name}/transfer': {
    post: own({
      operationId: 'transferName',
      summary: 'Gives a name to another account (by LTC address, created if new, or by id)',
      parameters: [NAME_PARAM],
      body: {
        ...bodySchema({
          toAddress: { type: 'string', maxLength: 200 },
          toAccountId: { type: 'string', maxLength: 64 },
        }),
        description: 'Exactly one of toAddress and toAccountId',
      },
      responses: ok('The name, now the recipient’s', ref('Name')),
      errors: {
        ...SESSION_ERRORS,
        ...HELD_ERRORS,
        400: 'INVALID_NAME, INVALID_ADDRESS, TRANSFER_TO_SELF, INVALID_BODY (not exactly one recipient)',
        404: 'NAME_NOT_FOUND, ACCOUNT_NOT_FOUND (toAccountId)',
      },
    }),
  },
  '/api/names/{name}/addresses/{asset}/challenge': {
    post: own({
      operationId: 'requestAddressChallenge',
      summary: 'A challenge proving control of the address to link',
      parameters: [NAME_PARAM, ASSET_PARAM],
      body: addressOnly(200),
      responses: ok('The challenge', ref('ProofChallenge')),
      errors: { ...SESSION_ERRORS, ...HELD_ERRORS, 400: `UNPROVABLE_ADDRESS, ${BAD_NAME}` },
    }),
  },
  '/api/names/{name}/addresses/{asset}': {
    put: own({
      operationId: 'linkAddress',
      summary: 'Links an address to the name with a signed challenge (proof of control)',
      parameters: [NAME_PARAM, ASSET_PARAM],
      body: proof,
      responses: ok('The name', ref('Name')),
      errors: {
        ...SESSION_ERRORS,
        ...HELD_ERRORS,
        400: PROOF_ERRORS,
        403: 'NAME_NOT_YOURS, WRONG_SIGNER, BAD_SIGNATURE',
      },
    }),
    delete: own({
      operationId: 'unlinkAddress',
      summary: 'Removes the name’s address of a coin',
      parameters: [NAME_PARAM, ASSET_PARAM],
      responses: ok('The name', ref('Name')),
      errors: { ...SESSION_ERRORS, ...HELD_ERRORS, 400: `${BAD_NAME}; a body, when sent, must be {}` },
    }),
  },
  '/api/names/{name}/primary/{asset}/challenge': {
    post: own({
      operationId: 'requestPrimaryNameChallenge',
      summary: 'A challenge proving control of the address the name becomes primary for',
      parameters: [NAME_PARAM, ASSET_PARAM],
      body: addressOnly(200),
      responses: ok('The challenge', ref('ProofChallenge')),
      errors: { ...SESSION_ERRORS, ...HELD_ERRORS, 400: `UNPROVABLE_ADDRESS, ${BAD_NAME}` },
    }),
  },
  '/api/names/{name}/primary/{asset}': {
    put: own({
      operationId: 'setPrimaryName',
      summary: 'Makes the name the primary name (reverse record) of an address it resolves to',
      parameters: [NAME_PARAM, ASSET_PARAM],
      body: proof,
      responses: ok('The reverse record', ref('PrimaryName')),
      errors: {
        ...SESSION_ERRORS,
        ...HELD_ERRORS,
        400: PROOF_ERRORS,
        403: 'NAME_NOT_YOURS, WRONG_SIGNER, BAD_SIGNATURE',
        409: 'PRIMARY_NEEDS_LINK: link the address to the name first',
      },
    }),
    delete: own({
      operationId: 'clearPrimaryName',
      summary: 'Stops the name being the primary name of any address of the coin',
      parameters: [NAME_PARAM, ASSET_PARAM],
      responses: ok('What was cleared', ref('ClearedPrimary')),
      errors: {
        ...SESSION_ERRORS,
        ...HELD_ERRORS,
        400: `${BAD_NAME}; a body, when sent, must be {}`,
        404: 'NAME_NOT_FOUND, PRIMARY_NAME_NOT_SET',
      },
    }),
  },
};
