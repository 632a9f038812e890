/**
 * Rate limit, before parsing: the same per-plan budgets and the same counter store as the REST services (one
 * budget per key across REST and GraphQL; Redis when configured). Each operation of a batch counts as one request;
 * a request the router refuses whole (an empty or too large batch, a body that is not JSON) counts as one, as REST
 * counts a malformed request. Over budget → 429 with `Retry-After`; every response carries `X-RateLimit-*` and
 * `X-API-Plan`.
 */
import type { Access } from '../../src/access/access.ts';
import type { RouterPlugin } from '../plugin.ts';

export interface RateLimitOptions {
  /** The largest batch the router runs (`Limits.maxBatch`): a larger one is refused whole, so it counts one. */
  maxBatch: number;
}

export function rateLimitPlugin(access: Pick<Access, 'admit'>, opts: RateLimitOptions): RouterPlugin {
  return {
    name: 'rate-limit',
    async onHttpRequest(req, state) {
      const caller = state.caller;
      if (!caller) throw new Error('the rate-limit plugin needs the api-key plugin before it');
      const n = req.operations.length;
      const count = n >= 1 && n <= opts.maxBatch ? n : 1;
      for (let i = 0; i < count; i++) {
        const d = await access.admit(caller);
        Object.assign(state.headers, d.headers);
        if (!d.ok) throw d;
      }
    },
  };
}
