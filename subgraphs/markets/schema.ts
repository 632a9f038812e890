/** The executable markets subgraph schema: the SDL (`schema/markets.graphql`, the source of truth) + resolvers. */
import { readFileSync } from 'node:fs';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import type { GraphQLSchema } from 'graphql';
import { parse } from 'graphql';
import { resolvers } from './resolvers.ts';
import { serveFloats } from '../shared/served-floats.ts';
import { pathToFileURL } from 'node:url';
import { projectPath } from '../../src/core/project-root.ts';

/** Path of the SDL file. */
export const SDL_URL = pathToFileURL(projectPath('schema', 'markets.graphql'));

/** Builds the federated schema; reads the SDL file once per call (no other side effect). */
export function buildMarketsSchema(): GraphQLSchema {
  const typeDefs = parse(readFileSync(SDL_URL, 'utf8'));
  // The generated `Resolvers` type is stricter than Apollo's structural resolver map; the shapes are the same.
  return serveFloats(buildSubgraphSchema({ typeDefs, resolvers: resolvers as GraphQLResolverMap<unknown> }));
}
