/**
 * The router's operation on Hive Gateway's runtime, as one runtime plugin: in `onExecute` the plugins' operation
 * phase (`router/phases.ts`: limits, safelist, cost), then what may answer without the planner (the response cache,
 * a refusal while overloaded, direct execution, a root entirely skipped), then what the planner is given
 * (`planning.ts`); in `onExecuteDone` the plugins' response phase (`respond`, or `streamedPhase` for an incremental
 * answer). And the heavy operation's turn, which `answerBeforePlanning` takes, once more before its answer is
 * serialised (`turnBeforeSerialising`).
 */
import { GraphQLError } from 'graphql';
import type {
  DocumentNode,
  ExecutionArgs,
  ExecutionResult,
  GraphQLSchema,
  OperationDefinitionNode,
} from 'graphql';
import type { LoadShedder } from '../../src/access/overload.ts';
import { ApiError } from '../../src/core/errors.ts';
import { nextTurn } from '../../src/core/turns.ts';
import { fromApiError } from '../../subgraphs/shared/errors.ts';
import type { DirectExecutor } from '../direct-execution.ts';
import { operationPhase, responsePhase } from '../phases.ts';
import type { RouterPlanner } from '../options.ts';
import type { RouterPlugin } from '../plugin.ts';
import { costHeaders } from '../plugins/query-cost.ts';
import { documentId, responseCacheKey } from '../response-cache.ts';
import type { ResponseCache } from '../response-cache.ts';
import { declaredVariables } from '../variables.ts';
import type { RouterContext, RouterServerContext } from './context.ts';
import { VARIABLE_ERROR } from './hive-http.ts';
import { streamedPhase } from './incremental-delivery.ts';
import { hideRouterDirectives } from './introspection.ts';
import { allRootSkipped } from './plannable.ts';
import { plannedRun } from './planning.ts';

export interface OperationHooksOptions {
  /** The router's plugins, in order: their operation and response phases. */
  plugins: readonly RouterPlugin[];
  cache: ResponseCache | null;
  directs: readonly DirectExecutor[];
  shedder?: Pick<LoadShedder, 'begin' | 'heavyTurn'> | undefined;
  planner: RouterPlanner | undefined;
  /** Told the schema the runtime serves, each time it loads one (the API schema with `@defer` and `@stream`). */
  onServedSchema(schema: GraphQLSchema): void;
}

/** The runtime's `onExecute` hook, as far as the router uses it. */
interface ExecuteHook {
  executeFn: (a: ExecutionArgs) => unknown;
  setExecuteFn: (fn: (a: ExecutionArgs) => Promise<ExecutionResult>) => void;
  args: {
    schema: GraphQLSchema;
    document: DocumentNode;
    operationName?: string | null | undefined;
    variableValues?: Record<string, unknown> | null | undefined;
    contextValue: unknown;
  };
  setResultAndStopExecution: (r: ExecutionResult) => void;
}

type ResultHook = { result: unknown; setResult: (r: ExecutionResult) => void };

/** Errors of a failed subgraph fetch (not of one field): without a path (the fetch failed, not a field). */
const FETCH_FAILURES = new Set(['SUBGRAPH_UNAVAILABLE', 'SUBGRAPH_TIMEOUT']);

/** The plugins' `onResponse`: extensions into the result, headers kept for the HTTP answer. */
function respond(
  plugins: readonly RouterPlugin[],
  rc: RouterContext,
  result: ExecutionResult,
): ExecutionResult {
  const out = responsePhase(plugins, rc.state, rc.opState, result.data);
  Object.assign(rc.headers, out.headers);
  hideRouterDirectives(result);
  const errors = result.errors?.map((e) =>
    e.path && FETCH_FAILURES.has(String(e.extensions['code']))
      ? new GraphQLError(e.message, { extensions: e.extensions })
      : e,
  );
  return {
    ...result,
    ...(errors ? { errors } : {}),
    ...(Object.keys(out.extensions).length > 0
      ? { extensions: { ...result.extensions, ...out.extensions } }
      : {}),
  };
}

/**
 * What answers an admitted operation before the planner, in order: the response cache (after the heavy operation's
 * turn: serialising thousands of chart points is most of the work), a refusal while the process is overloaded,
 * direct execution, a root whose every field is skipped. Null: the planner runs it. An incremental answer is neither
 * cached nor answered directly: both would answer in one piece.
 */
