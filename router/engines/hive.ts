/**
 * The router's engine on Hive Gateway's runtime (`@graphql-hive/gateway-runtime`, GraphQL Yoga underneath) with the
 * Rust query planner of `@graphql-hive/router-runtime` (`planner: 'js'` selects the runtime's JavaScript planner).
 * The subgraphs are reached through our own sources (`hive-sources.ts`), so timeouts, partial results and error codes
 * are the router's own; the plugins' operation phase runs in the runtime's `onExecute`, their response phase
 * in `onExecuteDone`.
 */
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';
import { execute as executeLocally, getOperationAST, GraphQLError, Kind } from 'graphql';
import type {
  DocumentNode,
  ExecutionArgs,
  ExecutionResult,
  FieldNode,
  GraphQLSchema,
  OperationDefinitionNode,
} from 'graphql';
import {
  directExecutors,
  responseCacheOf,
  noSubscriptions,
  operationPhase,
  PREFLIGHT_HEADERS,
  responsePhase,
} from '../engine.ts';
import type { Engine, EngineOptions, EngineRequest, Executed } from '../engine.ts';
import { ApiError } from '../../src/core/errors.ts';
import { fromApiError } from '../../subgraphs/shared/errors.ts';
import type { OperationState, RequestState } from '../plugin.ts';
import { responseCacheKey } from '../response-cache.ts';
import { coerceVariablesFirst, declaredVariables } from '../variables.ts';
import { scalarRules } from '../scalars.ts';
import { closeSources, createSources } from '../sources/create.ts';
import type { SourceContext } from '../sources/source.ts';
import {
  apqPlugin,
  bodyRefusal,
  csrfRefusal,
  nestingRefusal,
  normaliseRequestError,
  searchRefusal,
  VARIABLE_ERROR,
} from './hive-http.ts';
import { sourcesTransport } from './hive-sources.ts';
import { inSpan, startSpan, tracingEnabled } from '../../src/core/trace.ts';
import { nextTurn } from '../../src/core/turns.ts';
import { allRootSkipped, withRepeatedFieldsMerged } from './plannable.ts';
import { foldIncremental } from '../cost/incremental.ts';
import { peekOperation } from '../negotiation.ts';
import type { IncrementalPayload } from '../cost/incremental.ts';
import { costHeaders } from '../plugins/query-cost.ts';
import type { WithRouterSource } from './hive-sources.ts';

/** What the engine hands the runtime with each request (merged into the GraphQL context). */
interface RouterServerContext extends WithRouterSource {
  routerSource: SourceContext;
  router: {
    state: RequestState;
    opState: OperationState;
    headers: Record<string, string>;
    /** Ends the operation's expensive work (the load shedder's count) once it is answered. */
    endWork?: (() => void) | undefined;
    /** Ends a heavy operation's turn (`LoadShedder.heavyTurn`) once it is answered; set while it has one. */
    endTurn?: (() => void) | undefined;
    /** An answer for the response cache, kept once it is serialised (weighed by its length as sent). */
    toCache?: { key: string; data: Record<string, unknown> } | undefined;
    /** Delivered incrementally (`@defer`, `@stream` over `multipart/mixed` or SSE): see {@link incrementalAsked}. */
    incremental?: boolean;
  };
  /** A JSON POST's body as the router read it: the runtime takes it as is (`readBodyOnce`). */
  routerParams?: Record<string, unknown>;
}

/**
 * A request's body is read and parsed once, by the router's transport: for a JSON POST the runtime takes the parsed
 * object instead of reading and parsing the body again (its own parser would return the same object).
 */
const readBodyOnce = {
  onRequestParse({
    serverContext,
    setRequestParser,
  }: {
    serverContext: unknown;
    setRequestParser: (parser: () => Record<string, unknown>) => void;
  }) {
    const params = (serverContext as RouterServerContext).routerParams;
    if (params) setRequestParser(() => params);
  },
};

/**
 * Heavy work lets the event loop turn once between its execution and the serialisation of its answer (a chart of
 * thousands of points: a few ms each), two shorter tasks instead of one long one for the requests waiting behind.
 */
