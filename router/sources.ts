/**
 * Where the gateway sends each subgraph's part of a query plan:
 *
 * - {@link InProcessSource} (embedded mode): executes the subgraph's schema in this process — no HTTP hop, no JSON
 *   round trip. The subgraph context (and so its DataLoaders) is made once per router request and shared by every
 *   fetch of that request to the subgraph.
 * - {@link HttpSource} (scale-out mode): POSTs to the subgraph's URL over a keep-alive `node:http`/`node:https` agent,
 *   forwarding `authorization`. (Not `fetch`: per call it cost 2.6× the client CPU — bench/README.md.) An identical
 *   query fetch (same body, same forwarded headers) while one is in flight shares its answer (`router/inflight.ts`).
 *
 * Both answer a failure or a timeout with a GraphQL error naming the subgraph (`SUBGRAPH_UNAVAILABLE`,
 * `SUBGRAPH_TIMEOUT`) — never internals — and the gateway returns everything else (partial results).
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { execute, GraphQLError, parse } from 'graphql';
import type { DocumentNode, GraphQLFormattedError } from 'graphql';
import type { Subgraph, SubgraphName } from '../subgraphs/shared/subgraph.ts';
import { SUBGRAPH_NAMES } from '../subgraphs/shared/subgraph.ts';
import { createInflight } from './inflight.ts';

/** Where the four subgraphs are: in this process (embedded) or at these URLs (scale-out). */
export type RouterSubgraphs =
  | { kind: 'in-process'; subgraphs: readonly Subgraph<unknown>[] }
  | { kind: 'http'; urls: Readonly<Record<SubgraphName, string>> };

/** One fetch of a query plan to a subgraph. */
export interface SubgraphFetch {
  query: string;
  variables: Readonly<Record<string, unknown>>;
  operationName?: string | undefined;
}

/** A subgraph's answer to a fetch, as the engine merges it. */
export interface SubgraphAnswer {
  data?: Record<string, unknown> | null;
  errors?: GraphQLFormattedError[];
}

/** Where one subgraph is: in this process or over HTTP. */
export interface SubgraphSource {
  process(fetch: SubgraphFetch, ctx: Partial<SourceContext>): Promise<SubgraphAnswer>;
}

/** The router's per-request context, as far as the sources need it. */
export interface SourceContext {
  /** The client's request headers (lowercase). */
  headers: Readonly<Record<string, string | undefined>>;
  /** Subgraph contexts made for this request. */
  subgraphContexts: Map<string, Promise<unknown>>;
  /** In-process subgraphs that already timed out in this request (`router/direct-execution.ts`): not waited again. */
  timedOut?: Set<string>;
}

/** The context of `subgraph` for this request: made on first use, then shared by every fetch of the request. */
export function subgraphContext(subgraph: Subgraph<unknown>, ctx: Partial<SourceContext>): Promise<unknown> {
  const contexts = ctx.subgraphContexts ?? new Map<string, Promise<unknown>>();
  let sub = contexts.get(subgraph.name);
  if (!sub) {
    sub = Promise.resolve(subgraph.contextFor({ headers: ctx.headers ?? {} }));
    contexts.set(subgraph.name, sub);
  }
  return sub;
}

export interface SourceLog {
  warn(msg: string, data?: Record<string, unknown>): void;
}

const unavailable = (name: string): GraphQLFormattedError => ({
  message: `the ${name} service is unavailable: its fields are null in this response; retry later`,
  extensions: { code: 'SUBGRAPH_UNAVAILABLE', subgraph: name },
});
const timedOut = (name: string, ms: number): GraphQLFormattedError => ({
  message: `the ${name} service did not answer within ${ms} ms: its fields are null in this response; retry later`,
  extensions: { code: 'SUBGRAPH_TIMEOUT', subgraph: name },
});

/** A subgraph error as the gateway receives it: no `http` extension (statuses are the router's to set). */
function clientError(e: GraphQLError, name: string, log: SourceLog): GraphQLFormattedError {
  const original = e.originalError;
  // A GraphQLError thrown by a resolver (or a validation error) is the client's to read; anything else is internal.
  if (original && !(original instanceof GraphQLError)) {
    log.warn('subgraph resolver failed', { subgraph: name, error: original.message });
    return internalError(name, e.path);
  }
  const json = e.toJSON();
  if (json.extensions && 'http' in json.extensions) {
    const { http: _http, ...rest } = json.extensions;
    return { ...json, extensions: rest };
  }
  return json;
}

const internalError = (name: string, path: GraphQLFormattedError['path']): GraphQLFormattedError => ({
  message: `internal error in the ${name} service`,
  ...(path ? { path } : {}),
  extensions: { code: 'INTERNAL_SERVER_ERROR', subgraph: name },
});

