import type { FastifyRequest } from 'fastify';
import type { AuthService } from '../../accounts/auth.ts';
import { presented, reviewer } from '../../accounts/guards.ts';
import type { Account, Actor } from '../../accounts/types.ts';
import { accountErrors } from '../../accounts/errors.ts';
import { admitCaller, refusedCredentials } from '../api-limits.ts';
import type { ApiLimits } from '../api-limits.ts';
import type { AuthGuards } from './guards.ts';

/**
 * {@link AuthGuards} over sessions and the operator token, by the domain's rules (`src/accounts/guards.ts`, the
 * accounts subgraph's too). Nothing is cached: every request reads its session and its account's role, so a logout or
 * a role change applies to the very next request. With `limits`, each admitted request counts in its account's
 * `account` bucket (the operator's: one), and a refused session in its IP's `sign-in` bucket
 * (`src/rest/api-limits.ts`).
 */
export function createAuthGuards(opts: {
  auth: AuthService;
  adminToken: string | null;
  limits?: ApiLimits | undefined;
}): AuthGuards {
  const account = async (req: FastifyRequest): Promise<Account> => {
    const { sessionToken } = presented(req.headers.authorization, null);
    if (sessionToken === null) throw accountErrors.authRequired();
    let acct: Account;
    try {
      acct = await opts.auth.authenticate(sessionToken);
    } catch (e) {
      throw await refusedCredentials(opts.limits, req, e);
    }
    await admitCaller(opts.limits, 'account', acct.id);
    return acct;
  };
  return {
    account,
    async admin(req: FastifyRequest): Promise<Actor> {
      // The operator token first (constant-time); anything else must be an administrator's session.
      const { operator } = presented(req.headers.authorization, opts.adminToken);
      if (operator) await admitCaller(opts.limits, 'account', 'operator');
      return reviewer({ operator, viewer: () => account(req) });
    },
  };
}

/**
 * Runs `guard` in an `onRequest` hook, before the body is read (so an anonymous caller gets 401, never a body
 * error), and hands its result to the handler through `who(req)`.
 */
export function guarded<T>(guard: (req: FastifyRequest) => Promise<T>): {
  onRequest: (req: FastifyRequest) => Promise<void>;
  who: (req: FastifyRequest) => T;
} {
  const seen = new WeakMap<FastifyRequest, T>();
  return {
    onRequest: async (req) => {
      seen.set(req, await guard(req));
    },
    who: (req) => {
      if (!seen.has(req)) throw new Error('guarded route without its onRequest hook');
      return seen.get(req) as T;
    },
  };
}