const turnBeforeSerialising = {
  onResultProcess({ serverContext }: { serverContext: unknown }): Promise<void> | undefined {
    if (!(serverContext as Partial<RouterServerContext>).router?.endTurn) return undefined;
    return nextTurn();
  },
};

/** A key for each parsed document (the runtime parses a query text once and reuses the document). */
const documentIds = new WeakMap<DocumentNode, string>();
let documents = 0;
function documentId(doc: DocumentNode): string {
  let id = documentIds.get(doc);
  if (id === undefined) {
    id = `d${++documents}`;
    documentIds.set(doc, id);
  }
  return id;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Directives of the supergraph that only the router reads. */
const ROUTER_DIRECTIVES = new Set(['cost', 'listSize']);

/**
 * The demand-control directives are the router's business, not the clients': introspection leaves their definitions
 * out (`__schema { directives }`), as `schema/api.graphql` does; the runtime would list them.
 */
function hideRouterDirectives(result: ExecutionResult): void {
  const schema = (result.data as { __schema?: { directives?: unknown } } | null | undefined)?.__schema;
  if (schema && Array.isArray(schema.directives))
    schema.directives = schema.directives.filter(
      (d: unknown) => !ROUTER_DIRECTIVES.has(String((d as { name?: unknown } | null)?.name)),
    );
}

/**
 * The runtime's Yoga disposes every runtime of the process on SIGINT/SIGTERM (`disposeOnProcessTerminate`, not an
 * option): the subgraph fetches of requests still in flight would fail while the process drains. The router is
 * disposed by its owner instead (`stop()`, after the HTTP server has drained), so those two listeners come off again.
 */
function keepThroughSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    for (const l of process.listeners(signal))
      if (l.name === 'terminateHandler') process.removeListener(signal, l);
}

/** Errors of a failed subgraph fetch (not of one field): without a path (the fetch failed, not a field). */
const FETCH_FAILURES = new Set(['SUBGRAPH_UNAVAILABLE', 'SUBGRAPH_TIMEOUT']);

/**
 * A query selecting `__schema`/`__type` beside subgraph fields at its root: the Rust planner answers the subgraph
 * fields `null` without an error (router-runtime 1.4). Such a query is run as two — the introspection fields against
 * the gateway's schema, the rest through the planner — and the two `data` merged in the query's order. Null when the
 * query is not such a mix (or selects at its root through fragments: left to the planner).
 */
function splitIntrospection(
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
function introspectionOnly(operation: OperationDefinitionNode): boolean {
  const root = operation.selectionSet.selections;
  return (
    root.every(
      (sel) => sel.kind === Kind.FIELD && ['__schema', '__type', '__typename'].includes(sel.name.value),
    ) && root.some((sel) => sel.kind === Kind.FIELD && sel.name.value !== '__typename')
  );
}

function mergeInOrder(order: string[], a: ExecutionResult, b: ExecutionResult): ExecutionResult {
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

type Execute = (a: ExecutionArgs) => Promise<ExecutionResult>;

/**
 * Whether a request is delivered incrementally: the router chose `multipart/mixed` or `text/event-stream` for it
 * (`router/negotiation.ts` offers them to operations with `@defer` or `@stream`) and its query text uses one of them.
 * Such a request runs on the runtime's JS planner, which delivers deferred fragments and streamed items as they come;
 * the Rust planner (router-runtime 1.4) accepts the directives but answers everything at once, which is what an
 * operation sent as JSON gets. A persisted query sent by its hash alone has no text here: answered at once too.
 */
function incrementalAsked(method: string, req: EngineRequest): boolean {
  const accept = (req.headers['accept'] ?? '').trimStart().toLowerCase();
  if (!accept.startsWith('multipart/mixed') && !accept.startsWith('text/event-stream')) return false;
  const sent: Record<string, unknown> =
    method === 'GET'
      ? Object.fromEntries(new URLSearchParams(req.search))
      : isObject(req.body)
        ? req.body
        : {};
  const { query, operationName } = sent;
  if (typeof query !== 'string') return false;
  return (
    peekOperation(query, typeof operationName === 'string' ? operationName : undefined)?.incremental === true
  );
}

/** A response body that calls `end` once, when it has been read to its end, fails or is cancelled (the client left). */
function endingWith(body: ReadableStream<Uint8Array>, end: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  const once = () => {
    if (!ended) end();
    ended = true;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          once();
          controller.close();
        } else controller.enqueue(value);
      } catch (e) {
        once();
        controller.error(e);
      }
    },
    async cancel(reason) {
      once();
      await reader.cancel(reason);
    },
  });
}

