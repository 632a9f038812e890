/**
 * Query cost, after validation and before any subgraph is called: the operation's static cost
 * (`router/cost/estimate.ts`) against the caller's plan ceiling, then against the caller's cost budget per minute
 * (charged at the estimate; `src/access`, shared through Redis as the request budgets are). Over the ceiling →
 * `COST_ESTIMATED_TOO_EXPENSIVE`, over the budget → 429 `COST_BUDGET_EXHAUSTED` with `Retry-After`: no data, nothing
 * executed. Once answered, the answer's own cost is measured (`router/cost/measured.ts`) and the budget corrected to
 * it. Every operation's response reports `extensions.cost` (`estimated`, `max`, `plan`, `actual`, `budget: { limit,
 * remaining }`) and the
 * `X-Query-Cost` / `X-Query-Cost-Limit` headers; the request's, `X-Cost-Budget-Limit` / `-Remaining` / `-Reset`.
 *
 * An answer the caller did not execute itself is charged here too: a query that joined another request's execution
 * pays its own budget at that execution's estimate, corrected to its measured cost (`onJoin`: the other's plugins
 * charged the other), and a subscription's event its measured cost (`onEvent`).
 */
import type { Access } from '../../src/access/access.ts';
import type { CostDirectives } from '../cost/directives.ts';
import { estimateCost } from '../cost/estimate.ts';
import type { ArgumentSize } from '../cost/estimate.ts';
import { measuredCost } from '../cost/measured.ts';
import { routerErrors } from '../errors.ts';
import type { OperationCost, RequestState, RouterPlugin, SharedCost } from '../plugin.ts';
import { planFigure } from '../../src/access/plans.ts';
import type { CallerPlan } from '../../src/access/plans.ts';

/** Default ceilings per plan, the plan table's `costCeiling` (configurable: `RouterConfig.costLimits`). */
export const DEFAULT_COST_LIMITS = planFigure('costCeiling');

export interface QueryCostOptions {
  directives: CostDirectives;
  limits: Readonly<Record<CallerPlan, number>>;
  defaultListSize: number;
  introspectionCost: number;
  /** Lists sized by their arguments (`router/cost/sizes.ts`); default none. */
  argumentSizes?: ReadonlyMap<string, ArgumentSize>;
  /** The cost budgets per minute (the access layer); omitted → ceilings only. */
  budget?: Pick<Access, 'charge' | 'correct'> | undefined;
}

/** The budget's headers, from what is left of it. */
export function budgetHeaders(b: NonNullable<OperationCost['budget']>): Record<string, string> {
  return {
    'x-cost-budget-limit': String(b.limit),
    'x-cost-budget-remaining': String(b.remaining),
    'x-cost-budget-reset': String(Math.ceil(b.resetMs / 1000)),
  };
}

/**
 * The headers an operation's answer carries for its cost: the estimate, the ceiling and what is left of the budget.
 * An incremental answer (`@defer`, `@stream`) sends them before it is measured (`router/engines/hive.ts`): its budget
 * then reads as charged at the estimate, and its last payload's `extensions.cost` has the measured figures.
 */
export function costHeaders(cost: OperationCost): Record<string, string> {
  return {
    'x-query-cost': String(cost.estimated),
    'x-query-cost-limit': String(cost.max),
    ...(cost.budget ? budgetHeaders(cost.budget) : {}),
  };
}

export function queryCostPlugin(opts: QueryCostOptions): RouterPlugin {
  const costOptions = {
    directives: opts.directives,
    defaultListSize: opts.defaultListSize,
    introspectionCost: opts.introspectionCost,
    ...(opts.argumentSizes ? { argumentSizes: opts.argumentSizes } : {}),
  };
  const budget = opts.budget;
  /** Charges an answer's estimate to the caller's budget, corrected to its measured cost; refused over the budget. */
  const chargeShared = async (state: RequestState, cost: SharedCost) => {
    const caller = state.caller;
    if (!budget || !caller) return;
    const d = await budget.charge(caller, cost.estimated);
    if (!d.ok) throw d;
    if (cost.actual !== cost.estimated) budget.correct(caller, cost.actual - cost.estimated);
    cost.budget = {
      limit: d.limit,
      remaining: Math.max(0, d.remaining + cost.estimated - cost.actual),
      resetMs: d.resetMs,
    };
    Object.assign(state.headers, budgetHeaders(cost.budget));
  };
  return {
    name: 'query-cost',
    onJoin: chargeShared,
    onEvent: chargeShared,
    onOperation(op, state, opState) {
      const plan = state.caller?.plan ?? 'keyless';
      const max = opts.limits[plan];
      const estimated = estimateCost(op.schema, op.operation, op.fragments, op.variables, costOptions);
      opState.cost = { estimated, max, plan };
      if (estimated > max) throw routerErrors.costTooHigh(estimated, max, plan);
      opState.measure = (data) =>
        measuredCost(op.schema, op.operation, op.fragments, op.variables, data, costOptions);
      const caller = state.caller;
      if (!budget || !caller) return;
      return budget.charge(caller, estimated).then((d) => {
        if (!d.ok) throw d;
        const cost = opState.cost as OperationCost;
        cost.budget = { limit: d.limit, remaining: d.remaining, resetMs: d.resetMs };
      });
    },
    onResponse(state, opState, out, data) {
      const cost = opState.cost;
      if (!cost) return;
      // Charged at the estimate: corrected to what the answer cost (nothing, when it was refused unexecuted).
      if (data !== undefined && opState.measure) cost.actual = opState.measure(data);
      const caller = state.caller;
      if (budget && caller && cost.budget) {
        const spent = cost.actual ?? 0;
        budget.correct(caller, spent - cost.estimated);
        cost.budget.remaining = Math.max(0, cost.budget.remaining + cost.estimated - spent);
      }
      const { budget: left, ...figures } = cost;
      out.extensions['cost'] = {
        ...figures,
        // What is left, without the window's reset (the header says it): answers stay alike from one second to the next.
        ...(left ? { budget: { limit: left.limit, remaining: left.remaining } } : {}),
      };
      out.headers['x-query-cost'] = String(cost.estimated);
      out.headers['x-query-cost-limit'] = String(cost.max);
      if (cost.budget) Object.assign(state.headers, budgetHeaders(cost.budget));
    },
  };
}
