/**
 * The demand-control directives of the supergraph (`@cost`, `@listSize` from https://specs.apollo.dev/cost/v0.1),
 * read from its SDL once at start: a map from `Type.field` to the field's weight and list-size rules.
 */
import { Kind, parse } from 'graphql';
import type { ConstDirectiveNode, ConstValueNode } from 'graphql';

export interface ListSizeRule {
  /** The size assumed when no slicing argument says otherwise. */
  assumedSize: number | null;
  /** Arguments whose value bounds the list (`first`, `last`, `limit`…); the largest given one wins. */
  slicingArguments: readonly string[];
  /** Child fields the size applies to (a connection's `edges`), instead of the field itself. */
  sizedFields: readonly string[];
}

export interface FieldCost {
  /** `@cost(weight:)` on the field: replaces the default weight of its type (1 for objects, 0 for leaves). */
  weight: number | null;
  listSize: ListSizeRule | null;
}

/** `Type.field` → its demand-control directives (fields without any are absent). */
export type CostDirectives = ReadonlyMap<string, FieldCost>;

function constValue(v: ConstValueNode): unknown {
  switch (v.kind) {
    case Kind.INT:
      return Number(v.value);
    case Kind.FLOAT:
      return Number(v.value);
    case Kind.STRING:
    case Kind.ENUM:
      return v.value;
    case Kind.BOOLEAN:
      return v.value;
    case Kind.LIST:
      return v.values.map(constValue);
    default:
      return null;
  }
}

function args(d: ConstDirectiveNode): Record<string, unknown> {
  return Object.fromEntries((d.arguments ?? []).map((a) => [a.name.value, constValue(a.value)]));
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** Reads `@cost` and `@listSize` from object and interface fields of a (super)graph SDL. */
export function readCostDirectives(sdl: string): CostDirectives {
  const out = new Map<string, FieldCost>();
  for (const def of parse(sdl).definitions) {
    if (
      def.kind !== Kind.OBJECT_TYPE_DEFINITION &&
      def.kind !== Kind.OBJECT_TYPE_EXTENSION &&
      def.kind !== Kind.INTERFACE_TYPE_DEFINITION
    )
      continue;
    for (const f of def.fields ?? []) {
      let weight: number | null = null;
      let listSize: ListSizeRule | null = null;
      for (const d of f.directives ?? []) {
        const a = args(d);
        if (d.name.value === 'cost' && typeof a['weight'] === 'number') weight = a['weight'];
        if (d.name.value === 'listSize')
          listSize = {
            assumedSize: typeof a['assumedSize'] === 'number' ? a['assumedSize'] : null,
            slicingArguments: strings(a['slicingArguments']),
            sizedFields: strings(a['sizedFields']),
          };
      }
      if (weight !== null || listSize !== null)
        out.set(`${def.name.value}.${f.name.value}`, { weight, listSize });
    }
  }
  return out;
}
