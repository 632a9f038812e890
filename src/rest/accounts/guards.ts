import type { FastifyRequest } from 'fastify';
import type { Account, Actor } from '../../accounts/types.ts';

/**
 * Authentication of account and admin endpoints, checked on every request:
 * - `account(req)`: the account of `Authorization: Bearer <session token>`; no or bad session → 401.
 * - `admin(req)`: an admin account's session, or the operator's `ADMIN_TOKEN`; no session → 401, a signed-in
 *   non-admin → 403.
 */
export interface AuthGuards {
  account(req: FastifyRequest): Promise<Account>;
  admin(req: FastifyRequest): Promise<Actor>;
}
