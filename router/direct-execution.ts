/**
 * Direct execution (embedded mode): a query that one in-process subgraph can answer whole is executed against that
 * subgraph's schema without the gateway's query plan and result processing — the gateway's plan for it would be a
 * single fetch of the same selections, and its result processing a copy of that fetch's data.
 *
 * When it applies, per document (decided once per parsed document, the runtime reuses them):
 * - a query (not a mutation), with no introspection field besides `__typename`;
 * - every selection valid against the subgraph's own schema (graphql-js `validate`): so every field is one the
 *   subgraph defines, and as the subgraph resolves all its fields itself (no `@external`, `@requires`, `@provides`
 *   — `resolvesAllItsFields` checks its schema) it resolves them all.
 *
 * And per request: the result has no errors. A result with errors is discarded and the request goes through the
 * gateway as usual (with the same subgraph context, so the same snapshot), so errors always have the gateway's shape.
 * A subgraph that does not answer within the timeout is not waited for twice: the gateway's fetch reports the timeout
 * at once (`SourceContext.timedOut`).
 *
 * `test/graph/direct-execution.test.ts` compares the two paths byte for byte over a broad set of operations.
 */
import type { Logger } from '../src/core/log.ts';
import { execute, isInterfaceType, isObjectType, Kind, validate, visit } from 'graphql';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { Subgraph } from '../subgraphs/shared/subgraph.ts';
import { subgraphContext } from './sources/source.ts';
import { TimeoutError, withTimeout } from '../src/core/timeout.ts';
import type { SourceContext } from './sources/source.ts';

/** Whether the document selects an introspection field other than `__typename`. */
function hasIntrospection(doc: DocumentNode): boolean {
  let found = false;
  visit(doc, {
    Field(node) {
      if (node.name.value.startsWith('__') && node.name.value !== '__typename') found = true;
    },
  });
  return found;
}

/** Federation directives that make a subgraph resolve a field (or type) with another subgraph's help. */
const DELEGATING = new Set(['external', 'requires', 'provides', 'interfaceObject', 'fromContext']);

/** Whether a subgraph's schema resolves every field it defines by itself (no delegating directive anywhere). */
export function resolvesAllItsFields(schema: GraphQLSchema): boolean {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    const nodes = [type.astNode, ...(type.extensionASTNodes ?? [])];
    if (nodes.some((n) => n?.directives?.some((d) => DELEGATING.has(d.name.value)))) return false;
    for (const f of Object.values(type.getFields()))
      if (f.astNode?.directives?.some((d) => DELEGATING.has(d.name.value))) return false;
  }
  return true;
}

/** Direct execution against one subgraph, for any engine: whether it applies to a document, and the run itself. */
export interface DirectExecutor {
  /** Whether `doc` is a query this subgraph answers whole (decided once per parsed document). */
  applies(doc: DocumentNode): boolean;
  /**
   * The subgraph's answer, or null when the engine must run the operation itself: an answer with errors, a context
   * that failed, or a timeout (then recorded in `ctx.timedOut`, so the engine's fetch reports it at once).
   */
  run(
    doc: DocumentNode,
    variables: Readonly<Record<string, unknown>>,
    operationName: string | null,
    ctx: SourceContext,
  ): Promise<{ data: Record<string, unknown> } | null>;
}

export function directExecutor(
  subgraph: Subgraph<unknown>,
  opts: {
    timeoutMs: number;
    log: Pick<Logger, 'warn'>;
    /** Called for each request answered directly (statistics). */
    onAnswered?: () => void;
  },
): DirectExecutor {
  const verdicts = new WeakMap<DocumentNode, boolean>();
  return {
    applies(doc) {
      let ok = verdicts.get(doc);
      if (ok === undefined) {
        ok =
          doc.definitions.every((d) => d.kind !== Kind.OPERATION_DEFINITION || d.operation === 'query') &&
          !hasIntrospection(doc) &&
          validate(subgraph.schema, doc).length === 0;
        verdicts.set(doc, ok);
      }
      return ok;
    },
    async run(doc, variables, operationName, ctx) {
      // Context and execution share the subgraph timeout, as in the gateway's fetch (`InProcessSource`).
      const execution = async () =>
        execute({
          schema: subgraph.schema,
          document: doc,
          variableValues: variables,
          operationName,
          contextValue: await subgraphContext(subgraph, ctx),
        });
      let result: Awaited<ReturnType<typeof execution>>;
      try {
        result = await withTimeout(execution(), opts.timeoutMs);
      } catch (e) {
        if (e instanceof TimeoutError) {
          opts.log.warn('subgraph timed out', { subgraph: subgraph.name, timeoutMs: opts.timeoutMs });
          (ctx.timedOut ??= new Set()).add(subgraph.name);
        }
        return null; // a context that failed: the engine's fetch reports it, in its shape
      }
      if (result.errors?.length || !result.data) return null;
      opts.onAnswered?.();
      return { data: result.data as Record<string, unknown> };
    },
  };
}
