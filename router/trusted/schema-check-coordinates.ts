/**
 * Schema coordinates (`Type`, `Type.field`, `Type.field(arg:)`, `Enum.VALUE`, `@directive`, `@directive(arg:)`) on
 * both sides of a schema check: what a change of graphql-js's `findBreakingChanges` names, and what each node of a
 * document refers to in the current schema. A validation error of the document against the proposed schema touches a
 * change when one of the error's nodes refers to a coordinate the change names (`schema-check.ts`).
 */
import { BreakingChangeType, getNamedType, Kind, TypeInfo, visit, visitWithTypeInfo } from 'graphql';
import type { ASTNode, BreakingChange, DocumentNode, GraphQLSchema, GraphQLType } from 'graphql';

const NAME = '([_A-Za-z][_0-9A-Za-z]*)';

/**
 * The coordinates a breaking change names, read from graphql-js's description of it (graphql 16 gives a change a type
 * and a sentence, no coordinate). Each pattern is that of the sentence graphql-js writes for the type; a description
 * that matches none names nothing, and the documents it breaks are listed as "other".
 */
const PATTERNS: Record<BreakingChangeType, ReadonlyArray<[RegExp, (m: string[]) => string[]]>> = {
  [BreakingChangeType.TYPE_REMOVED]: [[re(`(?:Standard scalar )?${NAME} was removed`), (m) => [m[1]!]]],
  [BreakingChangeType.TYPE_CHANGED_KIND]: [[re(`${NAME} changed from`), (m) => [m[1]!]]],
  [BreakingChangeType.TYPE_REMOVED_FROM_UNION]: [
    [re(`${NAME} was removed from union type ${NAME}\\.$`), (m) => [m[1]!]],
  ],
  [BreakingChangeType.VALUE_REMOVED_FROM_ENUM]: [
    [re(`${NAME} was removed from enum type ${NAME}\\.$`), (m) => [`${m[2]}.${m[1]}`]],
  ],
  [BreakingChangeType.REQUIRED_INPUT_FIELD_ADDED]: [
    [re(`A required field ${NAME} on input type ${NAME} was added\\.$`), (m) => [m[2]!]],
  ],
  [BreakingChangeType.IMPLEMENTED_INTERFACE_REMOVED]: [
    [re(`${NAME} no longer implements interface ${NAME}\\.$`), (m) => [m[1]!, m[2]!]],
  ],
  [BreakingChangeType.FIELD_REMOVED]: [[re(`${NAME}\\.${NAME} was removed\\.$`), (m) => [`${m[1]}.${m[2]}`]]],
  [BreakingChangeType.FIELD_CHANGED_KIND]: [
    [re(`${NAME}\\.${NAME} changed type from`), (m) => [`${m[1]}.${m[2]}`]],
  ],
  [BreakingChangeType.REQUIRED_ARG_ADDED]: [
    [re(`A required arg ${NAME} on directive ${NAME} was added\\.$`), (m) => [`@${m[2]}`]],
    [re(`A required arg ${NAME} on ${NAME}\\.${NAME} was added\\.$`), (m) => [`${m[2]}.${m[3]}`]],
  ],
  [BreakingChangeType.ARG_REMOVED]: [
    [re(`${NAME}\\.${NAME} arg ${NAME} was removed\\.$`), (m) => [`${m[1]}.${m[2]}(${m[3]}:)`]],
  ],
  [BreakingChangeType.ARG_CHANGED_KIND]: [
    [re(`${NAME}\\.${NAME} arg ${NAME} has changed type from`), (m) => [`${m[1]}.${m[2]}(${m[3]}:)`]],
  ],
  [BreakingChangeType.DIRECTIVE_REMOVED]: [[re(`${NAME} was removed\\.$`), (m) => [`@${m[1]}`]]],
  [BreakingChangeType.DIRECTIVE_ARG_REMOVED]: [
    [re(`${NAME} was removed from ${NAME}\\.$`), (m) => [`@${m[2]}(${m[1]}:)`]],
  ],
  [BreakingChangeType.REQUIRED_DIRECTIVE_ARG_ADDED]: [
    [re(`A required arg ${NAME} on directive ${NAME} was added\\.$`), (m) => [`@${m[2]}`]],
  ],
  [BreakingChangeType.DIRECTIVE_REPEATABLE_REMOVED]: [
    [re(`Repeatable flag was removed from ${NAME}\\.$`), (m) => [`@${m[1]}`]],
  ],
  [BreakingChangeType.DIRECTIVE_LOCATION_REMOVED]: [
    [re(`${NAME} was removed from ${NAME}\\.$`), (m) => [`@${m[2]}`]],
  ],
};

