/**
 * Query cost, after validation and before any subgraph is called: the operation's static cost
 * (`router/cost/estimate.ts`) against the caller's plan ceiling. Over the ceiling → `COST_ESTIMATED_TOO_EXPENSIVE`
 * with `extensions.cost { estimated, max, plan }`, no data, nothing executed. Every operation's response reports
 * `extensions.cost` and the `X-Query-Cost` / `X-Query-Cost-Limit` headers.
 */
import type { CostDirectives } from '../cost/directives.ts';
import { estimateCost } from '../cost/estimate.ts';
import { routerErrors } from '../errors.ts';
import type { RouterPlugin } from '../plugin.ts';
import type { CallerPlan } from '../../src/access/plans.ts';

export type CostPlan = CallerPlan;

/** Default ceilings per plan (configurable: `RouterConfig.costLimits`). */
export const DEFAULT_COST_LIMITS: Readonly<Record<CostPlan, number>> = {
  keyless: 500,
  free: 1_000,
  pro: 5_000,
  enterprise: 20_000,
};

export interface QueryCostOptions {
  directives: CostDirectives;
  limits: Readonly<Record<CostPlan, number>>;
  defaultListSize: number;
  introspectionCost: number;
}

export function queryCostPlugin(opts: QueryCostOptions): RouterPlugin {
  return {
    name: 'query-cost',
    onOperation(op, state, opState) {
      const plan = state.caller?.plan ?? 'keyless';
      const max = opts.limits[plan];
      const estimated = estimateCost(op.schema, op.operation, op.fragments, op.variables, {
        directives: opts.directives,
        defaultListSize: opts.defaultListSize,
        introspectionCost: opts.introspectionCost,
      });
      opState.cost = { estimated, max, plan };
      if (estimated > max) throw routerErrors.costTooHigh(estimated, max, plan);
    },
    onResponse(_state, opState, out) {
      if (!opState.cost) return;
      out.extensions['cost'] = { ...opState.cost };
      out.headers['x-query-cost'] = String(opState.cost.estimated);
      out.headers['x-query-cost-limit'] = String(opState.cost.max);
    },
  };
}
