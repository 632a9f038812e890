/**
 * The check of a trusted document at publish (`src/accounts/apps.ts` `DocumentCheck`): parsed and validated against
 * the API schema the router serves (`schema/api.graphql`), then priced by the router's own cost model
 * (`router/cost/estimate.ts`, the supergraph's `@cost`/`@listSize`) with no variables: a variable's default, else the
 * list sizes the schema assumes. A document of several operations costs its dearest one. The router still prices
 * each request with its real variables.
 */
import { readFileSync } from 'node:fs';
import { buildSchema, Kind, parse, validate } from 'graphql';
import type { DocumentNode, FragmentDefinitionNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { DocumentCheck } from '../../src/accounts/apps.ts';
import { projectPath } from '../../src/core/project-root.ts';
import { readCostDirectives } from '../cost/directives.ts';
import { supergraphDocument } from '../supergraph.ts';
import { estimateCost } from '../cost/estimate.ts';
import type { CostOptions } from '../cost/estimate.ts';
import { ARGUMENT_SIZES } from '../cost/sizes.ts';

export interface DocumentCheckOptions {
  /** The API schema's SDL; default the committed `schema/api.graphql`. */
  apiSdl?: string;
  /** The supergraph's SDL (its cost directives); default the committed `schema/supergraph.graphql`. */
  supergraphSdl?: string;
  /** As the router's options: default 10 and 50. */
  defaultListSize?: number;
  introspectionCost?: number;
}

/**
 * The check, its schema and cost model built at its first use: a publish is rare, and building them is ~0.2 s of a
 * start-up that would otherwise pay for them before the first request.
 */
export function documentCheck(opts: DocumentCheckOptions = {}): DocumentCheck {
  let built: { schema: GraphQLSchema; cost: CostOptions } | undefined;
  const build = (): { schema: GraphQLSchema; cost: CostOptions } => {
    const read = (f: string): string => readFileSync(projectPath('schema', f), 'utf8');
    return {
      schema: buildSchema(opts.apiSdl ?? read('api.graphql')),
      cost: {
        directives: readCostDirectives(supergraphDocument(opts.supergraphSdl)),
        argumentSizes: ARGUMENT_SIZES,
        defaultListSize: opts.defaultListSize ?? 10,
        introspectionCost: opts.introspectionCost ?? 50,
      },
    };
  };
  return (body) => {
    const { schema, cost } = (built ??= build());
    let doc: DocumentNode;
    try {
      doc = parse(body);
    } catch (err) {
      return { ok: false, reason: (err as Error).message };
    }
    const errors = validate(schema, doc);
    if (errors.length > 0) return { ok: false, reason: errors.map((e) => e.message).join('; ') };
    return { ok: true, cost: documentCost(schema, doc, cost) };
  };
}

function documentCost(schema: GraphQLSchema, doc: DocumentNode, opts: CostOptions): number {
  const fragments = doc.definitions.filter(
    (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION,
  );
  const ops = doc.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  return Math.max(0, ...ops.map((op) => estimateCost(schema, op, fragments, {}, opts)));
}