function re(source: string): RegExp {
  return new RegExp(`^${source}`);
}

/** The coordinates `change` names; empty when its description is not one graphql-js 16 writes. */
export function changeCoordinates(change: BreakingChange): string[] {
  for (const [pattern, pick] of PATTERNS[change.type] ?? []) {
    const m = pattern.exec(change.description);
    if (m) return pick(m as unknown as string[]);
  }
  return [];
}

/**
 * For each node of `doc`, the coordinates of `schema` it refers to: a field its `Type.field` and the type it
 * returns; an argument `Type.field(arg:)` (or `@directive(arg:)`), and so does every value inside it; an input
 * object's field `Input.field`; an enum value `Enum.VALUE`; a fragment or inline fragment its type condition and the
 * type it is spread in; a named type or directive its name. Only the node itself, not its ancestors (but an argument's
 * values), so that an error on a nested field is not laid on the field around it.
 */
export function nodeCoordinates(schema: GraphQLSchema, doc: DocumentNode): Map<ASTNode, Set<string>> {
  const out = new Map<ASTNode, Set<string>>();
  const typeInfo = new TypeInfo(schema);
  const fragmentTypes = new Map<string, string>();
  for (const d of doc.definitions)
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragmentTypes.set(d.name.value, d.typeCondition.name.value);
  const args: string[] = [];
  const add = (node: ASTNode, ...coords: Array<string | undefined>): void => {
    let set = out.get(node);
    if (!set) out.set(node, (set = new Set()));
    for (const c of coords) if (c) set.add(c);
  };
  const named = (t: GraphQLType | null | undefined): string | undefined =>
    t ? getNamedType(t).name : undefined;
  visit(
    doc,
    visitWithTypeInfo(typeInfo, {
      enter(node) {
        const parent = typeInfo.getParentType()?.name;
        switch (node.kind) {
          case Kind.OPERATION_DEFINITION:
            add(node, named(typeInfo.getType()));
            break;
          case Kind.FIELD:
            add(node, parent && `${parent}.${node.name.value}`, named(typeInfo.getType()));
            break;
          case Kind.ARGUMENT: {
            const directive = typeInfo.getDirective();
            const field = typeInfo.getFieldDef();
            const coord = directive
              ? `@${directive.name}(${node.name.value}:)`
              : parent && field
                ? `${parent}.${field.name}(${node.name.value}:)`
                : undefined;
            args.push(coord ?? '');
            add(node, coord, named(typeInfo.getInputType()));
            break;
          }
          case Kind.OBJECT_FIELD: {
            const input = named(typeInfo.getParentInputType());
            add(node, input && `${input}.${node.name.value}`, input);
            break;
          }
          case Kind.ENUM: {
            const e = named(typeInfo.getInputType());
            add(node, e && `${e}.${node.value}`);
            break;
          }
          case Kind.OBJECT:
            add(node, named(typeInfo.getInputType()));
            break;
          case Kind.INLINE_FRAGMENT:
            add(node, node.typeCondition?.name.value, parent);
            break;
          case Kind.FRAGMENT_SPREAD:
            add(node, fragmentTypes.get(node.name.value), parent);
            break;
          case Kind.NAMED_TYPE:
            add(node, node.name.value);
            break;
          case Kind.DIRECTIVE:
            add(node, `@${node.name.value}`);
            break;
          default:
        }
        // Every value inside an argument refers to that argument too (a variable, a literal, a list item).
        const arg = node.kind === Kind.ARGUMENT ? undefined : args[args.length - 1];
        if (arg) add(node, arg);
      },
      leave(node) {
        if (node.kind === Kind.ARGUMENT) args.pop();
      },
    }),
  );
  return out;
}
