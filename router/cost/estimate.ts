/**
 * Static cost of an operation, before anything is executed, with the demand-control semantics of the
 * `cost/v0.1` spec as Apollo Router applies them (docs/query-cost.md):
 *
 * - a field returning an object, interface or union costs 1, a scalar or enum field 0; `@cost(weight:)` on the field
 *   (or on its type) replaces that default;
 * - a list multiplies the cost of its items (the field's own weight plus its selections) by its size: the largest
 *   slicing argument (a literal, a variable, the variable's default in the operation, else the argument's default in
 *   the schema; `null` counts as absent), else `@listSize(assumedSize:)`, else the configured default list size; with
 *   `sizedFields` the size applies to those child list fields instead (a connection's `edges`), and the field
 *   itself counts once;
 * - arguments: an input object value costs 1 (nested ones too), other values 0, unless `@cost` says otherwise;
 * - fragments on the same type add up; on an abstract field, each possible concrete type gets the fragments that
 *   apply to it and the most expensive type counts;
 * - a mutation adds 10; a selection excluded by a literal `@skip(if: true)` / `@include(if: false)` costs 0, one that
 *   depends on a variable counts (an upper bound);
 * - introspection (`__schema`, `__type`) costs a flat weight, since its size is bounded by the schema, not by data;
 *   `__typename` is free.
 */
import {
  getArgumentValues,
  getNamedType,
  getNullableType,
  isAbstractType,
  isCompositeType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  typeFromAST,
  valueFromAST,
} from 'graphql';
import type {
  ArgumentNode,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLField,
  GraphQLInputType,
  GraphQLNamedType,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionNode,
  SelectionSetNode,
  ValueNode,
} from 'graphql';
import type { CostDirectives, ListSizeRule } from './directives.ts';

/**
 * A list whose length its field's arguments decide, beyond what `@listSize` can say (a chart's points follow its span
 * and spacing): `size` of the field's coerced arguments; `sizedFields` the child lists it applies to (none: the field
 * itself is the list). Our estimate only; a stock gateway reads the `@listSize` fallback.
 */
export interface ArgumentSize {
  sizedFields: readonly string[];
  size(args: Readonly<Record<string, unknown>>): number;
}

export interface CostOptions {
  directives: CostDirectives;
  /** Lists sized by their field's arguments, by coordinate (`Coin.chart`); default none. */
  argumentSizes?: ReadonlyMap<string, ArgumentSize>;
  /** Size of a list with no `@listSize` and no slicing argument. Default 10. */
  defaultListSize?: number;
  /** Flat cost of `__schema` and of `__type`. Default 50. */
  introspectionCost?: number;
}

/** Cost added to every mutation operation. */
export const MUTATION_BASE_COST = 10;

/** What a walk over one operation knows (shared with the measured cost, `measured.ts`). */
export interface Walk {
  schema: GraphQLSchema;
  opts: Required<CostOptions>;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  /** The request's variables, plus the operation's defaults for those it leaves out (as execution sees them). */
  variables: Readonly<Record<string, unknown>>;
  /** Fragment names on the current path (a cycle is a validation error; never loop here). */
  visiting: Set<string>;
  /** Cost of a fragment (by name and sizing): a fragment spread many times is walked once. */
  memo: Map<string, number>;
}

/** The estimated cost of `operation` (already validated against `schema`). */
export function estimateCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: readonly FragmentDefinitionNode[],
  variables: Readonly<Record<string, unknown>> | undefined,
  opts: CostOptions,
): number {
  const root = rootTypeOf(schema, operation);
  if (!root) return 0;
  const walk = walkOf(schema, operation, fragments, variables, opts);
  const base = operation.operation === 'mutation' ? MUTATION_BASE_COST : 0;
  return base + selectionCost(walk, root, operation.selectionSet, null);
}

/** The root type of `operation` in `schema` (null when the schema has none). */
export function rootTypeOf(schema: GraphQLSchema, operation: OperationDefinitionNode) {
  return operation.operation === 'mutation'
    ? schema.getMutationType()
    : operation.operation === 'subscription'
      ? schema.getSubscriptionType()
      : schema.getQueryType();
}

export function walkOf(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: readonly FragmentDefinitionNode[],
  variables: Readonly<Record<string, unknown>> | undefined,
  opts: CostOptions,
): Walk {
  return {
    schema,
    opts: { defaultListSize: 10, introspectionCost: 50, argumentSizes: new Map(), ...opts },
    fragments: new Map(fragments.map((f) => [f.name.value, f])),
    variables: withDefaults(schema, operation, variables ?? {}),
    visiting: new Set(),
    memo: new Map(),
  };
}

