/**
 * Shape limits: batch size and tokens before parsing; depth, aliases and directives after parsing (before the query
 * plan runs). Introspection is allowed (its subtrees count as one level of depth) and costed by the query-cost
 * plugin.
 */
import { countTokens, measureOperation } from '../cost/measure.ts';
import { routerErrors } from '../errors.ts';
import type { RouterPlugin } from '../plugin.ts';

export interface Limits {
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxTokens: number;
  maxBatch: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = {
  maxDepth: 15,
  maxAliases: 30,
  maxDirectives: 20,
  maxTokens: 4_000,
  maxBatch: 10,
};

export function limitsPlugin(limits: Limits): RouterPlugin {
  return {
    name: 'limits',
    onHttpRequest(req) {
      if (req.batched && req.operations.length > limits.maxBatch)
        throw routerErrors.batchTooLarge(req.operations.length, limits.maxBatch);
      for (const op of req.operations) {
        if (typeof op.query === 'string' && countTokens(op.query, limits.maxTokens) > limits.maxTokens)
          throw routerErrors.tooManyTokens(limits.maxTokens);
      }
    },
    onOperation(op) {
      const shape = measureOperation(op.operation, op.fragments);
      if (shape.depth > limits.maxDepth) throw routerErrors.tooDeep(shape.depth, limits.maxDepth);
      if (shape.aliases > limits.maxAliases)
        throw routerErrors.tooManyAliases(shape.aliases, limits.maxAliases);
      if (shape.directives > limits.maxDirectives)
        throw routerErrors.tooManyDirectives(shape.directives, limits.maxDirectives);
    },
  };
}
