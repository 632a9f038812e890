/**
 * The demand-control directives of the supergraph (`@cost`, `@listSize` from https://specs.apollo.dev/cost/v0.1),
 * read from its SDL once at start: a map from `Type.field` to the field's weight and list-size rules.
 *
 * As Apollo Router reads them: a `@cost` on a type (object, scalar, enum) is the weight of every field, argument and
 * input field of that type that has no `@cost` of its own; the directives may be renamed by the spec's `@link`
 * (`as:`, or `import: [{ name: "@cost", as: "@weight" }]`).
 */
import { Kind, parse } from 'graphql';
import type {
  ConstDirectiveNode,
  ConstValueNode,
  DefinitionNode,
  DocumentNode,
  InputValueDefinitionNode,
  TypeNode,
} from 'graphql';

export interface ListSizeRule {
  /** The size assumed when no slicing argument says otherwise. */
  assumedSize: number | null;
  /** Arguments whose value bounds the list (`first`, `last`, `limit`…); the largest given one wins. */
  slicingArguments: readonly string[];
  /** Child fields the size applies to (a connection's `edges`), instead of the field itself. */
  sizedFields: readonly string[];
}

export interface FieldCost {
  /** `@cost(weight:)` on the field (or on its type): replaces the default weight (1 for objects, 0 for leaves). */
  weight: number | null;
  listSize: ListSizeRule | null;
}

/**
 * `Type.field` → its demand-control directives (fields without any are absent). The same map holds the weights of
 * input fields (`Input.field`) and of arguments (`Type.field(argument)`), with `listSize: null`.
 */
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
    case Kind.OBJECT:
      return Object.fromEntries(v.fields.map((f) => [f.name.value, constValue(f.value)]));
    default:
      return null;
  }
}

function args(d: ConstDirectiveNode): Record<string, unknown> {
  return Object.fromEntries((d.arguments ?? []).map((a) => [a.name.value, constValue(a.value)]));
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** `weight: 5` (federation's Int!) or `weight: "5.0"` (the IBM spec's String!). */
function weightOf(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

const COST_SPEC = /^https:\/\/specs\.apollo\.dev\/cost\/v/;

/** The names `@cost` and `@listSize` go by in this document (renamed by the cost spec's `@link`, if any). */
function directiveNames(doc: DocumentNode): { cost: string; listSize: string } {
  for (const def of doc.definitions) {
    if (def.kind !== Kind.SCHEMA_DEFINITION && def.kind !== Kind.SCHEMA_EXTENSION) continue;
    for (const d of def.directives ?? []) {
      if (d.name.value !== 'link') continue;
      const a = args(d);
      if (typeof a['url'] !== 'string' || !COST_SPEC.test(a['url'])) continue;
      const prefix = typeof a['as'] === 'string' ? a['as'].replace(/^@/, '') : 'cost';
      // Not imported: `@<prefix>` for the spec's own directive, `@<prefix>__listSize` for the other one.
      const names = { cost: prefix, listSize: `${prefix}__listSize` };
      for (const imp of Array.isArray(a['import']) ? (a['import'] as unknown[]) : []) {
        const [name, as] =
          typeof imp === 'string'
            ? [imp, imp]
            : imp && typeof imp === 'object'
              ? [(imp as Record<string, unknown>)['name'], (imp as Record<string, unknown>)['as']]
              : [undefined, undefined];
        if (typeof name !== 'string') continue;
        const local = (typeof as === 'string' ? as : name).replace(/^@/, '');
        if (name === '@cost') names.cost = local;
        if (name === '@listSize') names.listSize = local;
      }
      return names;
    }
  }
  return { cost: 'cost', listSize: 'listSize' };
}

function namedType(t: TypeNode): string {
  return t.kind === Kind.NAMED_TYPE ? t.name.value : namedType(t.type);
}

function costOf(directives: readonly ConstDirectiveNode[] | undefined, name: string): number | null {
  const d = directives?.find((x) => x.name.value === name);
  return d ? weightOf(args(d)['weight']) : null;
}

const typeName = (def: DefinitionNode): string | null =>
  'name' in def && def.name && def.kind !== Kind.DIRECTIVE_DEFINITION ? def.name.value : null;

/** Reads `@cost` and `@listSize` from the fields, arguments and input fields of a (super)graph SDL, or its tree. */
export function readCostDirectives(sdl: string | DocumentNode): CostDirectives {
  const doc = typeof sdl === 'string' ? parse(sdl, { noLocation: true }) : sdl;
  const names = directiveNames(doc);

  // `@cost` on a type: the default weight of whatever returns or takes that type.
  const typeWeight = new Map<string, number>();
  for (const def of doc.definitions) {
    const name = typeName(def);
    if (!name || !('directives' in def)) continue;
    const w = costOf(def.directives as readonly ConstDirectiveNode[] | undefined, names.cost);
    if (w !== null) typeWeight.set(name, w);
  }
  const weight = (directives: readonly ConstDirectiveNode[] | undefined, type: TypeNode): number | null =>
    costOf(directives, names.cost) ?? typeWeight.get(namedType(type)) ?? null;

  const out = new Map<string, FieldCost>();
  const inputs = (owner: string, values: readonly InputValueDefinitionNode[] | undefined): void => {
    for (const v of values ?? []) {
      const w = weight(v.directives, v.type);
      if (w !== null) out.set(`${owner}(${v.name.value})`, { weight: w, listSize: null });
    }
  };

  for (const def of doc.definitions) {
    if (def.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION || def.kind === Kind.INPUT_OBJECT_TYPE_EXTENSION) {
      for (const f of def.fields ?? []) {
        const w = weight(f.directives, f.type);
        if (w !== null) out.set(`${def.name.value}.${f.name.value}`, { weight: w, listSize: null });
      }
      continue;
    }
    if (
      def.kind !== Kind.OBJECT_TYPE_DEFINITION &&
      def.kind !== Kind.OBJECT_TYPE_EXTENSION &&
      def.kind !== Kind.INTERFACE_TYPE_DEFINITION &&
      def.kind !== Kind.INTERFACE_TYPE_EXTENSION
    )
      continue;
    for (const f of def.fields ?? []) {
      const key = `${def.name.value}.${f.name.value}`;
      const w = weight(f.directives, f.type);
      let listSize: ListSizeRule | null = null;
      const ls = f.directives?.find((d) => d.name.value === names.listSize);
      if (ls) {
        const a = args(ls);
        listSize = {
          assumedSize: typeof a['assumedSize'] === 'number' ? a['assumedSize'] : null,
          slicingArguments: strings(a['slicingArguments']),
          sizedFields: strings(a['sizedFields']),
        };
      }
      if (w !== null || listSize !== null) out.set(key, { weight: w, listSize });
      inputs(key, f.arguments);
    }
  }
  return out;
}
