/** The executable accounts subgraph schema: the SDL (`schema/accounts.graphql`, the source of truth) + resolvers. */
import { readFileSync } from 'node:fs';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import type { GraphQLArgument, GraphQLSchema } from 'graphql';
import { parse } from 'graphql';
import { resolvers } from './resolvers.ts';
import { serveFloats } from '../shared/served-floats.ts';
import { pathToFileURL } from 'node:url';
import { projectPath } from '../../src/core/project-root.ts';

/** Path of the SDL file. */
export const SDL_URL = pathToFileURL(projectPath('schema', 'accounts.graphql'));

/** Builds the federated schema; reads the SDL file once per call (no other side effect). */
export function buildAccountsSchema(): GraphQLSchema {
  const typeDefs = parse(readFileSync(SDL_URL, 'utf8'));
  // The generated `Resolvers` type is stricter than Apollo's structural resolver map; the shapes are the same.
  const schema = buildSubgraphSchema({ typeDefs, resolvers: resolvers as GraphQLResolverMap<unknown> });
  remapEnumDefaults(schema);
  return serveFloats(schema);
}

/**
 * Gives enum arguments' defaults their mapped values. `buildSubgraphSchema` maps enum values to the domain's strings
 * (the `Role`, `Plan`, `ApiKeyStatus`, `DappStatus` resolvers) after the SDL's defaults were computed, so a default
 * such as `status: ApiKeyStatus = PENDING` would reach the resolver as `"PENDING"` instead of `"pending"` (and fail
 * to print in introspection). Each default is looked up again by its enum value name.
 *
 * Duck-typed rather than `isEnumType`: under Vite the schema's graphql instance (CommonJS, that of `@apollo/subgraph`)
 * is not the one this module imports. Only scalar enum defaults are mapped (the SDL has no list or input-object
 * defaults of enums).
 */
function remapEnumDefaults(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !('getFields' in type)) continue;
    for (const field of Object.values(type.getFields())) {
      for (const arg of 'args' in field ? field.args : []) remapDefault(arg);
    }
  }
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
