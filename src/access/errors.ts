import { ApiError, errorCatalog } from '../core/errors.ts';
import type { CallerPlan } from './plans.ts';

/** Who a refusal speaks of: the key's plan, or the address of a caller without a key. */
const whoOf = (plan: CallerPlan): string =>
  plan === 'keyless' ? 'requests without an API key from this address' : `this API key (${plan} plan)`;

/**
 * The access module's refusals: the key step (400/401; the messages describe the key's state and nothing about its
 * owner) and the budgets (429). `src/access/access.ts` makes each an {@link AccessRefusal}.
 */
export const accessErrors = errorCatalog('access', {
  keyConflict: {
    status: 400,
    code: 'API_KEY_CONFLICT',
    message:
      'send one API key: the request carries two different values (headers x-sp-api-key, x-cg-pro-api-key, x-cg-demo-api-key or query parameters x_sp_api_key, x_cg_pro_api_key, x_cg_demo_api_key)',
  },
  keyUnknown: {
    status: 401,
    code: 'API_KEY_UNKNOWN',
    message:
      'the API key is not recognised: send it exactly as issued (it starts with cw_live_) in the x-sp-api-key header or the x_sp_api_key query parameter',
  },
  keyPending: {
    status: 401,
    code: 'API_KEY_PENDING',
    message: 'this API key is awaiting review: it can be used once it is approved',
  },
  keyRejected: {
    status: 401,
    code: 'API_KEY_REJECTED',
    message:
      "this API key was rejected at review and cannot be used: the reason is shown in its owner's key list",
  },
  keyRevoked: {
    status: 401,
    code: 'API_KEY_REVOKED',
    message: 'this API key has been revoked and cannot be used: request a new key',
  },
  /** Over the per-minute request budget; the rate-limit headers are the caller's (`AccessRefusal`). */
  rateLimited: {
    status: 429,
    code: 'RATE_LIMITED',
    message: (limit: number, plan: CallerPlan, retry: number) =>
      `rate limit of ${limit} requests per minute reached for ${whoOf(plan)}: retry after ${retry} s${
        plan === 'keyless' ? ', or send an API key for a higher limit' : ''
      }`,
  },
  /** Fewer points of the per-minute cost budget left than the operation costs (`left`: before it). */
  costBudgetExhausted: {
    status: 429,
    code: 'COST_BUDGET_EXHAUSTED',
    message: (limit: number, plan: CallerPlan, points: number, left: number, retry: number) =>
      `query cost budget of ${limit} per minute spent for ${whoOf(plan)}: this operation costs ${points} and ${left} is left; retry after ${retry} s${
        plan === 'keyless' ? ', or send an API key for a larger budget' : ''
      }`,
    headers: (limit: number, _plan: CallerPlan, _points: number, left: number, retry: number) => ({
      'retry-after': String(retry),
      'x-cost-budget-limit': String(limit),
      'x-cost-budget-remaining': String(left),
      'x-cost-budget-reset': String(retry),
    }),
  },
  /**
   * The caller's queue for a place in flight is full. `Retry-After` is 1 s here and below: a place may come free at
   * any moment, and a caller who comes back too soon only waits again.
   */
  queueFull: {
    status: 429,
    code: 'TOO_MANY_CONCURRENT',
    message: (plan: CallerPlan, places: number, queue: number) =>
      `${places} requests in flight and ${queue} waiting is the most for ${whoOf(plan)}: send fewer requests at once, and retry after 1 s`,
    headers: { 'retry-after': '1' },
  },
  /** The request waited its longest for a place in flight. */
  waitedTooLong: {
    status: 429,
    code: 'TOO_MANY_CONCURRENT',
    message: (plan: CallerPlan, places: number, queue: number, seconds: number) =>
      `no place in flight came free within ${seconds} s; ${places} requests in flight and ${queue} waiting is the most for ${whoOf(plan)}: send fewer requests at once, and retry after 1 s`,
    headers: { 'retry-after': '1' },
  },
  /** Expensive work shed under load (`src/access/overload.ts`). */
  overloaded: {
    status: 503,
    code: 'OVERLOADED',
    message: (retryAfter: number) =>
      `the server is under more load than it can answer in time: retry after ${retryAfter} s (answers already cached are still served)`,
    headers: (retryAfter: number) => ({ 'retry-after': String(retryAfter) }),
  },
  tooManySubscriptions: {
    status: 429,
    code: 'TOO_MANY_SUBSCRIPTIONS',
    message: (plan: CallerPlan, limit: number) =>
      `${limit} open subscriptions at once is the most for ${whoOf(plan)}: end one before opening another`,
    headers: { 'retry-after': '1' },
  },
  /** Over a per-IP or per-account limit of `/api` (`api-limits.ts`; `what`: "sign-in attempts per minute", …). */
  apiRateLimited: {
    status: 429,
    code: 'RATE_LIMITED',
    message: (limit: number, what: string, reset: number) =>
      `rate limit of ${limit} ${what} reached: retry after ${reset} s`,
    headers: (limit: number, _what: string, reset: number) => ({
      'retry-after': String(reset),
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(reset),
    }),
  },
});

/**
 * A refusal of the access module: an {@link ApiError} that every transport answers as is, which also says, for
 * statistics, whom it counts against. `ok` tells it from a grant in an `AccessDecision`.
 */
export class AccessRefusal extends ApiError {
  readonly ok = false;
  /**
   * For statistics, never shown to the client: the plan the refused request counts under (the key's plan when the
   * key is known: a 429, or a 401 for a pending, rejected or revoked key; absent for an unknown key or a conflict,
   * which count as `keyless`).
   */
  readonly plan: CallerPlan | undefined;
  /** For statistics: the id of the known key refused (401 for its state, 429 for its budget); absent otherwise. */
  readonly keyId: string | undefined;

  /** `error` with its headers, or `opts.headers` in their place (a 429's rate-limit headers). */
  constructor(
    error: ApiError,
    opts: { headers?: Record<string, string>; plan?: CallerPlan; keyId?: string | undefined } = {},
  ) {
    super(error.status, error.code, error.message, opts.headers ?? error.headers);
    this.plan = opts.plan;
    this.keyId = opts.keyId;
  }
}
