import { errorCatalog } from '../core/errors.ts';

/**
 * What one plan allows: every per-plan figure of the product, in one row per plan of {@link PLAN_TABLE}. A caller
 * without a key counts under `keyless`, per client IP; one with a key under the key's plan, per key. The limits are
 * per process where a field says so, shared through Redis otherwise (docs/plans-and-limits.md).
 */
export interface PlanFigures {
  /**
   * Requests per minute. For a key: its plan's default; an enterprise key may be given any limit up to
   * {@link ENTERPRISE_MAX_PER_MINUTE} by agreement ({@link limitFor}).
   */
  readonly perMinute: number;
  /**
   * Query cost per minute (the graph's operations, charged at their estimated cost and corrected to the measured
   * one). Enterprise: the default of the plan, or as agreed (`COST_BUDGETS=enterprise=…`).
   */
  readonly costBudget: number;
  /**
   * The most one operation may cost (`router/plugins/query-cost.ts`; configurable: `ROUTER_COST_LIMITS`). With lists
   * sized honestly (a chart's points by its span), a cost is about the number of objects an answer holds, some 85
   * bytes each: keyless ≈ 210 KB (one 90-day hourly chart), free ≈ 425 KB, pro ≈ 850 KB, enterprise ≈ 2.1 MB. A
   * larger answer is refused, not built.
   */
  readonly costCeiling: number;
  /**
   * Requests served at once, in each process: no caller holds every worker. Keyless: 6, what a browser keeps open to
   * one host over HTTP/1.1. Requests beyond wait their turn (`queue`).
   */
  readonly concurrency: number;
  /**
   * Requests that may wait for a place in flight, in each process, first in, first out; one more is refused (429
   * `TOO_MANY_CONCURRENT`). Sized for bursts of ordinary clients: a page or dashboard loading 20 things at once over
   * HTTP/2, a free key's 32 parallel requests, graphql-http's audit (61 requests at once, keyless), with room to spare
   * for a few such clients behind one address.
   */
  readonly queue: number;
  /**
   * The largest body of a graph request, bytes, by the length it declares (a body sent without one is held to the
   * server's 1 MiB): a query with its variables is a few KiB, so a caller without a key never needs a megabyte, and
   * a flood of megabyte bodies (each parsed, then dropped) is refused from its headers.
   */
  readonly graphBodyBytes: number;
  /**
   * Open subscriptions (GraphQL over SSE or WebSocket) at once, in each process. Each delivered event is charged to
   * the cost budget.
   */
  readonly streams: number;
  /** Coins one subscription may ask for (`ids` of `prices`, `first` of `markets`). */
  readonly idsPerStream: number;
}

/**
 * The plans and all their figures: the one place a plan is spelled. {@link CallerPlan}, {@link Plan},
 * {@link CALLER_PLANS}, {@link PLANS} and the per-figure views below are read from it; docs/plans-and-limits.md
 * states the same figures (held equal by test/access/plan-table.test.ts and test/docs/stated-numbers.test.ts).
 */
export const PLAN_TABLE = {
  keyless: {
    perMinute: 240,
    costBudget: 5_000,
    costCeiling: 2_500,
    concurrency: 6,
    queue: 64,
    graphBodyBytes: 64 * 1024,
    streams: 2,
    idsPerStream: 25,
  },
  free: {
    perMinute: 600,
    costBudget: 20_000,
    costCeiling: 5_000,
    concurrency: 8,
    queue: 64,
    graphBodyBytes: 256 * 1024,
    streams: 10,
    idsPerStream: 100,
  },
  pro: {
    perMinute: 3_000,
    costBudget: 150_000,
    costCeiling: 10_000,
    concurrency: 32,
    queue: 256,
    graphBodyBytes: 1024 * 1024,
    streams: 100,
    idsPerStream: 250,
  },
  enterprise: {
    perMinute: 10_000,
    costBudget: 1_000_000,
    costCeiling: 25_000,
    concurrency: 64,
    queue: 512,
    graphBodyBytes: 1024 * 1024,
    streams: 1_000,
    idsPerStream: 250,
  },
} as const satisfies Readonly<Record<string, PlanFigures>>;

/** The plan a request counts under: its key's, or `keyless` without one. */
export type CallerPlan = keyof typeof PLAN_TABLE;

