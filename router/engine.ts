/**
 * What executes an operation once the router's HTTP phase has admitted it: the seam between the router's own rules
 * (`router/index.ts`: key, budget, batch, safelist, usage, in-flight deduplication) and the GraphQL engine that
 * parses, validates, plans and calls the subgraphs, running the plugins' operation phase on the way
 * (`router/engines/`).
 */
import { getOperationAST, GraphQLError, Kind } from 'graphql';
import type { DocumentNode, FragmentDefinitionNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { directExecutor, resolvesAllItsFields } from './direct-execution.ts';
import type { DirectExecutor } from './direct-execution.ts';
import type { RouterOptions } from './options.ts';
import type { Logger } from '../src/core/log.ts';
import type { OperationState, RequestState, ResponseParts, RouterPlugin } from './plugin.ts';
import { ApiError } from '../src/core/errors.ts';
import { fromApiError } from '../subgraphs/shared/errors.ts';
import { routerErrors } from './errors.ts';
import { inSpan } from '../src/core/trace.ts';
import type { Limits } from './plugins/limits.ts';
import { createResponseCache } from './response-cache.ts';
import type { ResponseCache, ResponseCacheStats } from './response-cache.ts';

/** One operation as handed to the engine: GraphQL over HTTP, the body already read. */
export interface EngineRequest {
  method: string;
  /** Lowercase header names. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The URL's query string without `?` (GET: the operation). */
  search: string;
  /** The JSON body (POST), or undefined. */
  body: unknown;
}

/** One operation's answer (shared by identical queries in flight: `router/inflight.ts`). */
export interface Executed {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The estimated cost, when the cost plugin made an estimate. */
  cost: number | null;
  /** The answer's measured cost, when the cost plugin measured it. */
  actualCost?: number | undefined;
  /**
   * An incremental answer (`@defer`, `@stream`: `multipart/mixed` or `text/event-stream`), sent as it comes instead
   * of `body`; its measured cost is in its last payload.
   */
  stream?: ReadableStream<Uint8Array> | undefined;
}

export interface EngineOptions extends RouterOptions {
  log: Logger;
  timeoutMs: number;
  limits: Limits;
  /** The plugins, in order; the engine runs their `onOperation` and `onResponse`. */
  plugins: readonly RouterPlugin[];
  supergraphSdl: string;
}

export interface Engine {
  execute(req: EngineRequest, state: RequestState): Promise<Executed>;
  /** The API schema operations are validated and costed against (the engine's, once it has loaded the supergraph). */
  schema(): Promise<GraphQLSchema>;
  responseCacheStats(): ResponseCacheStats | null;
  directExecutions(): number;
  stop(): Promise<void>;
}

/** Embedded mode with the response cache on (the default): the cache; else null. */
export function responseCacheOf(opts: EngineOptions): ResponseCache | null {
  if (opts.subgraphs.kind !== 'in-process' || opts.responseCache === false) return null;
  return createResponseCache(
    opts.subgraphs.subgraphs,
    typeof opts.responseCache === 'object' ? opts.responseCache : {},
  );
}

/** Embedded mode with direct execution on: one executor per subgraph that resolves all its fields itself. */
export function directExecutors(opts: EngineOptions, onAnswered: () => void): DirectExecutor[] {
  if (opts.subgraphs.kind !== 'in-process' || opts.directExecution === false) return [];
  return opts.subgraphs.subgraphs
    .filter((sg) => resolvesAllItsFields(sg.schema))
    .map((sg) => directExecutor(sg, { timeoutMs: opts.timeoutMs, log: opts.log, onAnswered }));
}

/** Browsers cannot send these headers without a CORS preflight, so a request carrying one is not a CSRF. */
export const PREFLIGHT_HEADERS: readonly string[] = [
  'x-apollo-operation-name',
  'apollo-require-preflight',
  'x-sp-api-key',
  'authorization',
];

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
 * A subscription sent as a plain GraphQL-over-HTTP request: refused as a client error (the planner would fail on one:
 * a 500); subscriptions are served as streams (`router/subscriptions/`).
 */
export const noSubscriptions = (): GraphQLError => fromApiError(routerErrors.subscriptionOverHttp());

/**
 * The plugins' operation phase: the operation chosen (else a client error), then each plugin's `onOperation` in
 * order (a subscription's too: `router/subscriptions/open.ts`). Returns the refusal to answer with, or the chosen operation to go on with; `httpError` renders a plugin's
 * `ApiError` in the engine's error form.
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
