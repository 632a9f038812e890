/**
 * The router's plugins in the order they run (docs/graph.md, "Plugins, in the order they run"): the key, then the
 * budget, then the shape of the request (batch size, tokens), then the app's trusted documents and the safelist; the
 * cost estimate last.
 */
import type { DocumentNode } from 'graphql';
import { readCostDirectives } from '../cost/directives.ts';
import { ARGUMENT_SIZES } from '../cost/sizes.ts';
import type { RouterOptions } from '../options.ts';
import type { RouterPlugin } from '../plugin.ts';
import { apiKeyPlugin } from './api-key.ts';
import { budgetPlugin } from './budget.ts';
import { appOriginPlugin } from './app-origin.ts';
import { trustedDocumentsPlugin } from './trusted-documents.ts';
import { limitsPlugin } from './limits.ts';
import type { Limits } from './limits.ts';
import { loadManifest, persistedOperationsPlugin } from './persisted-operations.ts';
import { DEFAULT_COST_LIMITS, queryCostPlugin } from './query-cost.ts';

export function routerPlugins(opts: RouterOptions, limits: Limits, supergraph: DocumentNode): RouterPlugin[] {
  const plugins: RouterPlugin[] = [];
  if (opts.access) {
    plugins.push(apiKeyPlugin(opts.access));
    // The key's app: its origins before the budget is charged; its trusted documents before the operator's manifest.
    if (opts.apps) plugins.push(appOriginPlugin(opts.apps));
    plugins.push(budgetPlugin(opts.access, { maxBatch: limits.maxBatch }));
  }
  plugins.push(limitsPlugin(limits));
  if (opts.access && opts.apps) plugins.push(trustedDocumentsPlugin(opts.apps));
  if (opts.persisted) {
    const manifest =
      typeof opts.persisted.manifest === 'string'
        ? loadManifest(opts.persisted.manifest)
        : opts.persisted.manifest;
    plugins.push(persistedOperationsPlugin(manifest, opts.persisted.mode));
  }
  plugins.push(
    queryCostPlugin({
      directives: readCostDirectives(supergraph),
      limits: { ...DEFAULT_COST_LIMITS, ...opts.costLimits },
      defaultListSize: opts.defaultListSize ?? 10,
      introspectionCost: opts.introspectionCost ?? 50,
      argumentSizes: ARGUMENT_SIZES,
      budget: opts.access,
    }),
  );
  return plugins;
}
