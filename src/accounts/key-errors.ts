import { ApiError } from '../core/errors.ts';
import type { KeyStatus } from '../access/key-repo.ts';
import { PLANS } from '../access/plans.ts';

/** Errors of API-key management (create, review, revoke). Access decisions have their own codes in access.ts. */
export const keyErrors = {
  notFound: (id: string) =>
    new ApiError(
      404,
      'KEY_NOT_FOUND',
      `no API key with id ${JSON.stringify(id)}: ids are UUIDs from the key list`,
    ),
  stateConflict: (id: string, current: KeyStatus, action: 'approve' | 'reject' | 'revoke') =>
    new ApiError(
      409,
      'KEY_STATE_CONFLICT',
      `API key ${id} is ${current}: only ${action === 'revoke' ? 'an approved' : 'a pending'} key can be ${
        action === 'revoke' ? 'revoked' : `${action}d`
      }`,
    ),
  invalidPlan: () => new ApiError(400, 'INVALID_PLAN', `plan must be one of ${PLANS.join(', ')}`),
  invalidText: (field: 'description' | 'reason', max: number) =>
    new ApiError(400, `INVALID_${field.toUpperCase()}`, `${field} is required: 1 to ${max} characters`),
  invalidOwner: () => new ApiError(400, 'INVALID_OWNER', 'ownerId must be null or 1 to 200 characters'),
};
