/**
 * The router's schema checks custom scalar inputs as the subgraphs do. The runtime builds its schema from the
 * supergraph's SDL, where `scalar DateTime` has no rules: every value would pass the router (its cost charged, its
 * plan made) and be refused by the subgraph, reported as the subgraph's failure (`DOWNSTREAM_SERVICE_ERROR`). With
 * the subgraphs' own `parseValue` and `parseLiteral` on the router's scalars, a bad literal fails validation
 * (`GRAPHQL_VALIDATION_FAILED`) and a bad variable fails coercion (`BAD_USER_INPUT`, answered as every other variable
 * that does not coerce), before anything is executed: the client's error, in the graph's terms.
 *
 * Values are checked, not converted: the scalars' `parseValue` and `parseLiteral` return what was sent, which the
 * router passes on to the subgraphs unchanged. Outputs are not touched (the subgraphs serialise them; the router's
 * `serialize` stays the identity).
 */
import { isScalarType, isSpecifiedScalarType } from 'graphql';
import type { GraphQLScalarType, GraphQLSchema } from 'graphql';
import { DateTime } from '../subgraphs/shared/scalars.ts';

/** The input rules of each custom scalar of the graph, by name (the subgraphs' definitions). */
export const CUSTOM_SCALARS: ReadonlyMap<string, GraphQLScalarType> = new Map([[DateTime.name, DateTime]]);

/**
 * Gives `schema`'s custom scalars the input rules of {@link CUSTOM_SCALARS}; the names of the custom scalars it has
 * no rules for (a scalar added to an SDL without its definition here).
 */
export function withScalarRules(schema: GraphQLSchema): string[] {
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isScalarType(type) || isSpecifiedScalarType(type) || type.name.startsWith('__')) continue;
    const rules = CUSTOM_SCALARS.get(type.name);
    if (!rules) {
      missing.push(type.name);
      continue;
    }
    // In place: the runtime's executor coerces variables against the schema object it was built with.
    type.parseValue = rules.parseValue;
    type.parseLiteral = rules.parseLiteral;
  }
  return missing;
}

/** The runtime plugin: every schema the runtime takes gets the rules. */
export const scalarRules = {
  onSchemaChange({ schema }: { schema: GraphQLSchema }): void {
    withScalarRules(schema);
  },
};
