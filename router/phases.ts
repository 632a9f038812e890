/**
 * The router's plugin phases (`router/plugin.ts`), run in one place for every path an operation takes (plain HTTP in
 * `router/index.ts`, the runtime's hooks in `router/engines/operation-hooks.ts`, streams in `router/subscriptions/`):
 * the key and head phases before the body is read, the HTTP phase before anything is parsed, the admitted phase
 * before the operations run, the operation phase once the document is parsed and validated, the response phase on
 * each answer; and for what a caller did not execute itself, the join and event phases. A refusal is an `ApiError`,
 * thrown (the operation phase returns it rendered).
 */
import { getOperationAST, GraphQLError, Kind } from 'graphql';
import type { DocumentNode, FragmentDefinitionNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { ApiError } from '../src/core/errors.ts';
import { inSpan } from '../src/core/trace.ts';
import type { OnGone } from '../src/access/concurrency.ts';
import type {
  HeadInfo,
  HttpRequestInfo,
  OperationState,
  RequestState,
  ResponseParts,
  RouterPlugin,
  SharedCost,
  SubscriptionInfo,
} from './plugin.ts';

/** The key phase: who is calling (`state.caller`), from the head alone. */
export async function keyPhase(plugins: readonly RouterPlugin[], head: HeadInfo, state: RequestState) {
  for (const p of plugins) if (p.onKey) await p.onKey(head, state);
}

/** Before the body is read: the key phase, then what the head alone refuses. */
export async function headPhase(plugins: readonly RouterPlugin[], head: HeadInfo, state: RequestState) {
  await keyPhase(plugins, head, state);
  for (const p of plugins) if (p.onHead) await p.onHead(head, state);
}

/** Gives back every place in `releases`. */
const releaseAll = (releases: (() => void)[]) => () => {
  for (const r of releases) r();
};

/**
 * Once a request is admitted whole: the places its plugins hold while its operations run, and what gives them all
 * back; null when the client went away while it waited (what was taken is given back).
 */
export async function admittedPhase(
  plugins: readonly RouterPlugin[],
  state: RequestState,
  gone: OnGone | undefined,
): Promise<(() => void) | null> {
  const taken: (() => void)[] = [];
  try {
    for (const p of plugins) {
      if (!p.onAdmitted) continue;
      const place = await p.onAdmitted(state, gone);
      if (place === null) {
        releaseAll(taken)();
        return null;
      }
      if (place) taken.push(place);
    }
  } catch (e) {
    releaseAll(taken)();
    throw e;
  }
  return taken.length === 1 ? (taken[0] as () => void) : releaseAll(taken);
}

/** A subscription admitted by its operation phase: the places it holds, and what gives them back. */
export function subscribePhase(
  plugins: readonly RouterPlugin[],
  state: RequestState,
  sub: SubscriptionInfo,
): () => void {
  const taken: (() => void)[] = [];
  try {
    for (const p of plugins) {
      const place = p.onSubscribe?.(state, sub);
      if (place) taken.push(place);
    }
  } catch (e) {
    releaseAll(taken)();
    throw e;
  }
  return releaseAll(taken);
}

/** An answer of another request's execution, joined: what this caller pays for it (`cost.budget` once charged). */
export async function joinPhase(plugins: readonly RouterPlugin[], state: RequestState, cost: SharedCost) {
  for (const p of plugins) if (p.onJoin) await p.onJoin(state, cost);
}

/** A subscription's event, before it is delivered: what it costs its subscriber (`cost.budget` once charged). */
export async function eventPhase(plugins: readonly RouterPlugin[], state: RequestState, cost: SharedCost) {
  for (const p of plugins) if (p.onEvent) await p.onEvent(state, cost);
}

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
