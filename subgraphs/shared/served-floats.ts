/**
 * The served-number rule (`src/engine/served-numbers.ts`) at the graph's edge: every `Float` field of a subgraph
 * serves its value with at most 12 significant digits (whole numbers as they are), whatever its resolver computed.
 * Applied once to each subgraph's schema, so a resolver added later cannot leak float noise.
 */
import type { GraphQLFieldResolver, GraphQLObjectType, GraphQLSchema } from 'graphql';
import { defaultFieldResolver, getNamedType } from 'graphql';
import { servedNumber } from '../../src/engine/served-numbers.ts';

function served(v: unknown): unknown {
  if (typeof v === 'number') return servedNumber(v);
  if (Array.isArray(v)) return v.map(served);
  if (v instanceof Promise) return v.then(served);
  return v;
}

/** Wraps the resolver of every `Float` (and list-of-`Float`) field of `schema` with the rule; returns the schema. */
export function serveFloats(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    // Duck-typed object types (fields with resolvers): the schema's graphql instance may not be this module's.
    if (!('isTypeOf' in type && 'getInterfaces' in type) || type.name.startsWith('__')) continue;
    for (const field of Object.values((type as GraphQLObjectType).getFields())) {
      if (getNamedType(field.type).name !== 'Float') continue;
      const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => served(resolve(source, args, context, info));
    }
  }
  return schema;
}
