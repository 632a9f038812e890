/**
 * The access section: the plans' figures an operator may override, the `/api` buckets, how many processes share the
 * budgets, whose `X-Forwarded-For` is believed, the key pepper and when work is shed. A leaf, so the names a variable
 * may hold (the plans, the buckets) are this file's own lists, held equal to `src/access/`'s by
 * test/architecture/config-vocabulary.test.ts.
 */
import { ConfigError } from '../config-error.ts';
import { int, pairs, secret } from './read.ts';

/** The plans a per-plan variable names (`src/access/plans.ts`'s `CallerPlan`), in the order messages list them. */
export const CONFIG_PLANS = ['keyless', 'free', 'pro', 'enterprise'] as const;
type ConfigPlan = (typeof CONFIG_PLANS)[number];
/** The `/api` rate-limit buckets `API_RATE_LIMITS` names (`src/access/api-limits.ts`'s `API_BUCKETS`). */
export const CONFIG_API_BUCKETS = ['challenge', 'sign-in', 'public', 'account', 'partner'] as const;
type ConfigApiBucket = (typeof CONFIG_API_BUCKETS)[number];

/** Per-plan overrides of `src/access/plans.ts`'s `PLAN_TABLE`: any subset of the plans. */
export type PlanOverrides = Partial<Record<ConfigPlan, number>>;

export interface AccessSection {
  /**
   * `ROUTER_PROCESSES`: how many processes count the budgets (routers, or whole products, sharing one Redis). While
   * Redis is unreachable each one admits its share of every budget, the budget divided by this number or by the
   * number learned from Redis while it answered, whichever is larger (docs/plans-and-limits.md); unset: learned only.
   */
  routerProcesses: number | undefined;
  /**
   * `RATE_LIMIT_WINDOW_SECONDS`, default 60: the length of the rate-limit windows, for tests only (the limits stay
   * those of a minute, counted over this shorter window).
   */
  rateLimitWindowSeconds: number;
  /** `TRUSTED_PROXIES`: comma-separated addresses/CIDRs whose `X-Forwarded-For` is believed; default none. */
  trustedProxies: string[];
  /** `API_RATE_LIMITS`: per-minute limits of the `/api` buckets (`src/access/api-limits.ts`); default none changed. */
  apiRateLimits: Partial<Record<ConfigApiBucket, number>>;
  /**
   * `API_KEY_PEPPER`: server-side secret mixed into key hashes, at least 16 characters; embedded mode generates one
   * under DATA_DIR.
   */
  apiKeyPepper: string | undefined;
  /** `ROUTER_COST_LIMITS`: e.g. `keyless=500,free=1000,pro=5000,enterprise=20000` (any subset overrides). */
  routerCostLimits: PlanOverrides;
  /**
   * `COST_BUDGETS`: query cost per minute per plan, e.g. `keyless=5000,free=20000,pro=150000,enterprise=1000000`
   * (any subset overrides `src/access/plans.ts`'s defaults).
   */
  costBudgets: PlanOverrides;
  /** `CONCURRENCY_LIMITS`: requests in flight per caller and process, e.g. `keyless=4,free=8,pro=32,enterprise=64`. */
  concurrencyLimits: PlanOverrides;
  /** `SUBSCRIPTION_LIMITS`: open subscriptions per caller and process, e.g. `keyless=2,pro=100`. */
  subscriptionLimits: PlanOverrides;
  /** `SUBSCRIPTION_ID_LIMITS`: coins one subscription may ask for per plan (at most 250), e.g. `keyless=25`. */
  subscriptionIdLimits: PlanOverrides;
  /** `SHED_LAG_MS`, default 250: event-loop lag above which new expensive work is refused (503); 0: off. */
  shedLagMs: number;
  /**
   * `REFUSAL_HOLD_MS`, default 1,000: how long a 429 is held for a caller refused more than 10 times inside one
   * `Retry-After` period (`src/access/refusal-pace.ts`); 0: sent at once.
   */
  refusalHoldMs: number;
  /** `SHED_MAX_IN_FLIGHT`, default 256: expensive work under way at once above which new work is refused; 0: off. */
  shedMaxInFlight: number;
}

export function accessSection(env: NodeJS.ProcessEnv): AccessSection {
  return {
    routerProcesses: env.ROUTER_PROCESSES ? int(env, 'ROUTER_PROCESSES', 1, 1, 1_000) : undefined,
    rateLimitWindowSeconds: int(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 60),
    trustedProxies: (env.TRUSTED_PROXIES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    apiRateLimits: parseApiLimits(env.API_RATE_LIMITS),
    apiKeyPepper: secret(env, 'API_KEY_PEPPER', 'it keys the hashes of every API key'),
    routerCostLimits: perPlan(env, 'ROUTER_COST_LIMITS', 'free=1000,pro=5000', 10_000_000),
    costBudgets: perPlan(env, 'COST_BUDGETS', 'free=20000,pro=150000', 1_000_000_000),
    concurrencyLimits: perPlan(env, 'CONCURRENCY_LIMITS', 'keyless=4,pro=32', 10_000),
    subscriptionLimits: perPlan(env, 'SUBSCRIPTION_LIMITS', 'keyless=2,pro=100', 1_000_000),
    subscriptionIdLimits: perPlan(env, 'SUBSCRIPTION_ID_LIMITS', 'keyless=25,pro=250', 250),
    shedLagMs: int(env, 'SHED_LAG_MS', 250, 0, 60_000),
    refusalHoldMs: int(env, 'REFUSAL_HOLD_MS', 1_000, 0, 60_000),
    shedMaxInFlight: int(env, 'SHED_MAX_IN_FLIGHT', 256, 0, 1_000_000),
  };
}

/** `name`: `plan=number` pairs (`example` shows two in the message), integers from 1 to `max`. */
function perPlan(env: NodeJS.ProcessEnv, name: string, example: string, max: number): PlanOverrides {
  const out: PlanOverrides = {};
  const v = env[name];
  if (!v) return out;
  for (const [k, n] of pairs(v, name, `plan=number pairs such as ${example}`)) {
    if (!(CONFIG_PLANS as readonly string[]).includes(k))
      throw new ConfigError(`${name}: ${k} is not a plan (${CONFIG_PLANS.join(', ')})`);
    const x = Number(n);
    if (!Number.isInteger(x) || x < 1 || x > max)
      throw new ConfigError(`${name}: ${k} must be an integer from 1 to ${max}`);
    out[k as ConfigPlan] = x;
  }
  return out;
}

/**
 * `API_RATE_LIMITS`: `bucket=number` pairs such as `sign-in=10,public=600` (any subset of the buckets of
 * `src/access/api-limits.ts`; integers 1–1,000,000).
 */
export function parseApiLimits(v: string | undefined): Partial<Record<ConfigApiBucket, number>> {
  const out: Partial<Record<ConfigApiBucket, number>> = {};
  for (const pair of (v ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const [k = '', n = '', extra] = pair.split('=').map((s) => s.trim());
    if (extra !== undefined || !(CONFIG_API_BUCKETS as readonly string[]).includes(k))
      throw new ConfigError(
        `API_RATE_LIMITS: ${JSON.stringify(pair.trim())} is not bucket=number with a bucket of ${CONFIG_API_BUCKETS.join(', ')}`,
      );
    const x = Number(n);
    if (!/^\d+$/.test(n) || x < 1 || x > 1_000_000)
      throw new ConfigError(`API_RATE_LIMITS: ${k} must be an integer from 1 to 1000000`);
    out[k as ConfigApiBucket] = x;
  }
  return out;
}
