import { notReady } from '../core/errors.ts';

/**
 * Errors shared by every REST surface. The answers of the host itself (no route, a body it cannot read, a request
 * it refuses before any route) are the host's (`src/server/host/errors.ts`), which renders every error.
 */
export const commonErrors = {
  notReady,
};
