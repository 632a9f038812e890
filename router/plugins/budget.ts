/**
 * The caller's budgets per plan, the same as the REST services' (one budget per key across REST and GraphQL; the
 * counters in Redis when configured):
 *
 * - requests per minute: a request whose caller this process has seen spent is refused before its body is read
 *   (`onHead`); then each operation of a batch counts as one request, and a request the router refuses whole (an
 *   empty or too large batch, a body that is not JSON) as one, as REST counts a malformed request (`onHttpRequest`).
 *   Over budget → 429 with `Retry-After`; every response carries `X-RateLimit-*` and `X-API-Plan`. Each event of a
 *   subscription counts as one request too (`onEvent`).
 * - places in flight: an admitted request waits for one of its caller's places before its operations run
 *   (`onAdmitted`; `src/access/concurrency.ts`).
 * - subscriptions: the coins one may follow and the streams open at once (`onSubscribe`).
 *
 * Named `rate-limit` in traces (`router.rate-limit`), as before it held the places and streams.
 */
import type { Access } from '../../src/access/access.ts';
import { routerErrors } from '../errors.ts';
import type { RouterPlugin } from '../plugin.ts';

export interface BudgetOptions {
  /** The largest batch the router runs (`Limits.maxBatch`): a larger one is refused whole, so it counts one. */
  maxBatch: number;
}

export function budgetPlugin(
  access: Pick<Access, 'admit' | 'spent' | 'enter'> & Partial<Pick<Access, 'openStream' | 'idsPerStream'>>,
  opts: BudgetOptions,
): RouterPlugin {
  return {
    name: 'rate-limit',
    onHead(_head, state) {
      const spent = state.caller ? access.spent(state.caller) : null;
      if (spent) throw spent;
    },
    async onHttpRequest(req, state) {
      const caller = state.caller;
      if (!caller) throw new Error('the budget plugin needs the api-key plugin before it');
      const n = req.operations.length;
      const count = n >= 1 && n <= opts.maxBatch ? n : 1;
      for (let i = 0; i < count; i++) {
        const d = await access.admit(caller);
        Object.assign(state.headers, d.headers);
        if (!d.ok) throw d;
      }
    },
    async onAdmitted(state, gone) {
      if (!state.caller) return undefined;
      // Over the caller's places in flight, the request waits its turn.
      const place = await access.enter(state.caller, gone);
      if (place !== null && typeof place !== 'function') throw place;
      return place;
    },
    onSubscribe(state, sub) {
      const caller = state.caller;
      if (!caller) return undefined;
      if (sub.asked && access.idsPerStream) {
        const max = access.idsPerStream(caller.plan);
        if (sub.asked.count > max)
          throw routerErrors.tooManySubscriptionIds(sub.asked.count, max, caller.plan, sub.asked.argument);
      }
      if (!access.openStream) return undefined;
      const place = access.openStream(caller);
      if (typeof place !== 'function') throw place;
      return place;
    },
    async onEvent(state) {
      if (!state.caller) return;
      const d = await access.admit(state.caller);
      if (!d.ok) throw d;
    },
  };
}
