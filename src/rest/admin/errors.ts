import { ApiError } from '../errors.ts';

/** Operator endpoints' error catalog. */
export const adminErrors = {
  unauthorized: () =>
    new ApiError(401, 'ADMIN_AUTH_REQUIRED', 'operator endpoints need Authorization: Bearer <ADMIN_TOKEN>', {
      'www-authenticate': 'Bearer',
    }),
  badBody: (field: string, expected: string) => new ApiError(400, 'INVALID_BODY', `${field} ${expected}`),
};
