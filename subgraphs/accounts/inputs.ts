/**
 * The accounts subgraph's inputs, checked by the REST routes' rules: the body specs of the same fields, the usage
 * window, the dapp store's cursor and chain filter.
 */
import { PLANS } from '../../src/access/plans.ts';
import type { BodySpec } from '../../src/accounts/body.ts';
import { DAPP_CHAINS } from '../../src/accounts/dapps.ts';
import { paramError } from '../../src/core/params.ts';
import { fromApiError } from '../shared/errors.ts';

/** Largest `first` of `dappStore` (as REST's `per_page` of `/dapps`). */
export const MAX_STORE_PAGE = 100;

/** Widest window of `ApiKey.usage` and `serviceStats`, in minutes (one day). */
export const MAX_USAGE_MINUTES = 1_440;

// The REST routes' body rules for the same fields (auth-routes.ts, key-routes.ts, admin-routes.ts, and
// names/partner-routes.ts for partners).
export const REASON = { type: 'string', max: 500 } as const;
export const LIMIT = { type: 'integer', min: 1, max: 10_000 } as const;
export const ADDRESS = { type: 'string', required: true, max: 100 } as const;
export const CHALLENGE = { address: ADDRESS } as const satisfies BodySpec;
export const SESSION = {
  address: ADDRESS,
  signature: { type: 'string', required: true, max: 200 },
  nonce: { type: 'string', max: 64 },
} as const satisfies BodySpec;
export const REQUEST_KEY = {
  description: { type: 'string', required: true, max: 500 },
} as const satisfies BodySpec;
export const REVOKE_KEY = { reason: REASON } as const satisfies BodySpec;
export const APPROVE_KEY = { limitPerMinute: LIMIT, reason: REASON } as const satisfies BodySpec;
export const REJECT_KEY = { reason: { ...REASON, required: true } } as const satisfies BodySpec;
export const ISSUE_KEY = {
  plan: { type: 'string', required: true, max: 20, oneOf: PLANS },
  description: { type: 'string', max: 500 },
  limitPerMinute: LIMIT,
  approve: { type: 'boolean' },
} as const satisfies BodySpec;
export const ROLE = { address: ADDRESS, reason: REASON } as const satisfies BodySpec;
export const PARTNER = { name: { type: 'string', required: true, max: 100 } } as const satisfies BodySpec;

/** REST's description of a key issued without one (`POST /api/admin/api-keys`). */
export const ISSUED_KEY_DESCRIPTION = 'created by the operator';

/** `minutes` of the usage fields: an integer from 1 to {@link MAX_USAGE_MINUTES}, else INVALID_PARAMETER. */
export function usageMinutes(minutes: number): number {
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_USAGE_MINUTES)
    throw fromApiError(paramError('minutes', `must be an integer from 1 to ${MAX_USAGE_MINUTES}`));
  return minutes;
}

/** Opaque cursor of the dapp at `offset` of the store. */
export const encodeStoreCursor = (offset: number): string =>
  Buffer.from(`dapps:${offset}`).toString('base64url');

export function decodeStoreCursor(cursor: string): number {
  const m = /^dapps:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m)
    throw fromApiError(paramError('after', 'must be a cursor of dappStore (an endCursor or edge cursor)'));
  return Number(m[1]);
}

/** `chain` of the store as REST's `/dapps?chain=`: any case → uppercase; empty → no filter; unknown → INVALID_PARAMETER. */
export function storeChain(chain: string | null | undefined): string | undefined {
  if (chain == null || chain === '') return undefined;
  const c = chain.toUpperCase();
  if (!DAPP_CHAINS.includes(c))
    throw fromApiError(paramError('chain', `must be one of ${DAPP_CHAINS.join(', ')}`));
  return c;
}
