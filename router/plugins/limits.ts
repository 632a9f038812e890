/**
 * Shape limits: batch size, query length and tokens before parsing; fields (fragments expanded), depth, aliases and directives
 * after parsing (before the query plan runs). Introspection is allowed (its subtrees count as one level of depth)
 * and costed by the query-cost plugin.
 *
 * The field count comes first and is linear in the document (each fragment is counted once and reused), so a
 * "fragment bomb" — a few hundred tokens of fragments that each spread the next one twice — is refused before
 * anything walks its exponential expansion (the other measures, the cost estimate, the query planner).
 */
import { Kind } from 'graphql';
import type { FragmentDefinitionNode, OperationDefinitionNode, SelectionSetNode } from 'graphql';
import { countTokens, measureOperation } from '../cost/measure.ts';
import { routerErrors } from '../errors.ts';
import type { RouterPlugin } from '../plugin.ts';

export interface Limits {
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxTokens: number;
  /**
   * Characters of an operation's text (comments included). What bounds the memory the parse caches keep per
   * distinct text (the runtime's keeps 1,024 texts, `router/inflight.ts` a few MiB): without it, a megabyte of
   * comment made each request a megabyte kept.
   */
  maxQueryLength: number;
  maxBatch: number;
  /** Fields of an operation once its fragments are expanded where they are spread. */
  maxFields: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = {
  maxDepth: 15,
  maxAliases: 30,
  maxDirectives: 20,
  maxTokens: 4_000,
  maxQueryLength: 32_768,
  maxBatch: 10,
  maxFields: 2_000,
};

/** Fields selected by `operation` with every fragment spread expanded; linear in the document's size. */
export function expandedFieldCount(
  operation: OperationDefinitionNode,
  fragments: readonly FragmentDefinitionNode[],
): number {
  const byName = new Map(fragments.map((f) => [f.name.value, f]));
  const perFragment = new Map<string, number>();
  const open = new Set<string>();
  const count = (set: SelectionSetNode): number => {
    let n = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) n += 1 + (sel.selectionSet ? count(sel.selectionSet) : 0);
      else if (sel.kind === Kind.INLINE_FRAGMENT) n += count(sel.selectionSet);
      else {
        const name = sel.name.value;
        let m = perFragment.get(name);
        if (m === undefined) {
          const frag = byName.get(name);
          // Unknown and cyclic spreads are validation errors; never loop here.
          if (!frag || open.has(name)) continue;
          open.add(name);
          m = count(frag.selectionSet);
          open.delete(name);
          perFragment.set(name, m);
        }
        n += m;
      }
    }
    return n;
  };
  return count(operation.selectionSet);
}

export function limitsPlugin(limits: Limits): RouterPlugin {
  return {
    name: 'limits',
    onHttpRequest(req) {
      if (req.batched && req.operations.length === 0) throw routerErrors.batchEmpty();
      if (req.batched && req.operations.length > limits.maxBatch)
        throw routerErrors.batchTooLarge(req.operations.length, limits.maxBatch);
      for (const op of req.operations) {
        if (typeof op.query !== 'string') continue;
        if (op.query.length > limits.maxQueryLength)
          throw routerErrors.queryTooLong(op.query.length, limits.maxQueryLength);
        if (countTokens(op.query, limits.maxTokens) > limits.maxTokens)
          throw routerErrors.tooManyTokens(limits.maxTokens);
      }
    },
    onOperation(op) {
      const fields = expandedFieldCount(op.operation, op.fragments);
      if (fields > limits.maxFields) throw routerErrors.tooManyFields(fields, limits.maxFields);
      const shape = measureOperation(op.operation, op.fragments);
      if (shape.depth > limits.maxDepth) throw routerErrors.tooDeep(shape.depth, limits.maxDepth);
      if (shape.aliases > limits.maxAliases)
        throw routerErrors.tooManyAliases(shape.aliases, limits.maxAliases);
      if (shape.directives > limits.maxDirectives)
        throw routerErrors.tooManyDirectives(shape.directives, limits.maxDirectives);
    },
  };
}