/** Headers of the runtime's answer that describe its framing: the HTTP server sets its own for a stream. */
const FRAMING_HEADERS = new Set(['connection', 'transfer-encoding', 'content-length', 'content-encoding']);

/**
 * The runtime's execution in a `router.execute` span, with a `router.plan` child from its start to the plan's first
 * subgraph fetch: the planner plans (or finds the document's plan in its cache), then the fetches start.
 */
function traced(run: Execute, source: SourceContext): Execute {
  return (a) =>
    inSpan('router.execute', {}, async () => {
      const plan = startSpan('router.plan', {});
      let open = plan !== null;
      const planned = () => {
        if (open) plan?.end();
        open = false;
      };
      source.fetchStarting = planned;
      try {
        return await run(a);
      } finally {
        planned();
      }
    });
}

export async function createHiveEngine(opts: EngineOptions): Promise<Engine> {
  const { log, timeoutMs, plugins, supergraphSdl } = opts;
  const sources = createSources(opts.subgraphs, timeoutMs, log, opts.dedupe !== false, opts.onSubgraphFetch);
  const cache = responseCacheOf(opts);
  let directAnswered = 0;
  const directs = directExecutors(opts, () => directAnswered++);

  /** The plugins' `onResponse`: extensions into the result, headers kept for the HTTP answer. */
  const respond = (rc: RouterServerContext['router'], result: ExecutionResult): ExecutionResult => {
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
  };

  /**
   * An incremental answer's payloads (`@defer`, `@stream`), passed on as they come; the last one carries the plugins'
   * extensions, measured on the whole answer (`router/cost/incremental.ts`): a deferred fragment's fields cost what
   * they would undeferred. An answer the client leaves before its end is measured on what was delivered.
   */
  const streamed = (rc: RouterServerContext['router']) => {
    let whole: unknown;
    let measured = false;
    const measure = () => {
      measured = true;
      return responsePhase(plugins, rc.state, rc.opState, whole ?? null);
    };
    return {
      onNext({ result, setResult }: { result: unknown; setResult: (r: ExecutionResult) => void }) {
        const payload = result as IncrementalPayload & ExecutionResult;
        whole = foldIncremental(whole, payload);
        if (payload.hasNext !== false || measured) return;
        const out = measure();
        if (Object.keys(out.extensions).length > 0)
          setResult({ ...payload, extensions: { ...payload.extensions, ...out.extensions } });
      },
      onEnd() {
        if (!measured) measure();
      },
    };
  };

  /** The schema the runtime serves: the supergraph's API schema with `@defer` and `@stream` (`deferStream`). */
  let served: GraphQLSchema | null = null;

  const operationHooks = {
    onSchemaChange({ schema }: { schema: GraphQLSchema }) {
      if (schema.getDirective('defer')) served = schema;
    },
    async onExecute({
      args,
      setResultAndStopExecution,
      executeFn,
      setExecuteFn,
    }: {
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
    }) {
      const rc = (args.contextValue as RouterServerContext).router;
      const stop = (e: GraphQLError) => setResultAndStopExecution(respond(rc, { errors: [e] }));
      const phase = await operationPhase(
        plugins,
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
      if ('refused' in phase) return stop(phase.refused);
      const { operation } = phase;
      // Embedded: the response cache, then direct execution (`router/response-cache.ts`, `direct-execution.ts`).
      const source = (args.contextValue as RouterServerContext).routerSource;
      // Undeclared variables dropped before the key is made and anything executes (`router/variables.ts`).
      const variables = (args.variableValues = declaredVariables(operation, args.variableValues ?? {}));
      // An incremental answer is neither cached nor answered directly: both would answer in one piece.
      const key =
        cache && operation.operation === 'query' && !rc.incremental
          ? responseCacheKey(documentId(args.document), args.operationName, variables)
          : null;
      // Heavy work waits for its turn, one heavy operation at a time on the process's event loop; an answer from the
      // response cache too (serialising thousands of chart points is most of the work).
      const turn = opts.shedder?.heavyTurn(rc.opState.cost?.estimated ?? 0);
      if (turn) rc.endTurn = await turn;
      const cached = cache?.lookup(key) ?? null;
      if (cached) return setResultAndStopExecution(respond(rc, { data: cached }));
      // From here on the operation is work: refused while the process is overloaded.
      const work = opts.shedder?.begin();
      if (work instanceof ApiError) {
        rc.state.refusal = work.code;
        return stop(fromApiError(work));
      }
      rc.endWork = work;
      // Its cost headers go out with its first payload, before it is measured (`streamed`).
      if (rc.incremental && rc.opState.cost) Object.assign(rc.headers, costHeaders(rc.opState.cost));
      const direct =
        operation.operation === 'query' && !rc.incremental
          ? directs.find((d) => d.applies(args.document))
          : undefined;
      if (direct) {
        const answer = await direct.run(args.document, variables, args.operationName ?? null, source);
        if (answer) {
          if (key !== null) rc.toCache = { key, data: answer.data };
          return setResultAndStopExecution(respond(rc, answer));
        }
      }
      if (allRootSkipped(operation, variables)) return setResultAndStopExecution(respond(rc, { data: {} }));
      // What the runtime plans: repeated response keys merged (`plannable.ts`), introspection apart.
      const planned = rc.incremental ? args.document : withRepeatedFieldsMerged(args.document, variables);
      const split = rc.incremental
        ? null
        : splitIntrospection(
            planned,
            planned === args.document
              ? operation
              : getOperationAST(planned, args.operationName ?? undefined)!,
          );
      let run: Execute | null = null;
      if (!rc.incremental && opts.planner !== 'js' && introspectionOnly(operation))
        run = async (a: ExecutionArgs) => executeLocally(a) as ExecutionResult;
      else if (split)
        run = async (a: ExecutionArgs) => {
          const [intro, rest] = await Promise.all([
            executeLocally({ ...a, document: split.introspection }) as ExecutionResult,
            executeFn({ ...a, document: split.rest }),
          ]);
          return mergeInOrder(split.order, intro, rest as ExecutionResult);
        };
      else if (planned !== args.document)
        run = (a: ExecutionArgs) => executeFn({ ...a, document: planned }) as Promise<ExecutionResult>;
      if (tracingEnabled()) run = traced(run ?? (executeFn as Execute), source);
      if (run) setExecuteFn(run);
      return {
        onExecuteDone({ result, setResult }: { result: unknown; setResult: (r: ExecutionResult) => void }) {
          if (!result || typeof result !== 'object') return;
          if (Symbol.asyncIterator in result) return streamed(rc);
          const r = result as ExecutionResult;
          if (key !== null && r.data && !r.errors?.length)
            rc.toCache = { key, data: r.data as Record<string, unknown> };
          // Execution started, so the answer has `data` (null when a non-null root field failed; the Rust
          // planner's executor leaves it out then) — unless the variables did not coerce (the JS planner's
          // graphql-js answers that without `data`: a request error, as with the Rust planner).
          const started = 'data' in r || !r.errors?.every((e) => !e.path && VARIABLE_ERROR.test(e.message));
          setResult(respond(rc, started ? { data: null, ...r } : r));
        },
      };
    },
  };

  /** A subscription over plain HTTP: refused as a client error (`noSubscriptions`); streams are served apart. */
  const refuseSubscriptions = {
    onSubscribe({ setResultAndStopExecution }: { setResultAndStopExecution: (r: ExecutionResult) => void }) {
      setResultAndStopExecution({ errors: [noSubscriptions()] });
    },
  };

  const apqCache = opts.apqCache === false ? null : (opts.apqCache ?? new InMemoryLRUCache<string>());
  /** A runtime over the supergraph with one of the planners; both share the plugins and the APQ cache. */
  const gatewayRuntime = (planner: 'rust' | 'js') =>
    createGatewayRuntime({
      supergraph: supergraphSdl,
      ...(planner === 'js' ? {} : { unifiedGraphHandler }),
      transports: { router: sourcesTransport(sources) },
      transportEntries: { '*': { kind: 'router' } },
      logging: false,
      landingPage: false,
      deferStream: true,
      graphiql: false,
      // CSRF prevention is the engine's own (`csrfRefusal`, before the runtime is called), with Apollo's rule.
      plugins: () => [
        readBodyOnce as never,
        scalarRules as never,
        coerceVariablesFirst as never,
        operationHooks as never,
        turnBeforeSerialising as never,
        refuseSubscriptions as never,
        ...(apqCache ? [apqPlugin(apqCache) as never] : []),
      ],
    });
  const runtime = gatewayRuntime(opts.planner === 'js' ? 'js' : 'rust');
  keepThroughSignals();
  /** The JS planner's runtime for incremental delivery (`incrementalAsked`), made on the first such request. */
  let incrementalRuntime: ReturnType<typeof gatewayRuntime> | null = opts.planner === 'js' ? runtime : null;
  const forIncremental = () => {
    if (!incrementalRuntime) {
      incrementalRuntime = gatewayRuntime('js');
      keepThroughSignals();
    }
    return incrementalRuntime;
  };

  async function execute(req: EngineRequest, state: RequestState): Promise<Executed> {
    const method = req.method.toUpperCase();
    let refused = csrfRefusal(method, req.headers, PREFLIGHT_HEADERS);
    if (!refused && method === 'GET') refused = searchRefusal(req.search);
    // A body nested past any type is refused first, as variables that do not coerce; then its shape.
    if (!refused && method === 'POST')
      refused = nestingRefusal(req.body, req.headers['accept']) ?? bodyRefusal(req.body);
    if (refused)
      return {
        status: refused.status,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ errors: [refused.error] }),
        cost: null,
      };
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, v);
    const incremental = incrementalAsked(method, req);
    const rc: RouterServerContext['router'] = { state, opState: { cost: null }, headers: {}, incremental };
    const serverContext: RouterServerContext = {
      routerSource: { headers: req.headers, subgraphContexts: new Map() },
      router: rc,
    };
    // A POST that passed `bodyRefusal` is one operation object, as the transport parsed it: the runtime takes it as
    // is (`readBodyOnce`), never written out and read again. The transport parses only JSON bodies into objects.
    if (method === 'POST') serverContext.routerParams = req.body as Record<string, unknown>;
    const end = () => {
      rc.endWork?.();
      rc.endTurn?.();
    };
    let res: Response;
    try {
      res = await (incremental ? forIncremental() : runtime).fetch(
        `http://router.local/graphql${req.search ? `?${req.search}` : ''}`,
        { method, headers },
        serverContext as never,
      );
    } catch (e) {
      end();
      throw e;
    }
    const outHeaders: Record<string, string> = {};
    // An incremental answer is passed on as it comes; its work ends with its last payload.
    const type = res.headers.get('content-type')?.toLowerCase() ?? '';
    if (
      incremental &&
      res.body &&
      (type.startsWith('multipart/mixed') || type.startsWith('text/event-stream'))
    ) {
      res.headers.forEach((v, k) => {
        if (!FRAMING_HEADERS.has(k.toLowerCase())) outHeaders[k.toLowerCase()] = v;
      });
      Object.assign(outHeaders, rc.headers);
      return {
        status: res.status,
        headers: outHeaders,
        body: '',
        stream: endingWith(res.body, end),
        cost: rc.opState.cost?.estimated ?? null,
      };
    }
    end();
    res.headers.forEach((v, k) => (outHeaders[k] = v));
    Object.assign(outHeaders, rc.headers);
    const sent = await res.text();
    if (cache && rc.toCache)
      void cache.store(rc.toCache.key, rc.toCache.data, serverContext.routerSource, sent.length);
    const answer = normaliseRequestError(res.status, sent, req);
    return {
      ...answer,
      headers: outHeaders,
      cost: rc.opState.cost?.estimated ?? null,
      actualCost: rc.opState.cost?.actual,
    };
  }

  return {
    execute,
    schema: async () => {
      const loaded = await runtime.getSchema();
      return served ?? loaded;
    },
    responseCacheStats: () => cache?.stats() ?? null,
    directExecutions: () => directAnswered,
    async stop() {
      await runtime.dispose();
      if (incrementalRuntime !== runtime) await incrementalRuntime?.dispose();
      closeSources(sources);
    },
  };
}
