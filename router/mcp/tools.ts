/**
 * MCP tools from GraphQL operations: one tool per query of a document, named after the operation (`CoinChart` →
 * `coin_chart`), described by the comment right above it, with a JSON Schema of its variables whose descriptions
 * are those of the arguments the variables feed. Mutations and subscriptions never become tools.
 */
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  parse,
  print,
  TokenKind,
  TypeInfo,
  typeFromAST,
  valueFromAST,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import type {
  DocumentNode,
  FragmentDefinitionNode,
  GraphQLInputType,
  GraphQLSchema,
  OperationDefinitionNode,
  Token,
  GraphQLEnumType,
  GraphQLInputObjectType,
} from 'graphql';

/** A JSON Schema (the subset MCP clients read: draft 2020-12 keywords). */
export type JsonSchema = Record<string, unknown>;

export interface OperationTool {
  /** The tool's name: the operation's name in snake case. */
  name: string;
  /** The operation's own name. */
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  /** The operation with the fragments it spreads, as sent to the router. */
  query: string;
  operationName: string;
}

/** `CoinChart` → `coin_chart`, `ReverseName` → `reverse_name`. */
export const snakeCase = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();

/** The `#` comment lines directly above `op` (no blank line between), joined; '' when there are none. */
function leadingComment(op: OperationDefinitionNode): string {
  const lines: string[] = [];
  let line = op.loc?.startToken.line ?? 0;
  for (let t: Token | null | undefined = op.loc?.startToken.prev; t?.kind === TokenKind.COMMENT; t = t.prev) {
    if (t.line !== line - 1) break;
    lines.unshift((t.value ?? '').trim());
    line = t.line;
  }
  return lines.join(' ');
}

/** The JSON Schema of a GraphQL input type (nullability is the caller's `required`). */
function schemaOfType(type: GraphQLInputType): JsonSchema {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return { type: 'array', items: schemaOfType(inner.ofType) };
  const named = getNamedType(inner);
  if (isEnumType(named)) return enumSchema(named);
  if (isInputObjectType(named)) return inputObjectSchema(named);
  const scalar: JsonSchema = { type: SCALARS[named.name] ?? 'string' };
  if (!SCALARS[named.name] && named.description) scalar.description = named.description;
  return scalar;
}

const SCALARS: Readonly<Record<string, string>> = {
  String: 'string',
  ID: 'string',
  Int: 'integer',
  Float: 'number',
  Boolean: 'boolean',
};

const enumSchema = (e: GraphQLEnumType): JsonSchema => ({
  type: 'string',
  enum: e.getValues().map((v) => v.name),
});

function inputObjectSchema(t: GraphQLInputObjectType): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const f of Object.values(t.getFields())) {
    properties[f.name] = {
      ...schemaOfType(f.type),
      ...(f.description ? { description: f.description } : {}),
    };
    if (isNonNullType(f.type) && f.defaultValue === undefined) required.push(f.name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/** Variable name → the description of the argument it feeds (the first one, when it feeds several). */
function variableDescriptions(schema: GraphQLSchema, doc: DocumentNode): Map<string, string> {
  const out = new Map<string, string>();
  const info = new TypeInfo(schema);
  visit(
    doc,
    visitWithTypeInfo(info, {
      Argument(node) {
        const description = info.getArgument()?.description;
        if (node.value.kind === Kind.VARIABLE && description && !out.has(node.value.name.value)) {
          out.set(node.value.name.value, description);
        }
      },
    }),
  );
  return out;
}

/** The tool of one operation; `fragments` are the document's, of which the ones it spreads are sent with it. */
function toolOf(
  schema: GraphQLSchema,
  op: OperationDefinitionNode & { name: NonNullable<OperationDefinitionNode['name']> },
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): OperationTool {
  const used = new Map<string, FragmentDefinitionNode>();
  const spread = (node: OperationDefinitionNode | FragmentDefinitionNode): void =>
    void visit(node, {
      FragmentSpread(s) {
        const f = fragments.get(s.name.value);
        if (f && !used.has(f.name.value)) {
          used.set(f.name.value, f);
          spread(f);
        }
      },
    });
  spread(op);
  const doc: DocumentNode = { kind: Kind.DOCUMENT, definitions: [op, ...used.values()] };
  const described = variableDescriptions(schema, doc);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const v of op.variableDefinitions ?? []) {
    const name = v.variable.name.value;
    const type = typeFromAST(schema, v.type) as GraphQLInputType | undefined;
    if (!type) throw new Error(`operation ${op.name.value}: unknown type of $${name}`);
    const property: JsonSchema = schemaOfType(type);
    const description = described.get(name);
    if (description) property.description = description;
    if (v.defaultValue) property.default = valueFromAST(v.defaultValue, type);
    properties[name] = property;
    if (v.type.kind === Kind.NON_NULL_TYPE && !v.defaultValue) required.push(name);
  }
  return {
    name: snakeCase(op.name.value),
    title: op.name.value,
    description: leadingComment(op) || `The ${op.name.value} query.`,
    inputSchema: { type: 'object', properties, required, additionalProperties: false },
    query: print(doc),
    operationName: op.name.value,
  };
}

/**
 * The tools of `source` (a GraphQL document of named operations and fragments): one per named query, in document
 * order; `only` keeps the named operations only. Throws when an operation uses a type `schema` does not have.
 */
export function operationTools(
  schema: GraphQLSchema,
  source: string,
  only?: readonly string[],
): OperationTool[] {
  return toolsOfDocument(schema, parse(source), only);
}

/**
 * The tools of an app's trusted documents (each a document of its own, validated when it was published): one per
 * named query, the first of a name kept, sending the document's own text; a document that no longer fits `schema`
 * gives none.
 */
export function documentTools(schema: GraphQLSchema, bodies: Iterable<string>): OperationTool[] {
  const byName = new Map<string, OperationTool>();
  for (const body of bodies) {
    let tools: OperationTool[];
    try {
      tools = toolsOfDocument(schema, parse(body));
    } catch {
      continue;
    }
    // Sent as published: a trusted-only key runs a trusted body only when it is identical, byte for byte.
    for (const t of tools) if (!byName.has(t.name)) byName.set(t.name, { ...t, query: body });
  }
  return [...byName.values()];
}

function toolsOfDocument(
  schema: GraphQLSchema,
  doc: DocumentNode,
  only?: readonly string[],
): OperationTool[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const tools: OperationTool[] = [];
  for (const d of doc.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION || d.operation !== 'query' || !d.name) continue;
    if (only && !only.includes(d.name.value)) continue;
    tools.push(
      toolOf(
        schema,
        d as OperationDefinitionNode & { name: NonNullable<OperationDefinitionNode['name']> },
        fragments,
      ),
    );
  }
  return tools;
}
