/**
 * The router's engine on Hive Gateway's runtime (`@graphql-hive/gateway-runtime`, GraphQL Yoga underneath) with the
 * Rust query planner of `@graphql-hive/router-runtime` (`planner: 'js'` selects the runtime's JavaScript planner).
 * The subgraphs are reached through our own sources (`hive-sources.ts`), so timeouts, partial results and error codes
 * are the router's own; the plugins' operation phase runs in the runtime's `onExecute`, their response phase
 * in `onExecuteDone` (`operation-hooks.ts`). Here: the engine made of them, and one operation handed to the runtime
 * and its answer taken back.
 */
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { Logger } from '../../src/core/log.ts';
import { directExecutor, resolvesAllItsFields } from '../direct-execution.ts';
import type { DirectExecutor } from '../direct-execution.ts';
import type { RouterOptions } from '../options.ts';
import type { RequestState, RouterPlugin } from '../plugin.ts';
import type { Limits } from '../plugins/limits.ts';
import { createResponseCache } from '../response-cache.ts';
import type { ResponseCache, ResponseCacheStats } from '../response-cache.ts';
import { closeSources, createSources } from '../sources/create.ts';
import type { RouterContext, RouterServerContext } from './context.ts';
import {
  bodyRefusal,
  csrfRefusal,
  nestingRefusal,
  normaliseRequestError,
  PREFLIGHT_HEADERS,
  searchRefusal,
} from './hive-http.ts';
import type { Refusal } from './hive-http.ts';
import { incrementalAnswer, incrementalAsked } from './incremental-delivery.ts';
import { operationHooks } from './operation-hooks.ts';
import { gatewayRuntimes } from './runtime.ts';
import type { GatewayRuntimes } from './runtime.ts';

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
  /** The supergraph, parsed (`supergraphDocument`). */
  supergraph: DocumentNode;
}

/** The router's engine: what `router/index.ts` and the subscriptions run operations on. */
export interface Engine {
  execute(req: EngineRequest, state: RequestState): Promise<Executed>;
  /** The API schema operations are validated and costed against (the engine's, once it has loaded the supergraph). */
  schema(): Promise<GraphQLSchema>;
  responseCacheStats(): ResponseCacheStats | null;
  /** The parsed documents the runtime keeps (`document-cache.ts`). */
  parsedDocuments: GatewayRuntimes['parsedDocuments'];
  directExecutions(): number;
  stop(): Promise<void>;
}

/** Embedded mode with the response cache on (the default): the cache; else null. */
function responseCacheOf(opts: EngineOptions): ResponseCache | null {
  if (opts.subgraphs.kind !== 'in-process' || opts.responseCache === false) return null;
  return createResponseCache(
    opts.subgraphs.subgraphs,
    typeof opts.responseCache === 'object' ? opts.responseCache : {},
  );
}

/** Embedded mode with direct execution on: one executor per subgraph that resolves all its fields itself. */
function directExecutors(opts: EngineOptions, onAnswered: () => void): DirectExecutor[] {
  if (opts.subgraphs.kind !== 'in-process' || opts.directExecution === false) return [];
  return opts.subgraphs.subgraphs
    .filter((sg) => resolvesAllItsFields(sg.schema))
    .map((sg) => directExecutor(sg, { timeoutMs: opts.timeoutMs, log: opts.log, onAnswered }));
}

/** What {@link executeOn} needs of the engine. */
interface EngineParts {
  runtimes: GatewayRuntimes;
  /** The runtime of the configured planner (an incremental request runs on the JS planner's). */
  planner: 'rust' | 'js';
  cache: ResponseCache | null;
}

/**
 * A request the engine refuses before the runtime: a possible CSRF, a GET whose parameters are not JSON objects, a
 * POST body nested past any type (refused first, as variables that do not coerce) or not one operation object.
 */
function refusalOf(method: string, req: EngineRequest): Refusal | null {
  const csrf = csrfRefusal(method, req.headers, PREFLIGHT_HEADERS);
  if (csrf) return csrf;
  if (method === 'GET') return searchRefusal(req.search);
  if (method === 'POST') return nestingRefusal(req.body, req.headers['accept']) ?? bodyRefusal(req.body);
  return null;
}

/** One operation through the runtime: refused before it, else its answer, passed on as it comes when incremental. */
async function executeOn(parts: EngineParts, req: EngineRequest, state: RequestState): Promise<Executed> {
  const method = req.method.toUpperCase();
  const refused = refusalOf(method, req);
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
  const rc: RouterContext = { state, opState: { cost: null }, headers: {}, incremental };
  const serverContext: RouterServerContext = {
    routerSource: { headers: req.headers, subgraphContexts: new Map() },
    router: rc,
  };
  // A POST that passed `bodyRefusal` is one operation object, as the transport parsed it: the runtime takes it as is
  // (`readBodyOnce`), never written out and read again. The transport parses only JSON bodies into objects.
  if (method === 'POST') serverContext.routerParams = req.body as Record<string, unknown>;
  const end = () => {
    rc.endWork?.();
    rc.endTurn?.();
  };
  let res: Response;
  try {
    res = await parts.runtimes
      .of(incremental ? 'js' : parts.planner)
      .fetch(
        `http://router.local/graphql${req.search ? `?${req.search}` : ''}`,
        { method, headers },
        serverContext as never,
      );
  } catch (e) {
    end();
    throw e;
  }
  // An incremental answer is passed on as it comes; its work ends with its last payload.
  const streamed = incremental ? incrementalAnswer(res, rc, end) : null;
  if (streamed) return { ...streamed, body: '', cost: rc.opState.cost?.estimated ?? null };
  end();
  const outHeaders: Record<string, string> = {};
  res.headers.forEach((v, k) => (outHeaders[k] = v));
  Object.assign(outHeaders, rc.headers);
  const sent = await res.text();
  if (parts.cache && rc.toCache)
    void parts.cache.store(rc.toCache.key, rc.toCache.data, serverContext.routerSource, sent.length);
  const answer = normaliseRequestError(res.status, sent, req);
  return {
    ...answer,
    headers: outHeaders,
    cost: rc.opState.cost?.estimated ?? null,
    actualCost: rc.opState.cost?.actual,
  };
}

export async function createHiveEngine(opts: EngineOptions): Promise<Engine> {
  const { log, timeoutMs, plugins, supergraph } = opts;
  const sources = createSources(opts.subgraphs, timeoutMs, log, opts.dedupe !== false, opts.onSubgraphFetch);
  const cache = responseCacheOf(opts);
  let directAnswered = 0;
  const directs = directExecutors(opts, () => directAnswered++);
  /** The schema the runtime serves: the supergraph's API schema with `@defer` and `@stream` (`deferStream`). */
  let served: GraphQLSchema | null = null;
  const operation = operationHooks({
    plugins,
    cache,
    directs,
    shedder: opts.shedder,
    planner: opts.planner,
    onServedSchema: (schema) => (served = schema),
  });
  const runtimes = gatewayRuntimes({ supergraph, sources, operation, apqCache: opts.apqCache });
  const planner = opts.planner === 'js' ? 'js' : 'rust';
  const runtime = runtimes.of(planner);
  const parts: EngineParts = { runtimes, planner, cache };
  return {
    execute: (req, state) => executeOn(parts, req, state),
    schema: async () => {
      const loaded = await runtime.getSchema();
      return served ?? loaded;
    },
    responseCacheStats: () => cache?.stats() ?? null,
    parsedDocuments: runtimes.parsedDocuments,
    directExecutions: () => directAnswered,
    async stop() {
      await runtimes.dispose();
      closeSources(sources);
    },
  };
}
