/**
 * The measured cost of an operation: the estimate's rules (`estimate.ts`: weights, argument costs, introspection,
 * the mutation's base) applied to the answer itself, each list counted at the length it has instead of the length
 * assumed. What a cost budget is corrected to after execution, as Apollo Router's demand control measures its
 * `actual` cost. A field answered `null` costs its own weight (its resolver ran) and nothing below it.
 */
import { getNamedType, isAbstractType, isObjectType, isInterfaceType, Kind } from 'graphql';
import type {
  FieldNode,
  FragmentDefinitionNode,
  GraphQLNamedType,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionNode,
  SelectionSetNode,
} from 'graphql';
import { argumentsCost, excluded, fieldWeight, MUTATION_BASE_COST, rootTypeOf, walkOf } from './estimate.ts';
import type { CostOptions, Walk } from './estimate.ts';

export function measuredCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: readonly FragmentDefinitionNode[],
  variables: Readonly<Record<string, unknown>> | undefined,
  data: unknown,
  opts: CostOptions,
): number {
  const root = rootTypeOf(schema, operation);
  if (!root) return 0;
  const walk = walkOf(schema, operation, fragments, variables, opts);
  const base = operation.operation === 'mutation' ? MUTATION_BASE_COST : 0;
  return base + new Measure(walk).object(root, [operation.selectionSet], data);
}

/** One response key of an object: the field's nodes (merged, as execution merges them) and the type defining it. */
interface Collected {
  nodes: FieldNode[];
  parent: GraphQLNamedType;
}

/** A field of an object's plan whose value has to be looked at: its weight per item and what is selected below. */
interface Walked {
  key: string;
  weight: number;
  type: GraphQLNamedType;
  below: readonly SelectionSetNode[];
}

/**
 * What every object of one type answered for one set of selections costs: a part fixed by the operation (arguments,
 * introspection) and the fields whose value counts (a leaf of weight 0 never does, however long its list).
 */
interface Plan {
  fixed: number;
  walked: Walked[];
}

/**
 * One measurement: the plan of each (selections, type) worked out at its first object and reused for the others,
 * so that a list of thousands of objects costs a loop over their values (the plan per object was most of a large
 * answer's time).
 */
class Measure {
  private readonly plans = new Map<readonly SelectionSetNode[], Map<GraphQLNamedType, Plan>>();

  constructor(private readonly walk: Walk) {}

  object(type: GraphQLNamedType, sets: readonly SelectionSetNode[], value: unknown): number {
    if (value === null || typeof value !== 'object') return 0;
    const obj = value as Record<string, unknown>;
    // The object's own type when the answer says it (`__typename`), else every fragment that may apply counts.
    const name = obj['__typename'];
    const runtime = (typeof name === 'string' ? this.walk.schema.getType(name) : undefined) ?? type;
    const plan = this.planOf(type, runtime, sets);
    let cost = plan.fixed;
    for (const f of plan.walked) cost += this.items(f, obj[f.key]);
    return cost;
  }

  /** A value of a field: each item of a list (lists of lists flattened) costs the field's weight and its selections. */
  private items(f: Walked, value: unknown): number {
    if (!Array.isArray(value))
      return f.weight + (f.below.length > 0 ? this.object(f.type, f.below, value) : 0);
    let cost = 0;
    for (const item of value) cost += this.items(f, item);
    return cost;
  }

  private planOf(type: GraphQLNamedType, runtime: GraphQLNamedType, sets: readonly SelectionSetNode[]): Plan {
    let byType = this.plans.get(sets);
    if (!byType) this.plans.set(sets, (byType = new Map()));
    let plan = byType.get(runtime);
    if (!plan) byType.set(runtime, (plan = this.plan(type, runtime, sets)));
    return plan;
  }

  private plan(type: GraphQLNamedType, runtime: GraphQLNamedType, sets: readonly SelectionSetNode[]): Plan {
    const walk = this.walk;
    const fields = new Map<string, Collected>();
    for (const set of sets) collect(walk, runtime, type, set, fields, new Set());
    const plan: Plan = { fixed: 0, walked: [] };
    for (const [key, { nodes, parent }] of fields) {
      const first = nodes[0] as FieldNode;
      const name = first.name.value;
      if (name === '__typename') continue;
      if (name === '__schema' || name === '__type') {
        plan.fixed += walk.opts.introspectionCost;
        continue;
      }
      if (!isObjectType(parent) && !isInterfaceType(parent)) continue;
      const def = parent.getFields()[name];
      if (!def) continue;
      const coordinate = `${parent.name}.${name}`;
      const weight = fieldWeight(walk, coordinate, def);
      const below = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
      plan.fixed += argumentsCost(walk, coordinate, def, first.arguments);
      if (weight !== 0 || below.length > 0)
        plan.walked.push({ key, weight, type: getNamedType(def.type), below });
    }
    return plan;
  }
}

/** The fields of `set` that apply to an object of type `runtime` (seen as `declared`), by response key. */
function collect(
  walk: Walk,
  runtime: GraphQLNamedType,
  declared: GraphQLNamedType,
  set: SelectionSetNode,
  into: Map<string, Collected>,
  visiting: Set<string>,
): void {
  for (const sel of set.selections) {
    if (excluded(sel) || skippedByVariable(walk, sel)) continue;
    if (sel.kind === Kind.FIELD) {
      const key = sel.alias?.value ?? sel.name.value;
      const known = into.get(key);
      if (known) known.nodes.push(sel);
      else into.set(key, { nodes: [sel], parent: fieldParent(walk, runtime, declared, sel.name.value) });
      continue;
    }
    const fragment = sel.kind === Kind.INLINE_FRAGMENT ? sel : walk.fragments.get(sel.name.value);
    if (!fragment) continue;
    const cond = fragment.typeCondition?.name.value;
    const target = cond ? walk.schema.getType(cond) : declared;
    if (!target || !applies(walk, target, runtime)) continue;
    if (fragment.kind === Kind.FRAGMENT_DEFINITION) {
      if (visiting.has(fragment.name.value)) continue;
      visiting.add(fragment.name.value);
      collect(walk, runtime, target, fragment.selectionSet, into, visiting);
      visiting.delete(fragment.name.value);
    } else collect(walk, runtime, target, fragment.selectionSet, into, visiting);
  }
}

/** Whether a fragment on `target` applies to an object known as `runtime` (abstract: it may, so it counts). */
function applies(walk: Walk, target: GraphQLNamedType, runtime: GraphQLNamedType): boolean {
  if (target === runtime) return true;
  if (isAbstractType(target) && isObjectType(runtime)) return walk.schema.isSubType(target, runtime);
  return isAbstractType(runtime);
}

/** The type whose field `name` is: the object's own type when known and it has the field, else the declared one. */
function fieldParent(
  walk: Walk,
  runtime: GraphQLNamedType,
  declared: GraphQLNamedType,
  name: string,
): GraphQLNamedType {
  if ((isObjectType(runtime) || isInterfaceType(runtime)) && runtime.getFields()[name]) return runtime;
  return declared;
}

/** `@skip(if: $v)` / `@include(if: $v)` decided by this request's variables (the answer was built with them). */
function skippedByVariable(walk: Walk, sel: SelectionNode): boolean {
  for (const d of sel.directives ?? []) {
    const cond = d.arguments?.find((a) => a.name.value === 'if')?.value;
    if (cond?.kind !== Kind.VARIABLE) continue;
    const v = walk.variables[cond.name.value];
    if (d.name.value === 'skip' && v === true) return true;
    if (d.name.value === 'include' && v === false) return true;
  }
  return false;
}
