/**
 * The router's plugin phases (`router/plugin.ts`), run in one place for every path an operation takes (plain HTTP in
 * `router/index.ts`, the runtime's hooks in `router/engines/operation-hooks.ts`, streams in
 * `router/subscriptions/open.ts`): the HTTP phase before anything is parsed, the operation phase once the document
 * is parsed and validated, the response phase on each answer.
 */
import { getOperationAST, GraphQLError, Kind } from 'graphql';
import type { DocumentNode, FragmentDefinitionNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { ApiError } from '../src/core/errors.ts';
import { inSpan } from '../src/core/trace.ts';
import type { HttpRequestInfo, OperationState, RequestState, ResponseParts, RouterPlugin } from './plugin.ts';

/** The plugins' HTTP phase: each plugin's `onHttpRequest` in order, in a span of its name; a refusal is thrown. */
export async function httpPhase(
  plugins: readonly RouterPlugin[],
  info: HttpRequestInfo,
  state: RequestState,
): Promise<void> {
  for (const p of plugins)
    if (p.onHttpRequest) await inSpan(`router.${p.name}`, {}, async () => p.onHttpRequest?.(info, state));
}

/** The operation to run could not be chosen from the document (graphql-js's messages). */
export function operationNotResolved(
  document: DocumentNode,
  operationName: string | null | undefined,
): GraphQLError {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length;
  const message =
    operationName !== undefined && operationName !== null
      ? `Unknown operation named "${operationName.slice(0, 100)}".`
      : operations > 1
        ? 'Must provide operation name if query contains multiple operations.'
        : 'Must provide an operation.';
  return new GraphQLError(message, {
    extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400 } },
  });
}

/**
 * The plugins' operation phase: the operation chosen (else a client error), then each plugin's `onOperation` in
 * order (a subscription's too). Returns the refusal to answer with, or the chosen operation to go on with; `httpError`
 * renders a plugin's `ApiError` in the engine's error form.
 */
export async function operationPhase(
  plugins: readonly RouterPlugin[],
  op: {
    schema: GraphQLSchema;
    document: DocumentNode;
    operationName: string | null | undefined;
    variables: Readonly<Record<string, unknown>>;
  },
  state: RequestState,
  opState: OperationState,
  httpError: (e: ApiError) => GraphQLError,
): Promise<{ refused: GraphQLError } | { operation: OperationDefinitionNode }> {
  const operation = getOperationAST(op.document, op.operationName ?? undefined);
  if (!operation) return { refused: operationNotResolved(op.document, op.operationName) };
  const info = {
    schema: op.schema,
    document: op.document,
    operation,
    fragments: op.document.definitions.filter(
      (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION,
    ),
    variables: op.variables,
  };
  for (const p of plugins) {
    if (!p.onOperation) continue;
    try {
      await inSpan(`router.${p.name}`, {}, async () => p.onOperation?.(info, state, opState));
    } catch (e) {
      if (e instanceof ApiError) {
        state.refusal = e.code;
        return { refused: httpError(e) };
      }
      throw e;
    }
  }
  return { operation };
}

/** The plugins' response phase: the extensions and headers each operation's answer (with `data`) carries. */
export function responsePhase(
  plugins: readonly RouterPlugin[],
  state: RequestState,
  opState: OperationState,
  data: unknown,
): ResponseParts {
  const out: ResponseParts = { extensions: {}, headers: {} };
  for (const p of plugins) p.onResponse?.(state, opState, out, data);
  return out;
}
