/**
 * Static cost of an operation, before anything is executed, with the demand-control semantics of the
 * `cost/v0.1` spec as Apollo Router applies them (docs/graph.md, "Query cost"):
 *
 * - a field returning an object, interface or union costs 1, a scalar or enum field 0; `@cost(weight:)` replaces
 *   that default;
 * - a list multiplies the cost of its items (the field's own weight plus its selections) by its size: the largest
 *   slicing argument given (a literal, a variable, or the argument's default), else `@listSize(assumedSize:)`,
 *   else the configured default list size; with `sizedFields` the size applies to those child fields instead
 *   (a connection's `edges`);
 * - fragments on the same type add up; on different types of an abstract field the most expensive one counts;
 * - a mutation adds 10; `@skip`/`@include` are ignored (an upper bound);
 * - introspection (`__schema`, `__type`) costs a flat weight, since its size is bounded by the schema, not by data;
 *   `__typename` is free.
 */
import {
  getNamedType,
  getNullableType,
  isAbstractType,
  isCompositeType,
  isListType,
  isObjectType,
  isInterfaceType,
  Kind,
  valueFromAST,
} from 'graphql';
import type {
  FieldNode,
  FragmentDefinitionNode,
  GraphQLField,
  GraphQLNamedType,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';
import type { CostDirectives } from './directives.ts';

export interface CostOptions {
  directives: CostDirectives;
  /** Size of a list with no `@listSize` and no slicing argument. Default 10. */
  defaultListSize?: number;
  /** Flat cost of `__schema` and of `__type`. Default 50. */
  introspectionCost?: number;
}

/** Cost added to every mutation operation. */
export const MUTATION_BASE_COST = 10;

interface Walk {
  schema: GraphQLSchema;
  opts: Required<CostOptions>;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  variables: Readonly<Record<string, unknown>>;
  /** Fragment names on the current path (a cycle is a validation error; never loop here). */
  visiting: Set<string>;
}

/** The estimated cost of `operation` (already validated against `schema`). */
export function estimateCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: readonly FragmentDefinitionNode[],
  variables: Readonly<Record<string, unknown>> | undefined,
  opts: CostOptions,
): number {
  const root =
    operation.operation === 'mutation'
      ? schema.getMutationType()
      : operation.operation === 'subscription'
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  if (!root) return 0;
  const walk: Walk = {
    schema,
    opts: { defaultListSize: 10, introspectionCost: 50, ...opts },
    fragments: new Map(fragments.map((f) => [f.name.value, f])),
    variables: variables ?? {},
    visiting: new Set(),
  };
  const base = operation.operation === 'mutation' ? MUTATION_BASE_COST : 0;
  return base + selectionCost(walk, root, operation.selectionSet, null);
}

/** Sized child fields and the size they get (a connection's `edges`). */
interface Sizing {
  fields: ReadonlySet<string>;
  size: number;
}

/** Cost of a selection set on `type`: same-type parts add up, different type conditions take the maximum. */
function selectionCost(
  walk: Walk,
  type: GraphQLNamedType,
  set: SelectionSetNode,
  sizing: Sizing | null,
): number {
  const byType = new Map<string, number>();
  const add = (typeName: string, cost: number): void => {
    byType.set(typeName, (byType.get(typeName) ?? 0) + cost);
  };
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) add(type.name, fieldCost(walk, type, sel, sizing));
    else {
      let cond: string | undefined;
      let inner: SelectionSetNode;
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        cond = sel.typeCondition?.name.value;
        inner = sel.selectionSet;
      } else {
        const frag = walk.fragments.get(sel.name.value);
        if (!frag || walk.visiting.has(frag.name.value)) continue;
        cond = frag.typeCondition.name.value;
        inner = frag.selectionSet;
        walk.visiting.add(frag.name.value);
      }
      const target = (cond && walk.schema.getType(cond)) || type;
      const cost = selectionCost(walk, target, inner, sizing);
      if (sel.kind === Kind.FRAGMENT_SPREAD) walk.visiting.delete(sel.name.value);
      add(target.name === type.name || !isAbstractType(type) ? type.name : target.name, cost);
    }
  }
  // Fields asked on the parent type apply to every concrete type; the most expensive concrete branch counts.
  const own = byType.get(type.name) ?? 0;
  byType.delete(type.name);
  return own + Math.max(0, ...byType.values());
}

function fieldCost(walk: Walk, parent: GraphQLNamedType, node: FieldNode, sizing: Sizing | null): number {
  const name = node.name.value;
  if (name === '__typename') return 0;
  if (name === '__schema' || name === '__type') return walk.opts.introspectionCost;
  if (!isObjectType(parent) && !isInterfaceType(parent)) return 0;
  const def = parent.getFields()[name];
  if (!def) return 0;
  const rules = walk.opts.directives.get(`${parent.name}.${name}`);
  const named = getNamedType(def.type);
  const weight = rules?.weight ?? (isCompositeType(named) ? 1 : 0);

  const size = rules?.listSize ? slicedSize(walk, def, node, rules.listSize.slicingArguments) : null;
  const childSizing: Sizing | null =
    rules?.listSize && rules.listSize.sizedFields.length > 0
      ? {
          fields: new Set(rules.listSize.sizedFields),
          size: size ?? rules.listSize.assumedSize ?? walk.opts.defaultListSize,
        }
      : null;
  const children = node.selectionSet ? selectionCost(walk, named, node.selectionSet, childSizing) : 0;
  const item = weight + children;

  if (sizing?.fields.has(name)) return sizing.size * item;
  if (isListType(getNullableType(def.type))) {
    // With sizedFields the field itself is not the list being sized.
    const n =
      childSizing === null
        ? (size ?? rules?.listSize?.assumedSize ?? walk.opts.defaultListSize)
        : walk.opts.defaultListSize;
    return n * item;
  }
  return item;
}

/** The largest slicing argument given (literal, variable, or the argument's default); null when none applies. */
function slicedSize(
  walk: Walk,
  def: GraphQLField<unknown, unknown>,
  node: FieldNode,
  slicing: readonly string[],
): number | null {
  let best: number | null = null;
  for (const argName of slicing) {
    const argDef = def.args.find((a) => a.name === argName);
    if (!argDef) continue;
    const given = node.arguments?.find((a) => a.name.value === argName);
    let v: unknown = given ? valueFromAST(given.value, argDef.type, walk.variables) : argDef.defaultValue;
    if (v === undefined && given?.value.kind === Kind.VARIABLE) v = argDef.defaultValue;
    if (typeof v === 'number' && Number.isFinite(v)) best = Math.max(best ?? 0, Math.max(0, Math.floor(v)));
  }
  return best;
}
