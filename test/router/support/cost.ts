/**
 * Shared by the query-cost tests (`cost-estimate.test.ts`, `cost.test.ts`): a schema with the cost directives, and
 * the estimate of an operation over it (validated first, as the router does).
 */
import { Kind, buildSchema, parse, validate } from 'graphql';
import type { FragmentDefinitionNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { expect } from 'vitest';
import { readCostDirectives } from '../../../router/cost/directives.ts';
import type { CostDirectives } from '../../../router/cost/directives.ts';
import { estimateCost } from '../../../router/cost/estimate.ts';
import type { CostOptions } from '../../../router/cost/estimate.ts';

const COST_DIRECTIVES = `
directive @cost(weight: Int!) on ARGUMENT_DEFINITION | ENUM | FIELD_DEFINITION | INPUT_FIELD_DEFINITION | OBJECT | SCALAR
directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION
`;

export interface Graph {
  schema: GraphQLSchema;
  directives: CostDirectives;
  /** Lists sized by their arguments (the router's `ARGUMENT_SIZES` for our API schema); default none. */
  argumentSizes?: CostOptions['argumentSizes'];
}

export function graph(sdl: string): Graph {
  const full = COST_DIRECTIVES + sdl;
  return { schema: buildSchema(full), directives: readCostDirectives(full) };
}

export function split(query: string): { op: OperationDefinitionNode; fragments: FragmentDefinitionNode[] } {
  const doc = parse(query);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!op) throw new Error('no operation');
  const fragments = doc.definitions.filter(
    (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION,
  );
  return { op, fragments };
}

/** The estimate of a valid operation (validated first, as the router does). */
export function cost(
  g: Graph,
  query: string,
  variables?: Record<string, unknown>,
  opts: Omit<CostOptions, 'directives'> = {},
): number {
  expect(validate(g.schema, parse(query)).map((e) => e.message)).toEqual([]);
  return unvalidatedCost(g, query, variables, opts);
}

export function unvalidatedCost(
  g: Graph,
  query: string,
  variables?: Record<string, unknown>,
  opts: Omit<CostOptions, 'directives'> = {},
): number {
  const { op, fragments } = split(query);
  const sizes = g.argumentSizes ? { argumentSizes: g.argumentSizes } : {};
  return estimateCost(g.schema, op, fragments, variables, { directives: g.directives, ...sizes, ...opts });
}