/**
 * A subgraph error as received over HTTP, under the rules of {@link clientError}: an error with a code of its own is
 * the client's to read (without `http`, `stacktrace` or `exception` extensions); an internal one (the subgraph
 * server's `INTERNAL_SERVER_ERROR`, or no code) is logged and becomes "internal error in the X service".
 */
function remoteError(e: unknown, name: string, log: SourceLog): GraphQLFormattedError {
  const err = (e && typeof e === 'object' ? e : {}) as Partial<GraphQLFormattedError>;
  const path = Array.isArray(err.path) ? err.path : undefined;
  const extensions =
    err.extensions && typeof err.extensions === 'object' ? (err.extensions as Record<string, unknown>) : {};
  const code = extensions['code'];
  if (typeof err.message !== 'string' || typeof code !== 'string' || code === 'INTERNAL_SERVER_ERROR') {
    log.warn('subgraph resolver failed', { subgraph: name, error: err.message });
    return internalError(name, path);
  }
  const { http: _h, stacktrace: _s, exception: _e, ...rest } = extensions;
  return {
    message: err.message,
    ...(Array.isArray(err.locations) ? { locations: err.locations } : {}),
    ...(path ? { path } : {}),
    extensions: rest,
  };
}

/** Parsed subgraph documents: the query planner sends the same few strings again and again. */
class DocumentCache {
  private readonly docs = new Map<string, DocumentNode>();
  constructor(private readonly max = 1_000) {}
  get(query: string): DocumentNode {
    let doc = this.docs.get(query);
    if (!doc) {
      doc = parse(query);
      if (this.docs.size >= this.max) this.docs.clear();
      this.docs.set(query, doc);
    }
    return doc;
  }
}

export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | typeof TIMEOUT> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<typeof TIMEOUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMEOUT), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
export const TIMEOUT = Symbol('timeout');

export class InProcessSource implements SubgraphSource {
  private readonly docs = new DocumentCache();
  constructor(
    private readonly subgraph: Subgraph<unknown>,
    private readonly timeoutMs: number,
    private readonly log: SourceLog,
  ) {}

  async process(fetch: SubgraphFetch, ctx: Partial<SourceContext>): Promise<SubgraphAnswer> {
    const name = this.subgraph.name;
    if (ctx.timedOut?.has(name)) return { errors: [timedOut(name, this.timeoutMs)] };
    const run = async (): Promise<SubgraphAnswer> => {
      let contextValue: unknown;
      try {
        contextValue = await subgraphContext(this.subgraph, ctx);
      } catch (e) {
        if (e instanceof GraphQLError) return { errors: [clientError(e, name, this.log)] };
        throw e;
      }
      const result = await execute({
        schema: this.subgraph.schema,
        document: this.docs.get(fetch.query),
        variableValues: fetch.variables,
        operationName: fetch.operationName ?? null,
        contextValue,
      });
      return {
        ...(result.data !== undefined ? { data: result.data as Record<string, unknown> | null } : {}),
        ...(result.errors ? { errors: result.errors.map((e) => clientError(e, name, this.log)) } : {}),
      };
    };
    try {
      const r = await withTimeout(run(), this.timeoutMs);
      if (r !== TIMEOUT) return r;
      this.log.warn('subgraph timed out', { subgraph: name, timeoutMs: this.timeoutMs });
      return { errors: [timedOut(name, this.timeoutMs)] };
    } catch (e) {
      this.log.warn('subgraph failed', { subgraph: name, error: e instanceof Error ? e.message : String(e) });
      return { errors: [unavailable(name)] };
    }
  }
}

/** Headers the router forwards to a subgraph over HTTP. */
const FORWARDED = ['authorization'] as const;

/** The most a subgraph's answer may hold; a larger one is refused (SUBGRAPH_UNAVAILABLE). */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

class SubgraphTimeout extends Error {
  override readonly name = 'TimeoutError';
}

