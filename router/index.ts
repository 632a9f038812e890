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
import { readFileSync } from 'node:fs';
import type { GraphQLFormattedError } from 'graphql';
import { readCostDirectives } from './cost/directives.ts';
import { ApiError } from '../src/core/errors.ts';
import type { RawOperation, RequestState, RouterPlugin } from './plugin.ts';
import { apiKeyPlugin } from './plugins/api-key.ts';
import { DEFAULT_LIMITS, limitsPlugin } from './plugins/limits.ts';
import type { Limits } from './plugins/limits.ts';
import { loadManifest, persistedOperationsPlugin } from './plugins/persisted-operations.ts';
import { DEFAULT_COST_LIMITS, queryCostPlugin } from './plugins/query-cost.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import type { Executed } from './engine.ts';
import { createHiveEngine } from './engines/hive.ts';
import { createInflight, inflightKey } from './inflight.ts';
import type { ResponseCacheStats } from './response-cache.ts';
import { DEFAULT_PLANNER } from './options.ts';
import type { RouterLog, RouterOptions } from './options.ts';

export type { RouterLog, RouterOptions, RouterPlanner } from './options.ts';
export type { RouterSubgraphs } from './sources.ts';

/** The committed supergraph (`npm run compose`). */
export const SUPERGRAPH_URL = new URL('../schema/supergraph.graphql', import.meta.url);

export interface RouterRequest {
  method: string;
  /** Lowercase header names. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The URL's query string without `?`. */
  search: string;
  /** The parsed JSON body (POST), or undefined. */
  body: unknown;
  /**
   * Set when the transport could not read the body (not JSON, too large): the router answers this error after the
   * API key and rate limit (as REST checks the key before reading the body), in the GraphQL error shape.
   */
  bodyError?: { status: 400 | 413; code: string; message: string } | undefined;
  socketIp: string;
}

export interface RouterResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Router {
  handle(req: RouterRequest): Promise<RouterResponse>;
  /** Ready once the gateway has loaded the supergraph. */
  health(): { status: 'UP' | 'DOWN' };
  /** Hits, misses and entries of the embedded response cache; null when it is off. */
  responseCacheStats(): ResponseCacheStats | null;
  /** Operations answered by direct execution against one in-process subgraph (`router/direct-execution.ts`). */
  directExecutions(): number;
  /** Operations answered by joining an identical query in flight (`router/inflight.ts`). */
  dedupedOperations(): number;
  stop(): Promise<void>;
}

const silent: RouterLog = { info() {}, warn() {}, error() {} };

const GRAPHQL_RESPONSE = 'application/graphql-response+json; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** The media type a client asked for: graphql-response+json when accepted, else JSON. */
function responseType(accept: string | undefined): string {
  return accept?.includes('application/graphql-response+json') ? GRAPHQL_RESPONSE : JSON_TYPE;
}

