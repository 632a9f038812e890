/**
 * Rate limit, before parsing: the same per-plan budgets and the same counter store as the REST services (one
 * budget per key across REST and GraphQL; Redis when configured). Each operation of a batch counts as one request.
 * Over budget → 429 with `Retry-After`; every response carries `X-RateLimit-*` and `X-API-Plan`.
 */
import type { Access } from '../../src/access/access.ts';
import { RouterError } from '../errors.ts';
import type { RouterPlugin } from '../plugin.ts';

export function rateLimitPlugin(access: Pick<Access, 'admit'>): RouterPlugin {
  return {
    name: 'rate-limit',
    async onHttpRequest(req, state) {
      const caller = state.caller;
      if (!caller) throw new Error('the rate-limit plugin needs the api-key plugin before it');
      for (let i = 0; i < req.operations.length; i++) {
        const d = await access.admit(caller);
        Object.assign(state.headers, d.headers);
        if (!d.ok) throw new RouterError(d.status, d.code, d.message, d.headers);
      }
    },
  };
}
