/**
 * A subgraph schema compiled ahead of time (`subgraphs/shared/schema.ts`) is the schema `buildSubgraphSchema` builds
 * from the same SDL and resolvers: the same types, fields, arguments and defaults (printed and introspected), the
 * same `_service` SDL, the same entity resolution. And the build ships every subgraph compiled from the SDL as it is.
 */
import { readFileSync } from 'node:fs';
import type { GraphQLSchema } from 'graphql';
import { execute, introspectionFromSchema, parse, printSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { resolvers as accounts } from '../../subgraphs/accounts/resolvers.ts';
import { resolvers as bridge } from '../../subgraphs/bridge/resolvers.ts';
import { resolvers as identity } from '../../subgraphs/identity/resolvers.ts';
import { resolvers as markets } from '../../subgraphs/markets/resolvers.ts';
import {
  buildSchema,
  COMPILED_SUBGRAPHS_FILE,
  compileSubgraph,
  compileSubgraphs,
} from '../../subgraphs/shared/schema.ts';
import type { SubgraphName } from '../../subgraphs/shared/subgraph.ts';
import { projectPath } from '../../src/core/project-root.ts';

const RESOLVERS: Record<SubgraphName, object> = { markets, identity, bridge, accounts };
const sdlOf = (name: SubgraphName) => readFileSync(projectPath('schema', `${name}.graphql`), 'utf8');

const serviceSdl = async (schema: GraphQLSchema): Promise<unknown> =>
  (await execute({ schema, document: parse('{ _service { sdl } }') })).data;

describe.each(Object.keys(RESOLVERS) as SubgraphName[])('the %s subgraph compiled ahead', (name) => {
  const compiled = compileSubgraph(sdlOf(name));
  const fast = buildSchema(name, RESOLVERS[name], compiled);
  const slow = buildSchema(name, RESOLVERS[name], null);

  it('is the schema buildSubgraphSchema builds: printed, introspected, and its _service SDL', async () => {
    expect(fast).not.toBe(slow);
    expect(printSchema(fast)).toBe(printSchema(slow));
    expect(introspectionFromSchema(fast)).toEqual(introspectionFromSchema(slow));
    expect(await serviceSdl(fast)).toEqual(await serviceSdl(slow));
  });

  it('is not used for another SDL: a changed SDL is built from the SDL', () => {
    const stale = { ...compiled, hash: compileSubgraph(`${sdlOf(name)}\nscalar Stale`).hash };
    expect(buildSchema(name, RESOLVERS[name], stale).getType('Stale')).toBeUndefined();
    expect(printSchema(buildSchema(name, RESOLVERS[name], stale))).toBe(printSchema(slow));
  });
});

it('resolves entities as buildSubgraphSchema does (each representation through its type, in order)', async () => {
  const compiled = compileSubgraph(sdlOf('markets'));
  const coinById = { load: async (id: string) => ({ id, symbol: id.slice(0, 3) }) };
  const document = parse(
    'query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Coin { id symbol } } }',
  );
  const run = (schema: GraphQLSchema) =>
    execute({
      schema,
      document,
      variableValues: {
        r: [
          { __typename: 'Coin', id: 'litecoin' },
          { __typename: 'Coin', id: 'dogecoin' },
        ],
      },
      contextValue: { loaders: { coinById } },
    });
  const fast = await run(buildSchema('markets', markets, compiled));
  expect(fast).toEqual(await run(buildSchema('markets', markets, null)));
  expect(fast.errors).toBeUndefined();
  expect(fast.data?._entities).toMatchObject([
    { __typename: 'Coin', id: 'litecoin' },
    { __typename: 'Coin', id: 'dogecoin' },
  ]);
});

it('the build ships every subgraph compiled from its SDL as it is now', () => {
  const shipped: unknown = JSON.parse(readFileSync(COMPILED_SUBGRAPHS_FILE, 'utf8'));
  expect(shipped).toEqual(compileSubgraphs());
});
