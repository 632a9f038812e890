import { ApiError } from '../core/errors.ts';

/** A key's plan. Requests without a key are `keyless` (see {@link KEYLESS_PER_MINUTE}). */
export type Plan = 'free' | 'pro' | 'enterprise';

/** The plan a request counts under: its key's, or `keyless` without one. */
export type CallerPlan = Plan | 'keyless';

export const PLANS: readonly Plan[] = ['free', 'pro', 'enterprise'];

/** Requests per minute per key: the plan's default. Enterprise keys may be given any limit up to the maximum. */
export const PLAN_LIMITS: Readonly<Record<Plan, number>> = { free: 600, pro: 3_000, enterprise: 10_000 };

/** The highest limit an enterprise key may be given by agreement. */
export const ENTERPRISE_MAX_PER_MINUTE = 10_000;

/** Requests per minute per client IP without a key. */
export const KEYLESS_PER_MINUTE = 240;

/**
 * Query cost per minute (the graph's operations, charged at their estimated cost and corrected to the measured one):
 * per client IP without a key, per key with one. Enterprise: the default of the plan, or as agreed
 * (`COST_BUDGETS=enterprise=…`).
 */
export const COST_BUDGETS: Readonly<Record<CallerPlan, number>> = {
  keyless: 5_000,
  free: 20_000,
  pro: 150_000,
  enterprise: 1_000_000,
};

/**
 * Requests served at once per key (per client IP without one), in each process: no caller holds every worker. Keyless:
 * 6, what a browser keeps open to one host over HTTP/1.1. Requests beyond wait their turn ({@link CONCURRENCY_QUEUE}).
 */
export const CONCURRENCY_LIMITS: Readonly<Record<CallerPlan, number>> = {
  keyless: 6,
  free: 8,
  pro: 32,
  enterprise: 64,
};

/**
 * Requests that may wait for a place in flight per key (per client IP without one), in each process, first in, first
 * out; one more is refused (429 `TOO_MANY_CONCURRENT`). Sized for bursts of ordinary clients: a page or dashboard
 * loading 20 things at once over HTTP/2, a free key's 32 parallel requests, graphql-http's audit (61 requests at once,
 * keyless), with room to spare for a few such clients behind one address.
 */
export const CONCURRENCY_QUEUE: Readonly<Record<CallerPlan, number>> = {
  keyless: 64,
  free: 64,
  pro: 256,
  enterprise: 512,
};

/**
 * The longest a request waits for a place in flight, ms; then it is refused (429 `TOO_MANY_CONCURRENT`). A turn comes
 * within milliseconds for ordinary requests; a caller whose queue does not move in 10 s sends more than it can be
 * served, and is told so before a client's or a proxy's timeout would cut it (nginx and Apollo Router wait 60 and 30 s).
 */
export const CONCURRENCY_WAIT_MS = 10_000;

/**
 * The largest body of a graph request, bytes, by the length it declares (a body sent without one is held to the
 * server's 1 MiB): a query with its variables is a few KiB, so a caller without a key never needs a megabyte, and a
 * flood of megabyte bodies (each parsed, then dropped) is refused from its headers.
 */
export const GRAPH_BODY_LIMITS: Readonly<Record<CallerPlan, number>> = {
  keyless: 64 * 1024,
  free: 256 * 1024,
  pro: 1024 * 1024,
  enterprise: 1024 * 1024,
};

/**
 * Open subscriptions (GraphQL over SSE or WebSocket) at once per key (per client IP without one), in each process.
 * Each delivered event is charged to the budgets above (docs/plans-and-limits.md).
 */
export const SUBSCRIPTION_STREAMS: Readonly<Record<CallerPlan, number>> = {
  keyless: 2,
  free: 10,
  pro: 100,
  enterprise: 1_000,
};

/** Coins one subscription may ask for (`ids` of `prices`, `first` of `markets`). */
export const SUBSCRIPTION_IDS: Readonly<Record<CallerPlan, number>> = {
  keyless: 25,
  free: 100,
  pro: 250,
  enterprise: 250,
};

export function isPlan(v: unknown): v is Plan {
  return typeof v === 'string' && (PLANS as readonly string[]).includes(v);
}

/**
 * The per-minute limit of a key on `plan`. `custom` is only for enterprise keys (an integer from 1 to 10,000); for
 * free and pro it may only repeat the plan's limit. Throws `ApiError(400, 'INVALID_LIMIT')` otherwise.
 */
export function limitFor(plan: Plan, custom?: number): number {
  const base = PLAN_LIMITS[plan];
  if (custom === undefined) return base;
  if (plan !== 'enterprise') {
    if (custom === base) return base;
    throw new ApiError(
      400,
      'INVALID_LIMIT',
      `limitPerMinute can only be set for enterprise keys: the ${plan} plan allows ${base} requests per minute`,
    );
  }
  if (!Number.isInteger(custom) || custom < 1 || custom > ENTERPRISE_MAX_PER_MINUTE) {
    throw new ApiError(
      400,
      'INVALID_LIMIT',
      `limitPerMinute must be an integer from 1 to ${ENTERPRISE_MAX_PER_MINUTE} for an enterprise key`,
    );
  }
  return custom;
}
