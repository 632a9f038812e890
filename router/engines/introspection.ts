/**
 * Introspection as the router serves it: the demand-control directives left out, and the queries the Rust planner
 * would answer wrongly (introspection beside subgraph fields, or introspection alone: router-runtime 1.4) told apart,
 * for `planning.ts` to run them against the gateway's own schema.
 */
import { Kind } from 'graphql';
import type { DocumentNode, ExecutionResult, FieldNode, OperationDefinitionNode } from 'graphql';

/** Directives of the supergraph that only the router reads. */
const ROUTER_DIRECTIVES = new Set(['cost', 'listSize']);

/**
 * The demand-control directives are the router's business, not the clients': introspection leaves their definitions
 * out (`__schema { directives }`), as `schema/api.graphql` does; the runtime would list them.
 */
export function hideRouterDirectives(result: ExecutionResult): void {
  const schema = (result.data as { __schema?: { directives?: unknown } } | null | undefined)?.__schema;
  if (schema && Array.isArray(schema.directives))
    schema.directives = schema.directives.filter(
      (d: unknown) => !ROUTER_DIRECTIVES.has(String((d as { name?: unknown } | null)?.name)),
    );
}

/**
 * A query selecting `__schema`/`__type` beside subgraph fields at its root: the Rust planner answers the subgraph
 * fields `null` without an error (router-runtime 1.4). Such a query is run as two — the introspection fields against
 * the gateway's schema, the rest through the planner — and the two `data` merged in the query's order. Null when the
 * query is not such a mix (or selects at its root through fragments: left to the planner).
 */
export function splitIntrospection(
  document: DocumentNode,
  operation: OperationDefinitionNode,
): { introspection: DocumentNode; rest: DocumentNode; order: string[] } | null {
  const root = operation.selectionSet.selections;
  if (root.some((sel) => sel.kind !== Kind.FIELD)) return null;
  const fields = root as readonly FieldNode[];
  const isIntro = (f: FieldNode) => f.name.value === '__schema' || f.name.value === '__type';
  if (!fields.some(isIntro) || fields.every((f) => isIntro(f) || f.name.value === '__typename')) return null;
  const only = (keep: (f: FieldNode) => boolean): DocumentNode => ({
    ...document,
    definitions: document.definitions.map((d) =>
      d === operation
        ? { ...operation, selectionSet: { ...operation.selectionSet, selections: fields.filter(keep) } }
        : d,
    ),
  });
  return {
    introspection: only(isIntro),
    rest: only((f) => !isIntro(f)),
    order: fields.map((f) => f.alias?.value ?? f.name.value),
  };
}

/**
 * A query selecting only `__schema`, `__type` and `__typename` at its root. The Rust planner answers introspection
 * from its own schema, without the `@defer` and `@stream` directives the runtime serves (`schema/api.graphql` lists
 * them): such a query is run against the gateway's schema instead, as the introspection half of a mixed one is.
 */
export function introspectionOnly(operation: OperationDefinitionNode): boolean {
  const root = operation.selectionSet.selections;
  return (
    root.every(
      (sel) => sel.kind === Kind.FIELD && ['__schema', '__type', '__typename'].includes(sel.name.value),
    ) && root.some((sel) => sel.kind === Kind.FIELD && sel.name.value !== '__typename')
  );
}

/** The two halves of a split query, their `data` merged in the query's order of response keys. */
export function mergeInOrder(order: string[], a: ExecutionResult, b: ExecutionResult): ExecutionResult {
  const errors = [...(a.errors ?? []), ...(b.errors ?? [])];
  let data: Record<string, unknown> | null = null;
  if (a.data && b.data) {
    data = {};
    for (const k of order) if (!(k in data)) data[k] = k in a.data ? a.data[k] : b.data[k];
  }
  return {
    ...(errors.length ? { errors } : {}),
    data,
    ...(b.extensions ? { extensions: b.extensions } : {}),
  };
}