function flatHeaders(h: RouterRequest['headers']): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function jsonParam(v: string | null): Record<string, unknown> | undefined {
  if (v === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(v);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function rawOperation(v: unknown): RawOperation {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  const o = v as Record<string, unknown>;
  const obj = (x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;
  return {
    query: typeof o['query'] === 'string' ? o['query'] : undefined,
    operationName: typeof o['operationName'] === 'string' ? o['operationName'] : undefined,
    variables: obj(o['variables']),
    extensions: obj(o['extensions']),
    documentId: typeof o['documentId'] === 'string' ? o['documentId'] : undefined,
  };
}

function errorBody(e: ApiError): string {
  const err: GraphQLFormattedError = { message: e.message, extensions: { code: e.code, ...e.extensions } };
  return JSON.stringify({ errors: [err] });
}

/** The plan a request counts under in the statistics: the caller's, else the refused key's, else `keyless`. */
const usagePlan = (state: RequestState) => state.caller?.plan ?? state.refusedPlan ?? 'keyless';

export async function createRouter(opts: RouterOptions): Promise<Router> {
  const log = opts.log ?? silent;
  const usage = opts.usage;
  const supergraphSdl = opts.supergraphSdl ?? readFileSync(SUPERGRAPH_URL, 'utf8');
  const timeoutMs = opts.subgraphTimeoutMs ?? 5_000;
  const limits: Limits = { ...DEFAULT_LIMITS, ...opts.limits };

  // Order matters: the key, then the budget, then the shape of the request (batch size, tokens), then the safelist.
  const plugins: RouterPlugin[] = [];
  if (opts.access)
    plugins.push(apiKeyPlugin(opts.access), rateLimitPlugin(opts.access, { maxBatch: limits.maxBatch }));
  plugins.push(limitsPlugin(limits));
  if (opts.persisted) {
    const manifest =
      typeof opts.persisted.manifest === 'string'
        ? loadManifest(opts.persisted.manifest)
        : opts.persisted.manifest;
    plugins.push(persistedOperationsPlugin(manifest, opts.persisted.mode));
  }
  plugins.push(
    queryCostPlugin({
      directives: readCostDirectives(supergraphSdl),
      limits: { ...DEFAULT_COST_LIMITS, ...opts.costLimits },
      defaultListSize: opts.defaultListSize ?? 10,
      introspectionCost: opts.introspectionCost ?? 50,
    }),
  );

  const engine = await createHiveEngine({
    ...opts,
    planner: opts.planner ?? DEFAULT_PLANNER,
    log,
    timeoutMs,
    limits,
    plugins,
    supergraphSdl,
  });
  let up = true;
  const inflight = opts.dedupe === false ? null : createInflight<Executed>({ defer: true });

  async function runOne(
    req: RouterRequest,
    headers: Record<string, string | undefined>,
    op: RawOperation,
    state: RequestState,
  ): Promise<Executed> {
    let search = req.search;
    let body: unknown = undefined;
    const method = req.method.toUpperCase();
    if (method === 'GET') {
      const p = new URLSearchParams(req.search);
      if (op.query !== undefined) p.set('query', op.query);
      p.delete('documentId');
      if (op.extensions) p.set('extensions', JSON.stringify(op.extensions));
      else p.delete('extensions');
      search = p.toString();
    } else {
      body = {
        ...(op.query !== undefined ? { query: op.query } : {}),
        ...(op.operationName !== undefined ? { operationName: op.operationName } : {}),
        ...(op.variables !== undefined ? { variables: op.variables } : {}),
        ...(op.extensions !== undefined ? { extensions: op.extensions } : {}),
      };
      if (req.body && typeof req.body === 'object' && !Array.isArray(req.body)) {
        // Keep what the client sent (so the engine reports malformed fields itself), with plugin rewrites.
        const orig = { ...(req.body as Record<string, unknown>) };
        delete orig['documentId'];
        body = { ...orig, ...(body as object) };
        if (op.extensions === undefined) delete (body as Record<string, unknown>)['extensions'];
      } else if (!Array.isArray(req.body)) body = req.body;
    }
    const key = inflight ? inflightKey(method, headers, op, body, usagePlan(state)) : null;
    const run = () => engine.execute({ method, headers, search, body }, state);
    const { result } = inflight ? await inflight.run(key, run) : { result: await run() };
    if (usage) {
      usage.request(usagePlan(state), result.status);
      if (result.cost !== null) usage.cost(result.cost);
    }
    return result;
  }

  return {
    health: () => ({ status: up ? 'UP' : 'DOWN' }),
    responseCacheStats: () => engine.responseCacheStats(),
    directExecutions: () => engine.directExecutions(),
    dedupedOperations: () => inflight?.shared() ?? 0,
    async stop() {
      up = false;
      await engine.stop();
    },
    async handle(req) {
      const state: RequestState = { caller: null, headers: {} };
      if (!usage) return handleRequest(req, state);
      try {
        return await handleRequest(req, state);
      } catch (e) {
        // The transport answers 500 (`router/http.ts`); operations already answered were counted by `runOne`.
        usage.request(usagePlan(state), 500);
        throw e;
      }
    },
  };

  async function handleRequest(req: RouterRequest, state: RequestState): Promise<RouterResponse> {
    const headers = flatHeaders(req.headers);
    const params = new URLSearchParams(req.search);
    // Every value of a repeated parameter (two `x_sp_api_key` values are a conflict, as in REST).
    const query: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
    for (const [k, v] of params) {
      const prev = query[k];
      query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    const method = req.method.toUpperCase();
    const bodyError = req.bodyError;
    const batched = !bodyError && method === 'POST' && Array.isArray(req.body);
    let operations: RawOperation[];
    if (bodyError) operations = [];
    else if (method === 'GET') {
      operations = [
        {
          query: params.get('query') ?? undefined,
          operationName: params.get('operationName') ?? undefined,
          extensions: jsonParam(params.get('extensions')),
          documentId: params.get('documentId') ?? undefined,
        },
      ];
    } else if (batched) operations = (req.body as unknown[]).map(rawOperation);
    else operations = [rawOperation(req.body)];

    const contentType = responseType(headers['accept']);
    try {
      for (const p of plugins)
        await p.onHttpRequest?.(
          { method, headers, query, socketIp: req.socketIp, operations, batched },
          state,
        );
      if (bodyError) throw new ApiError(bodyError.status, bodyError.code, bodyError.message);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      usage?.request(usagePlan(state), e.status);
      return {
        status: e.status,
        headers: { ...state.headers, ...e.headers, 'content-type': contentType },
        body: errorBody(e),
      };
    }
    if (!batched) {
      const r = await runOne(req, headers, operations[0] ?? {}, state);
      return { status: r.status, headers: { ...state.headers, ...r.headers }, body: r.body };
    }
    const results = await Promise.all(operations.map((op) => runOne(req, headers, op, state)));
    const merged: Record<string, string> = { ...state.headers };
    let cost = 0;
    for (const r of results) {
      Object.assign(merged, r.headers);
      cost += Number(r.headers['x-query-cost'] ?? 0);
    }
    merged['x-query-cost'] = String(cost);
    merged['content-type'] = contentType;
    return { status: 200, headers: merged, body: `[${results.map((r) => r.body).join(',')}]` };
  }
}