/** Codes of a kept-alive connection the server closed just as it was reused: the request never reached it. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

export class HttpSource implements SubgraphSource {
  private readonly target: URL;
  private readonly agent: HttpAgent;
  private readonly send: typeof httpRequest;
  /** Identical query fetches in flight (`router/inflight.ts`): one request to the subgraph, its answer to each. */
  private readonly inflight = createInflight<{ status: number; text: string }>({ defer: false });

  constructor(
    private readonly name: SubgraphName,
    url: string,
    private readonly timeoutMs: number,
    private readonly log: SourceLog,
    private readonly dedupe = true,
  ) {
    this.target = new URL(url);
    const https = this.target.protocol === 'https:';
    this.agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.send = https ? httpsRequest : httpRequest;
  }

  /** One POST with the whole body in one write; resolves with the status and the body text. */
  private post(
    headers: Record<string, string>,
    body: string,
    retryStale: boolean,
  ): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      let done = false;
      let timedOut = false;
      const finish = (err: Error | null, value?: { status: number; text: string }): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        // Whatever the destroyed request reports first (an error, a cut-off answer), the cause is the timeout.
        if (timedOut) reject(new SubgraphTimeout());
        else if (err) reject(err);
        else resolve(value as { status: number; text: string });
      };
      const req = this.send(
        this.target,
        {
          method: 'POST',
          agent: this.agent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_RESPONSE_BYTES) {
              req.destroy(new Error(`the answer exceeds ${MAX_RESPONSE_BYTES} bytes`));
              return;
            }
            chunks.push(c);
          });
          res.on('end', () =>
            finish(null, { status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', (e) => finish(e));
          res.on('close', () => {
            if (!res.complete) finish(new Error('the answer was cut off'));
          });
        },
      );
      const timer = setTimeout(() => {
        timedOut = true;
        req.destroy(new SubgraphTimeout());
      }, this.timeoutMs);
      req.on('error', (e: NodeJS.ErrnoException) => {
        if (!done && retryStale && req.reusedSocket && e.code !== undefined && STALE_CONNECTION.has(e.code)) {
          done = true;
          clearTimeout(timer);
          this.post(headers, body, false).then(resolve, reject);
          return;
        }
        finish(e);
      });
      req.end(body);
    });
  }

  async process(fetch: SubgraphFetch, ctx: Partial<SourceContext>): Promise<SubgraphAnswer> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    for (const h of FORWARDED) {
      const v = ctx.headers?.[h];
      if (v !== undefined) headers[h] = v;
    }
    const { query } = fetch;
    // A query is safe to send again on a fresh connection, and to share with an identical one in flight; a mutation
    // is neither.
    const isQuery = !/^\s*mutation\b/.test(query);
    const payload = JSON.stringify({
      query,
      variables: fetch.variables,
      ...(fetch.operationName ? { operationName: fetch.operationName } : {}),
    });
    // The key: the body and the forwarded headers, all that the subgraph sees of this fetch.
    const key = this.dedupe && isQuery ? `${JSON.stringify(headers)}\n${payload}` : null;
    try {
      const { result: res } = await this.inflight.run(key, () => this.post(headers, payload, isQuery));
      let body: SubgraphAnswer;
      try {
        body = JSON.parse(res.text) as SubgraphAnswer;
      } catch {
        this.log.warn('subgraph answered without JSON', { subgraph: this.name, status: res.status });
        return { errors: [unavailable(this.name)] };
      }
      if (!body || typeof body !== 'object' || (!('data' in body) && !('errors' in body))) {
        this.log.warn('subgraph answered without a GraphQL body', {
          subgraph: this.name,
          status: res.status,
        });
        return { errors: [unavailable(this.name)] };
      }
      const errors = (body as { errors?: unknown }).errors;
      if (errors === undefined) return body;
      return {
        ...body,
        errors: Array.isArray(errors)
          ? errors.map((e) => remoteError(e, this.name, this.log))
          : [unavailable(this.name)],
      };
    } catch (e) {
      const timeout = e instanceof SubgraphTimeout;
      this.log.warn('subgraph request failed', {
        subgraph: this.name,
        error: e instanceof Error ? e.message : String(e),
      });
      return { errors: [timeout ? timedOut(this.name, this.timeoutMs) : unavailable(this.name)] };
    }
  }

  /** Closes the kept-alive connections (the router's `stop`). */
  close(): void {
    this.agent.destroy();
  }
}

/** Closes the kept-alive connections of the HTTP sources (an engine's `stop`). */
export function closeSources(sources: ReadonlyMap<string, SubgraphSource>): void {
  for (const s of sources.values()) if (s instanceof HttpSource) s.close();
}

/** The four subgraphs' sources for the router's options: in-process (embedded) or over HTTP (scale-out). */
export function createSources(
  subgraphs: RouterSubgraphs,
  timeoutMs: number,
  log: SourceLog,
  dedupe: boolean,
): Map<string, SubgraphSource> {
  const sources = new Map<string, SubgraphSource>();
  if (subgraphs.kind === 'in-process') {
    for (const sg of subgraphs.subgraphs) sources.set(sg.name, new InProcessSource(sg, timeoutMs, log));
  } else {
    for (const name of SUBGRAPH_NAMES)
      sources.set(name, new HttpSource(name, subgraphs.urls[name], timeoutMs, log, dedupe));
  }
  for (const name of SUBGRAPH_NAMES)
    if (!sources.has(name)) throw new Error(`router: no source for the ${name} subgraph`);
  return sources;
}