/** A variable the request leaves out takes its default from the operation (`query ($n: Int = 100)`). */
function withDefaults(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  let out: Record<string, unknown> | null = null;
  for (const def of operation.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    if (!def.defaultValue || Object.hasOwn(variables, name)) continue;
    const type = typeFromAST(schema, def.type);
    if (!type) continue;
    out ??= { ...variables };
    out[name] = valueFromAST(def.defaultValue, type as GraphQLInputType);
  }
  return out ?? variables;
}

/** Sized child fields and the size they get (a connection's `edges`). */
interface Sizing {
  fields: ReadonlySet<string>;
  size: number;
}

/** Excluded whatever the variables: `@skip(if: true)` or `@include(if: false)` with a literal. */
export function excluded(sel: SelectionNode): boolean {
  for (const d of sel.directives ?? []) {
    const cond = d.arguments?.find((a) => a.name.value === 'if')?.value;
    if (cond?.kind !== Kind.BOOLEAN) continue;
    if (d.name.value === 'skip' && cond.value) return true;
    if (d.name.value === 'include' && !cond.value) return true;
  }
  return false;
}

/**
 * Cost of a selection set on `type`. Fields and fragments that apply to every object of `type` add up; on an
 * abstract type, fragments on narrower types only apply to some objects: each possible type adds those that apply
 * to it, and the most expensive possible type counts.
 */
function selectionCost(
  walk: Walk,
  type: GraphQLNamedType,
  set: SelectionSetNode,
  sizing: Sizing | null,
): number {
  let own = 0;
  const narrower: { type: GraphQLNamedType; cost: number }[] = [];
  for (const sel of set.selections) {
    if (excluded(sel)) continue;
    if (sel.kind === Kind.FIELD) {
      own += fieldCost(walk, type, sel, sizing);
      continue;
    }
    let target: GraphQLNamedType;
    let cost: number;
    if (sel.kind === Kind.INLINE_FRAGMENT) {
      const cond = sel.typeCondition?.name.value;
      target = (cond && walk.schema.getType(cond)) || type;
      cost = selectionCost(walk, target, sel.selectionSet, sizing);
    } else {
      const frag = walk.fragments.get(sel.name.value);
      if (!frag || walk.visiting.has(frag.name.value)) continue;
      target = walk.schema.getType(frag.typeCondition.name.value) ?? type;
      const key = `${frag.name.value}\0${sizing ? `${[...sizing.fields].join(',')}:${sizing.size}` : ''}`;
      const known = walk.memo.get(key);
      if (known !== undefined) cost = known;
      else {
        walk.visiting.add(frag.name.value);
        cost = selectionCost(walk, target, frag.selectionSet, sizing);
        walk.visiting.delete(frag.name.value);
        walk.memo.set(key, cost);
      }
    }
    if (target === type || !isAbstractType(type)) own += cost;
    else narrower.push({ type: target, cost });
  }
  if (narrower.length === 0 || !isAbstractType(type)) return own;
  let worst = 0;
  for (const t of walk.schema.getPossibleTypes(type)) {
    let c = 0;
    for (const n of narrower)
      if (n.type === t || (isAbstractType(n.type) && walk.schema.isSubType(n.type, t))) c += n.cost;
    worst = Math.max(worst, c);
  }
  return own + worst;
}

function fieldCost(walk: Walk, parent: GraphQLNamedType, node: FieldNode, sizing: Sizing | null): number {
  const name = node.name.value;
  if (name === '__typename') return 0;
  if (name === '__schema' || name === '__type') return walk.opts.introspectionCost;
  if (!isObjectType(parent) && !isInterfaceType(parent)) return 0;
  const def = parent.getFields()[name];
  if (!def) return 0;
  const key = `${parent.name}.${name}`;
  const rules = walk.opts.directives.get(key);
  const named = getNamedType(def.type);
  const weight = fieldWeight(walk, key, def);

  const byArgs = walk.opts.argumentSizes.get(key);
  const listSize =
    (byArgs && { sizedFields: byArgs.sizedFields }) ?? (rules?.listSize as ListSizeRule | undefined) ?? null;
  const expected = byArgs
    ? sizeByArguments(byArgs, def, node, walk.variables)
    : listSize
      ? expectedSize(walk, def, node, listSize as ListSizeRule)
      : null;
  const sizesChildren = listSize !== null && listSize.sizedFields.length > 0;
  const childSizing: Sizing | null =
    sizesChildren && expected !== null ? { fields: new Set(listSize.sizedFields), size: expected } : null;
  const children = node.selectionSet ? selectionCost(walk, named, node.selectionSet, childSizing) : 0;

  let count = 1;
  if (isListType(getNullableType(def.type))) {
    const fromParent = sizing?.fields.has(name) ? sizing.size : null;
    // With sizedFields the size is the children's: this list only gets the default size.
    count = fromParent ?? (sizesChildren ? null : expected) ?? walk.opts.defaultListSize;
  }
  return count * (weight + children) + argumentsCost(walk, key, def, node.arguments);
}

