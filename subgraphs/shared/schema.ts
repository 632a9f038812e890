/**
 * A subgraph's executable schema: its SDL (`schema/<name>.graphql`, the source of truth) and its resolvers, as
 * `buildSubgraphSchema` makes it, enum argument defaults mapped through the resolvers.
 *
 * Federation's own build (reading the `@link`ed directives, validating, adding `_service`, `_entities` and `_Any`)
 * was most of the graph's share of a start. So the build (`scripts/build.ts`) compiles it ahead of time into
 * `dist/server/subgraphs.json`: per subgraph, a hash of the SDL, the executable schema as one printed document and
 * the SDL `_service` answers. When the hash matches the SDL in hand, the schema is that document built without
 * validation (it was validated when compiled) and given the same resolvers `buildSubgraphSchema` adds; otherwise (a
 * checkout whose SDL changed since the build) `buildSubgraphSchema` builds it. `test/graph/subgraph-schema.test.ts`
 * holds the two to the same schema.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { addResolversToSchema } from '@apollo/subgraph/dist/schema-helper/index.js';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { entitiesResolver } from '@apollo/subgraph/dist/types.js';
import {
  buildSubgraph,
  FEDERATION_UNNAMED_SUBGRAPH_NAME,
  printSchema as printSubgraphSdl,
} from '@apollo/federation-internals';
import type { DefinitionNode, DocumentNode, GraphQLArgument, GraphQLSchema } from 'graphql';
import { buildASTSchema, Kind, parse, print } from 'graphql';
import { projectPath } from '../../src/core/project-root.ts';
import type { SubgraphName } from './subgraph.ts';
import { SUBGRAPH_NAMES } from './subgraph.ts';

/** One subgraph compiled ahead of time. */
export interface CompiledSubgraph {
  /** sha256 of the SDL it was compiled from. */
  hash: string;
  /** The executable schema (federation's additions included), printed. */
  document: string;
  /** What `_service { sdl }` answers. */
  sdl: string;
  /** Whether the subgraph has entities (then `_entities` and `_Entity` exist). */
  entities: boolean;
}

/** Where the build writes the compiled subgraphs. */
export const COMPILED_SUBGRAPHS_FILE = projectPath('dist', 'server', 'subgraphs.json');

const hashOf = (sdl: string): string => createHash('sha256').update(sdl).digest('hex');

/** Compiles one SDL as `buildSubgraphSchema` would build it (throws on an invalid SDL, as it does). */
export function compileSubgraph(sdl: string): CompiledSubgraph {
  const subgraph = buildSubgraph(FEDERATION_UNNAMED_SUBGRAPH_NAME, '', parse(sdl), false);
  // What federation's `toGraphQLJSSchema` builds from: its AST, plus empty definitions for types only extended (a
  // method TypeScript calls private; the equivalence test notices if it changes).
  const extensionsOnly = subgraph.schema as unknown as {
    emptyASTDefinitionsForExtensionsWithoutDefinition(): DefinitionNode[];
  };
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      ...subgraph.schema.toAST().definitions,
      ...extensionsOnly.emptyASTDefinitionsForExtensionsWithoutDefinition(),
    ],
  };
  return {
    hash: hashOf(sdl),
    document: print(document),
    sdl: printSubgraphSdl(subgraph.schema),
    entities: subgraph.metadata().entityType() !== undefined,
  };
}

type Compiled = Partial<Record<SubgraphName, CompiledSubgraph>>;
let built: Compiled | undefined;

/** The compiled subgraphs of the build (read once), or none (no build, or an unreadable file). */
function readCompiled(): Compiled {
  try {
    built ??= JSON.parse(readFileSync(COMPILED_SUBGRAPHS_FILE, 'utf8')) as Compiled;
  } catch {
    built = {};
  }
  return built;
}

/** Every subgraph compiled from its SDL now, as the build writes them. */
export function compileSubgraphs(): Record<SubgraphName, CompiledSubgraph> {
  const entries = SUBGRAPH_NAMES.map((name) => [name, compileSubgraph(readSdl(name))]);
  return Object.fromEntries(entries) as Record<SubgraphName, CompiledSubgraph>;
}

const readSdl = (name: SubgraphName): string =>
  readFileSync(projectPath('schema', `${name}.graphql`), 'utf8');

/**
 * The executable schema of subgraph `name` with `resolvers` (the generated `Resolvers` type is stricter than Apollo's
 * structural resolver map; the shapes are the same). `compiled` is what the build wrote (read when not given); null
 * builds from the SDL.
 */
export function buildSchema(
  name: SubgraphName,
  resolvers: object,
  compiled: CompiledSubgraph | null = readCompiled()[name] ?? null,
): GraphQLSchema {
  const sdl = readSdl(name);
  const map = resolvers as GraphQLResolverMap<unknown>;
  if (compiled?.hash !== hashOf(sdl))
    return remapEnumDefaults(buildSubgraphSchema({ typeDefs: parse(sdl), resolvers: map }));
  const schema = buildASTSchema(parse(compiled.document, { noLocation: true }), { assumeValidSDL: true });
  const service = { sdl: compiled.sdl };
  addResolversToSchema(schema, { Query: { _service: () => service } });
  if (compiled.entities) {
    addResolversToSchema(schema, {
      Query: {
        _entities: (_source, { representations }, context, info) =>
          entitiesResolver({ representations, context, info }),
      },
      _Entity: { __resolveType: (parent: { __typename: string }) => parent.__typename },
    });
  }
  addResolversToSchema(schema, map);
  return remapEnumDefaults(schema);
}

/**
 * Gives enum arguments' defaults their mapped values. Resolvers map enum values to the domain's strings
 * (the accounts subgraph's `Role`, `Plan`, `ApiKeyStatus`, `DappStatus` resolvers) after the SDL's defaults were computed, so a default
 * such as `status: ApiKeyStatus = PENDING` would reach the resolver as `"PENDING"` instead of `"pending"` (and fail
 * to print in introspection). Each default is looked up again by its enum value name.
 *
 * Duck-typed rather than `isEnumType`: under Vite the schema's graphql instance (CommonJS, that of `@apollo/subgraph`)
 * is not the one this module imports. Only scalar enum defaults are mapped (the SDL has no list or input-object
 * defaults of enums).
 */
function remapEnumDefaults(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !('getFields' in type)) continue;
    for (const field of Object.values(type.getFields())) {
      for (const arg of 'args' in field ? field.args : []) remapDefault(arg);
    }
  }
  return schema;
}

function remapDefault(arg: GraphQLArgument): void {
  const ast = arg.astNode?.defaultValue;
  if (ast?.kind !== 'EnumValue') return;
  let t: unknown = arg.type;
  while (typeof t === 'object' && t !== null && 'ofType' in t) t = t.ofType;
  if (typeof t !== 'object' || t === null || !('getValue' in t) || typeof t.getValue !== 'function') return;
  const value = (t.getValue as (name: string) => { value: unknown } | undefined).call(t, ast.value);
  if (value) arg.defaultValue = value.value;
}
