import { errorCatalog } from '../core/errors.ts';
import type { KeyStatus } from '../access/key-repo.ts';
import { PLANS } from '../access/plans.ts';

/** Errors of API-key management (create, review, revoke). Access decisions have their own codes in access.ts. */
export const keyErrors = errorCatalog('keys', {
  notFound: {
    status: 404,
    code: 'KEY_NOT_FOUND',
    message: (id: string) => `no API key with id ${JSON.stringify(id)}: ids are UUIDs from the key list`,
  },
  stateConflict: {
    status: 409,
    code: 'KEY_STATE_CONFLICT',
    message: (id: string, current: KeyStatus, action: 'approve' | 'reject' | 'revoke') =>
      `API key ${id} is ${current}: only ${action === 'revoke' ? 'an approved' : 'a pending'} key can be ${
        action === 'revoke' ? 'revoked' : `${action}d`
      }`,
  },
  invalidPlan: { status: 400, code: 'INVALID_PLAN', message: `plan must be one of ${PLANS.join(', ')}` },
  invalidDescription: {
    status: 400,
    code: 'INVALID_DESCRIPTION',
    message: (max: number) => `description is required: 1 to ${max} characters`,
  },
  invalidReason: {
    status: 400,
    code: 'INVALID_REASON',
    message: (max: number) => `reason is required: 1 to ${max} characters`,
  },
  invalidOwner: {
    status: 400,
    code: 'INVALID_OWNER',
    message: 'ownerId must be null or 1 to 200 characters',
  },
});