/** What `rule` sizes for these arguments; null when they do not coerce (execution refuses them: nothing to size). */
function sizeByArguments(
  rule: ArgumentSize,
  def: GraphQLField<unknown, unknown>,
  node: FieldNode,
  variables: Readonly<Record<string, unknown>>,
): number | null {
  try {
    return Math.max(0, Math.floor(rule.size(getArgumentValues(def, node, variables))));
  } catch {
    return null;
  }
}

/** A field's own weight: its `@cost` (or its type's), else 1 for an object, interface or union, 0 otherwise. */
export function fieldWeight(walk: Walk, key: string, def: GraphQLField<unknown, unknown>): number {
  return walk.opts.directives.get(key)?.weight ?? (isCompositeType(getNamedType(def.type)) ? 1 : 0);
}

/** The largest slicing argument, else `assumedSize`; null when neither says anything. */
function expectedSize(
  walk: Walk,
  def: GraphQLField<unknown, unknown>,
  node: FieldNode,
  rule: ListSizeRule,
): number | null {
  let best: number | null = null;
  for (const argName of rule.slicingArguments) {
    const argDef = def.args.find((a) => a.name === argName);
    if (!argDef) continue;
    // The schema's default, unless the operation gives a number (a literal or a variable's value or default).
    let v: unknown = argDef.defaultValue;
    const given = node.arguments?.find((a) => a.name.value === argName);
    if (given) {
      const value = valueFromAST(given.value, argDef.type, walk.variables);
      if (typeof value === 'number') v = value;
    }
    if (typeof v === 'number' && Number.isFinite(v)) best = Math.max(best ?? 0, Math.max(0, Math.floor(v)));
  }
  return best ?? rule.assumedSize;
}

/** Arguments as Apollo Router scores them: an input object costs 1 (or its `@cost`), with its fields added. */
export function argumentsCost(
  walk: Walk,
  fieldKey: string,
  def: GraphQLField<unknown, unknown>,
  args: readonly ArgumentNode[] | undefined,
): number {
  let cost = 0;
  for (const a of args ?? []) {
    const argDef = def.args.find((x) => x.name === a.name.value);
    if (!argDef) continue;
    cost += literalCost(walk, a.value, argDef.type, `${fieldKey}(${argDef.name})`);
  }
  return cost;
}

function literalCost(walk: Walk, v: ValueNode, type: GraphQLInputType, key: string): number {
  const own = walk.opts.directives.get(key)?.weight ?? null;
  const named = getNamedType(type);
  switch (v.kind) {
    case Kind.NULL:
      return 0;
    case Kind.VARIABLE:
      return jsonCost(walk, walk.variables[v.name.value], type, key);
    case Kind.LIST: {
      const nullable = getNullableType(type);
      if (!isListType(nullable)) return own ?? 0; // fails coercion
      const item = nullable.ofType as GraphQLInputType;
      return (own ?? 0) + v.values.reduce((s, x) => s + literalCost(walk, x, item, key), 0);
    }
    case Kind.OBJECT: {
      if (!isInputObjectType(named)) return own ?? 0;
      const fields = named.getFields();
      let cost = own ?? 1;
      for (const f of v.fields) {
        const fd = fields[f.name.value];
        if (fd) cost += literalCost(walk, f.value, fd.type, `${named.name}.${fd.name}`);
      }
      return cost;
    }
    default:
      return own ?? 0;
  }
}

/** The same for a variable's JSON value, walked without recursion (JSON can nest deeper than the stack). */
function jsonCost(walk: Walk, value: unknown, type: GraphQLInputType, key: string): number {
  let cost = 0;
  const todo: [unknown, GraphQLInputType, string][] = [[value, type, key]];
  for (let next = todo.pop(); next; next = todo.pop()) {
    const [v, t, k] = next;
    if (v === null || v === undefined) continue;
    const own = walk.opts.directives.get(k)?.weight ?? null;
    const nullable = getNullableType(t);
    const named = getNamedType(t);
    if (Array.isArray(v)) {
      cost += own ?? 0;
      // Only a list type takes a list (anything else fails coercion): never deeper than the type.
      if (isListType(nullable)) for (const x of v) todo.push([x, nullable.ofType as GraphQLInputType, k]);
    } else if (typeof v === 'object' && isInputObjectType(named)) {
      cost += own ?? 1;
      const fields = named.getFields();
      for (const [f, x] of Object.entries(v)) {
        const fd = fields[f];
        if (fd) todo.push([x, fd.type, `${named.name}.${fd.name}`]);
      }
    } else cost += own ?? 0;
  }
  return cost;
}