/** A key's plan. */
export type Plan = Exclude<CallerPlan, 'keyless'>;

/** Every plan a request may count under, in the table's order: from the smallest up, `keyless` first. */
export const CALLER_PLANS = Object.keys(PLAN_TABLE) as readonly CallerPlan[];

/** The plans a key may have, from the smallest up (an app counts under its keys' smallest: `src/accounts/apps.ts`). */
export const PLANS: readonly Plan[] = CALLER_PLANS.filter((p): p is Plan => p !== 'keyless');

/** One figure of every plan: `{ keyless, free, pro, enterprise }`. */
export function planFigure(name: keyof PlanFigures): Readonly<Record<CallerPlan, number>> {
  return Object.fromEntries(CALLER_PLANS.map((p) => [p, PLAN_TABLE[p][name]])) as Record<CallerPlan, number>;
}

/** Requests per minute per key, by plan: {@link PlanFigures.perMinute}. */
export const PLAN_LIMITS: Readonly<Record<Plan, number>> = Object.fromEntries(
  PLANS.map((p) => [p, PLAN_TABLE[p].perMinute]),
) as Record<Plan, number>;

/** Requests per minute per client IP without a key. */
export const KEYLESS_PER_MINUTE = PLAN_TABLE.keyless.perMinute;

/** The highest limit an enterprise key may be given by agreement. */
export const ENTERPRISE_MAX_PER_MINUTE = 10_000;

/** {@link PlanFigures.costBudget} of each plan. */
export const COST_BUDGETS = planFigure('costBudget');
/** {@link PlanFigures.concurrency} of each plan. */
export const CONCURRENCY_LIMITS = planFigure('concurrency');
/** {@link PlanFigures.queue} of each plan. */
export const CONCURRENCY_QUEUE = planFigure('queue');
/** {@link PlanFigures.graphBodyBytes} of each plan. */
export const GRAPH_BODY_LIMITS = planFigure('graphBodyBytes');
/** {@link PlanFigures.streams} of each plan. */
export const SUBSCRIPTION_STREAMS = planFigure('streams');
/** {@link PlanFigures.idsPerStream} of each plan. */
export const SUBSCRIPTION_IDS = planFigure('idsPerStream');

/**
 * The longest a request waits for a place in flight, ms; then it is refused (429 `TOO_MANY_CONCURRENT`). A turn comes
 * within milliseconds for ordinary requests; a caller whose queue does not move in 10 s sends more than it can be
 * served, and is told so before a client's or a proxy's timeout would cut it (nginx and Apollo Router wait 60 and 30 s).
 * The same for every plan.
 */
export const CONCURRENCY_WAIT_MS = 10_000;

export function isPlan(v: unknown): v is Plan {
  return typeof v === 'string' && (PLANS as readonly string[]).includes(v);
}

/** The errors of a key's per-minute limit. */
export const planErrors = errorCatalog('plans', {
  /** A per-minute limit given for a key whose plan fixes it (`limitFor`). */
  limitNotEnterprise: {
    status: 400,
    code: 'INVALID_LIMIT',
    message: (plan: string, base: number) =>
      `limitPerMinute can only be set for enterprise keys: the ${plan} plan allows ${base} requests per minute`,
  },
  /** An enterprise key's per-minute limit out of range. */
  badLimit: {
    status: 400,
    code: 'INVALID_LIMIT',
    message: (max: number) => `limitPerMinute must be an integer from 1 to ${max} for an enterprise key`,
  },
});

/**
 * The per-minute limit of a key on `plan`. `custom` is only for enterprise keys (an integer from 1 to 10,000); for
 * free and pro it may only repeat the plan's limit. Throws `ApiError(400, 'INVALID_LIMIT')` otherwise.
 */
export function limitFor(plan: Plan, custom?: number): number {
  const base = PLAN_LIMITS[plan];
  if (custom === undefined) return base;
  if (plan !== 'enterprise') {
    if (custom === base) return base;
    throw planErrors.limitNotEnterprise(plan, base);
  }
  if (!Number.isInteger(custom) || custom < 1 || custom > ENTERPRISE_MAX_PER_MINUTE)
    throw planErrors.badLimit(ENTERPRISE_MAX_PER_MINUTE);
  return custom;
}