async function answerBeforePlanning(
  o: OperationHooksOptions,
  hook: ExecuteHook,
  rc: RouterContext,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  key: string | null,
): Promise<ExecutionResult | null> {
  const turn = o.shedder?.heavyTurn(rc.opState.cost?.estimated ?? 0);
  if (turn) rc.endTurn = await turn;
  const cached = o.cache?.lookup(key) ?? null;
  if (cached) return { data: cached };
  // From here on the operation is work: refused while the process is overloaded.
  const work = o.shedder?.begin();
  if (work instanceof ApiError) {
    rc.state.refusal = work.code;
    return { errors: [fromApiError(work)] };
  }
  rc.endWork = work;
  // Its cost headers go out with its first payload, before it is measured (`streamedPhase`).
  if (rc.incremental && rc.opState.cost) Object.assign(rc.headers, costHeaders(rc.opState.cost));
  const { document, operationName, contextValue } = hook.args;
  const direct =
    operation.operation === 'query' && !rc.incremental
      ? o.directs.find((d) => d.applies(document))
      : undefined;
  if (direct) {
    const source = (contextValue as RouterServerContext).routerSource;
    const answer = await direct.run(document, variables, operationName ?? null, source);
    if (answer) {
      if (key !== null) rc.toCache = { key, data: answer.data };
      return answer;
    }
  }
  if (allRootSkipped(operation, variables)) return { data: {} };
  return null;
}

/** The plugins' response phase on the runtime's answer, kept for the response cache when it may be. */
function executeDone(plugins: readonly RouterPlugin[], rc: RouterContext, key: string | null) {
  return ({ result, setResult }: ResultHook) => {
    if (!result || typeof result !== 'object') return;
    if (Symbol.asyncIterator in result) return streamedPhase(plugins, rc);
    const r = result as ExecutionResult;
    if (key !== null && r.data && !r.errors?.length)
      rc.toCache = { key, data: r.data as Record<string, unknown> };
    // Execution started, so the answer has `data` (null when a non-null root field failed; the Rust
    // planner's executor leaves it out then) — unless the variables did not coerce (the JS planner's
    // graphql-js answers that without `data`: a request error, as with the Rust planner).
    const started = 'data' in r || !r.errors?.every((e) => !e.path && VARIABLE_ERROR.test(e.message));
    setResult(respond(plugins, rc, started ? { data: null, ...r } : r));
    return undefined;
  };
}

export function operationHooks(o: OperationHooksOptions) {
  return {
    onSchemaChange({ schema }: { schema: GraphQLSchema }) {
      if (schema.getDirective('defer')) o.onServedSchema(schema);
    },
    async onExecute(hook: ExecuteHook) {
      const { args, setResultAndStopExecution } = hook;
      const server = args.contextValue as RouterServerContext;
      const rc = server.router;
      const answer = (r: ExecutionResult) => setResultAndStopExecution(respond(o.plugins, rc, r));
      const phase = await operationPhase(
        o.plugins,
        {
          schema: args.schema,
          document: args.document,
          operationName: args.operationName,
          variables: args.variableValues ?? {},
        },
        rc.state,
        rc.opState,
        fromApiError,
      );
      if ('refused' in phase) return answer({ errors: [phase.refused] });
      const { operation } = phase;
      // Undeclared variables dropped before the key is made and anything executes (`router/variables.ts`).
      const variables = (args.variableValues = declaredVariables(operation, args.variableValues ?? {}));
      const key =
        o.cache && operation.operation === 'query' && !rc.incremental
          ? responseCacheKey(documentId(args.document), args.operationName, variables)
          : null;
      const early = await answerBeforePlanning(o, hook, rc, operation, variables, key);
      if (early) return answer(early);
      const run = plannedRun(
        {
          document: args.document,
          operation,
          operationName: args.operationName,
          variables,
          incremental: rc.incremental === true,
          source: server.routerSource,
        },
        o.planner,
        hook.executeFn,
      );
      if (run) hook.setExecuteFn(run);
      return { onExecuteDone: executeDone(o.plugins, rc, key) };
    },
  };
}

/**
 * Heavy work lets the event loop turn once between its execution and the serialisation of its answer (a chart of
 * thousands of points: a few ms each), two shorter tasks instead of one long one for the requests waiting behind.
 */
export const turnBeforeSerialising = {
  onResultProcess({ serverContext }: { serverContext: unknown }): Promise<void> | undefined {
    if (!(serverContext as Partial<RouterServerContext>).router?.endTurn) return undefined;
    return nextTurn();
  },
};
