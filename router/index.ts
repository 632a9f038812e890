/**
 * The router over the committed supergraph: our plugins (`router/plugins/`: API key, rate limit, persisted
 * operations, limits, query cost), in-flight deduplication and usage statistics in front of the engine that parses,
 * plans and executes: Hive Gateway's runtime with the Rust query planner (`router/engines/hive.ts`).
 *
 * `createRouter` gives a transport-free `handle(request) → response` (GraphQL over HTTP: GET and POST,
 * `application/graphql-response+json` or `application/json`, batches, CSRF prevention, automatic persisted queries);
 * `router/http.ts` mounts it on Fastify. Embedded mode executes the four subgraphs in this process; scale-out mode
 * calls them over HTTP. See docs/graph.md ("The router").
 */
import type { Caller } from '../src/access/access.ts';
import type { OperationOutcome, UsageSink } from '../src/access/usage.ts';
import type { AppPolicies } from '../src/accounts/app-policy.ts';
import { ApiError } from '../src/core/errors.ts';
import type { Executed } from './engines/hive.ts';
import { createHiveEngine } from './engines/hive.ts';
import {
  batchResponse,
  bodyText,
  deliveryRefusal,
  engineRequest,
  headContentType,
  readHead,
  readRequest,
  refusal,
  withBudget,
} from './http-phase.ts';
import type { Answered, RequestHead, RouterAnswer, RouterRequest, RouterResponse } from './http-phase.ts';
import { createInflight, inflightKey } from './inflight.ts';
import { DEFAULT_PLANNER } from './options.ts';
import type { RouterOptions } from './options.ts';
import { silentLogger } from '../src/core/log.ts';
import type { HttpRequestInfo, RawOperation, RequestState, SharedCost } from './plugin.ts';
import { admittedPhase, headPhase, httpPhase, joinPhase } from './phases.ts';
import { DEFAULT_LIMITS } from './plugins/limits.ts';
import type { Limits } from './plugins/limits.ts';
import { routerPlugins } from './plugins/order.ts';
import { refusedDocuments } from './plugins/trusted-documents.ts';
import { supergraphDocument } from './supergraph.ts';
import type { ResponseCacheStats } from './response-cache.ts';
import { createSubscriptions } from './subscriptions/index.ts';
import type { RouterSubscriptions } from './subscriptions/index.ts';

export type { RouterAnswer, RouterRequest, RouterResponse } from './http-phase.ts';
export type { RouterOptions, RouterPlanner } from './options.ts';
export type { RouterSubgraphs } from './sources/source.ts';

export { SUPERGRAPH_URL } from './supergraph.ts';

export interface Router {
  handle(req: RouterRequest): Promise<RouterResponse>;
  /** {@link handle}, for a transport that writes bytes: a long answer may come as bytes already. */
  respond(req: RouterRequest): Promise<RouterAnswer>;
  /**
   * The answer to a request that can be refused before its body is read: a key that cannot be used (400/401), or a
   * caller whose request budget this process has seen spent (429 until its window resets). Null: read the body and
   * {@link handle} it, with the caller and the head read here (`RouterRequest.caller`, `head`: neither is read
   * again). A flood of refused requests then costs no body reading or parsing.
   */
  refuseEarly(
    req: Omit<RouterRequest, 'body' | 'bodyError' | 'caller' | 'head'>,
  ): Promise<{ refused: RouterResponse } | { caller: Caller | null; head?: RequestHead }>;
  /** Ready once the gateway has loaded the supergraph. */
  health(): { status: 'UP' | 'DOWN' };
  /** Hits, misses and entries of the embedded response cache; null when it is off. */
  responseCacheStats(): ResponseCacheStats | null;
  /** The parsed documents the runtime keeps, within a bound of bytes (`router/engines/document-cache.ts`). */
  parsedDocuments(): { documents: number; bytes: number; replacedYoga: boolean };
  /** Operations answered by direct execution against one in-process subgraph (`router/direct-execution.ts`). */
  directExecutions(): number;
  /** Operations answered by joining an identical query in flight (`router/inflight.ts`). */
  dedupedOperations(): number;
  /** Live subscriptions (`router/subscriptions/`), served over SSE and WebSocket by `router/http.ts`. */
  subscriptions: RouterSubscriptions;
  /** The apps' per-key policies the router enforces (docs/apps.md); null without apps. */
  apps: AppPolicies | null;
  /** Where usage per operation is counted (the MCP tool calls, `router/mcp/`); null without statistics. */
  usage: Pick<UsageSink, 'operation'> | null;
  stop(): Promise<void>;
}

/**
 * The answer to a request whose client went away while it waited for its place: nobody reads it (nginx's 499,
 * "client closed request", in the transport's log); not counted in the statistics.
 */
const CLIENT_GONE: RouterResponse = { status: 499, headers: {}, body: '' };

/**
 * How an answered operation counts in usage per document: a refusal by the key's state, budget or policy (401, 403,
 * 429), an error (any other 4xx/5xx, or GraphQL errors beside the data), else ok. The body is parsed only when it
 * may hold errors.
 */
function outcomeOf(r: Answered): OperationOutcome {
  if (r.status === 401 || r.status === 403 || r.status === 429) return 'refused';
  if (r.status >= 400) return 'error';
  if (r.stream || !r.body.includes('"errors"')) return 'ok';
  try {
    return Array.isArray((JSON.parse(bodyText(r.body)) as { errors?: unknown }).errors) ? 'error' : 'ok';
  } catch {
    return 'error';
  }
}

/** The plan a request counts under in the statistics: the caller's, else the refused key's, else `keyless`. */
const usagePlan = (state: RequestState) => state.caller?.plan ?? state.refusedPlan ?? 'keyless';

export async function createRouter(opts: RouterOptions): Promise<Router> {
  const log = opts.log ?? silentLogger;
  const usage = opts.usage;
  const supergraph = supergraphDocument(opts.supergraphSdl);
  const limits: Limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const plugins = routerPlugins(opts, limits, supergraph);
  const engine = await createHiveEngine({
    ...opts,
    planner: opts.planner ?? DEFAULT_PLANNER,
    log,
    timeoutMs: opts.subgraphTimeoutMs ?? 5_000,
    limits,
    plugins,
    supergraph,
  });
  const subscriptions = createSubscriptions({
    ...opts,
    plugins,
    engine,
    timeoutMs: opts.subgraphTimeoutMs ?? 5_000,
    log,
  });
  let up = true;
  const inflight = opts.dedupe === false ? null : createInflight<Executed>({ defer: true });

  /** One admitted operation through the engine (joining an identical one in flight), counted in the statistics. */
  async function runOne(req: RouterRequest, info: HttpRequestInfo, op: RawOperation, state: RequestState) {
    const { method, headers } = info;
    const { search, body } = engineRequest(req, method, op);
    const key = inflight ? inflightKey(method, headers, op, body, usagePlan(state)) : null;
    const run = () => engine.execute({ method, headers, search, body }, state);
    const ran = inflight ? await inflight.run(key, run) : { result: await run(), shared: false };
    // A request that joined another's execution pays its own cost budget (the other's plugins charged the other).
    const result = ran.shared ? await chargeJoined(ran.result, state) : ran.result;
    usage?.request(usagePlan(state), result.status);
    if (usage && result.cost !== null) usage.cost(result.cost);
    const doc = state.documents?.get(op);
    const keyId = state.caller?.key?.id;
    if (usage && doc && keyId) usage.operation(keyId, doc, outcomeOf(result), result.actualCost ?? 0);
    return result;
  }

  /** A joined execution's answer, charged to this caller's cost budget (the join phase): refused over it. */
  async function chargeJoined(result: Executed, state: RequestState): Promise<Answered> {
    if (result.cost === null) return result;
    const cost: SharedCost = { estimated: result.cost, actual: result.actualCost ?? result.cost };
    try {
      await joinPhase(plugins, state, cost);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      state.refusal = e.code;
      return { ...refusal(e, {}, result.headers['content-type'] ?? 'application/json'), cost: null };
    }
    if (!cost.budget) return result;
    // A heavy answer is sent in a turn of the event loop of its own: the requests that joined one execution would
    // otherwise all write their copy of it at once.
    const turn = opts.shedder?.heavyTurn(result.cost);
    if (turn) setImmediate(await turn);
    return { ...result, body: withBudget(result, cost.budget) };
  }

  /** The HTTP phase (every plugin's `onHttpRequest`), then each operation, holding one of the caller's places. */
  async function handleRequest(req: RouterRequest, state: RequestState): Promise<RouterAnswer> {
    const { contentType, acceptable, ...info } = readRequest(req);
    let release: (() => void) | null = null;
    try {
      await httpPhase(plugins, info, state);
      if (req.bodyError) throw new ApiError(req.bodyError.status, req.bodyError.code, req.bodyError.message);
      const undeliverable = deliveryRefusal(info, acceptable);
      if (undeliverable) throw undeliverable;
      release = await admittedPhase(plugins, state, req.gone);
      if (release === null) return CLIENT_GONE;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      state.refusal = e.code;
      usage?.request(usagePlan(state), e.status);
      const keyId = state.caller?.key?.id ?? state.refusedKeyId;
      if (usage && keyId && opts.apps)
        for (const doc of await refusedDocuments(opts.apps, keyId, info.operations))
          usage.operation(keyId, doc, 'refused', 0);
      return refusal(e, state.headers, contentType);
    }
    try {
      return await runOperations(req, info, state, contentType);
    } finally {
      release?.();
    }
  }

  async function runOperations(
    req: RouterRequest,
    info: HttpRequestInfo,
    state: RequestState,
    contentType: string,
  ): Promise<RouterAnswer> {
    if (!info.batched) {
      const r = await runOne(req, info, info.operations[0] ?? {}, state);
      return {
        status: r.status,
        headers: { ...state.headers, ...r.headers },
        body: r.body,
        ...(r.stream ? { stream: r.stream } : {}),
      };
    }
    const results = await Promise.all(info.operations.map((op) => runOne(req, info, op, state)));
    return batchResponse(results, state.headers, contentType);
  }

  /** A request's answer, with what its transport notes: the key's id and the refusal's code. */
  async function respond(req: RouterRequest): Promise<RouterAnswer> {
    const state: RequestState = { caller: null, headers: {} };
    const noted = (res: RouterAnswer): RouterAnswer => {
      const keyId = state.caller?.key?.id ?? state.refusedKeyId;
      const refusal = state.refusal;
      if (keyId === undefined && refusal === undefined) return res;
      return { ...res, notes: { ...(keyId ? { keyId } : {}), ...(refusal ? { refusal } : {}) } };
    };
    if (!usage) return noted(await handleRequest(req, state));
    try {
      return noted(await handleRequest(req, state));
    } catch (e) {
      // The transport answers 500 (`router/http.ts`); operations already answered were counted by `runOne`.
      usage.request(usagePlan(state), 500);
      throw e;
    }
  }

  return {
    async refuseEarly(req) {
      if (!opts.access) return { caller: null };
      const head = readHead(req);
      const state: RequestState = { caller: null, headers: {} };
      try {
        await headPhase(plugins, head, state);
        return { caller: state.caller, head };
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        usage?.request(usagePlan(state), e.status);
        const keyId = state.caller?.key?.id ?? state.refusedKeyId;
        return {
          refused: {
            ...refusal(e, {}, headContentType(head)),
            notes: { refusal: e.code, ...(keyId ? { keyId } : {}) },
          },
        };
      }
    },
    health: () => ({ status: up ? 'UP' : 'DOWN' }),
    responseCacheStats: () => engine.responseCacheStats(),
    parsedDocuments: () => engine.parsedDocuments(),
    directExecutions: () => engine.directExecutions(),
    dedupedOperations: () => inflight?.shared() ?? 0,
    subscriptions,
    apps: opts.apps ?? null,
    usage: usage ?? null,
    async stop() {
      up = false;
      subscriptions.stop();
      await engine.stop();
    },
    async handle(req) {
      const res = await respond(req);
      return typeof res.body === 'string' ? (res as RouterResponse) : { ...res, body: bodyText(res.body) };
    },
    respond,
  };
}
