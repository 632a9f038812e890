/**
 * What the router's sources share (`router/sources/`): the fetch and answer shapes, the per-request source context,
 * and the errors a failed or slow subgraph is reported with — `SUBGRAPH_UNAVAILABLE`, `SUBGRAPH_TIMEOUT`, "internal
 * error in the X service" — never internals.
 */
import type { Logger } from '../../src/core/log.ts';
import { GraphQLError } from 'graphql';
import type { GraphQLFormattedError } from 'graphql';
import type { Subgraph, SubgraphName } from '../../subgraphs/shared/subgraph.ts';
import { storeOutageError } from '../../subgraphs/shared/errors.ts';

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
  /** Releases what the source holds open (kept-alive connections); default nothing. */
  close?(): void;
}

export type FetchOutcome = 'ok' | 'timeout' | 'unavailable' | 'error';
export type SubgraphFetchObserver = (subgraph: string, ms: number, outcome: FetchOutcome) => void;

/** What an answer says of its fetch: the router's own codes for a failed fetch, `error` when only errors came back. */
export function outcomeOf(answer: SubgraphAnswer): FetchOutcome {
  const codes = (answer.errors ?? []).map((e) => e.extensions?.['code']);
  if (codes.includes('SUBGRAPH_TIMEOUT')) return 'timeout';
  if (codes.includes('SUBGRAPH_UNAVAILABLE')) return 'unavailable';
  return answer.data == null && codes.length > 0 ? 'error' : 'ok';
}

/** A source whose every fetch is timed and reported to `observe`. */
export class ObservedSource implements SubgraphSource {
  constructor(
    readonly name: string,
    private readonly inner: SubgraphSource,
    private readonly observe: SubgraphFetchObserver,
  ) {}

  close(): void {
    this.inner.close?.();
  }

  async process(fetch: SubgraphFetch, ctx: Partial<SourceContext>): Promise<SubgraphAnswer> {
    const t0 = performance.now();
    const answer = await this.inner.process(fetch, ctx);
    this.observe(this.name, performance.now() - t0, outcomeOf(answer));
    return answer;
  }
}

/** The router's per-request context, as far as the sources need it. */
export interface SourceContext {
  /** The client's request headers (lowercase). */
  headers: Readonly<Record<string, string | undefined>>;
  /** Subgraph contexts made for this request. */
  subgraphContexts: Map<string, Promise<unknown>>;
  /** In-process subgraphs that already timed out in this request (`router/direct-execution.ts`): not waited again. */
  timedOut?: Set<string>;
  /** Called as each fetch of the query plan starts (the engine's plan span ends at the first). */
  fetchStarting?: () => void;
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

export const unavailable = (name: string): GraphQLFormattedError => ({
  message: `the ${name} service is unavailable: its fields are null in this response; retry later`,
  extensions: { code: 'SUBGRAPH_UNAVAILABLE', subgraph: name },
});
export const timedOut = (name: string, ms: number): GraphQLFormattedError => ({
  message: `the ${name} service did not answer within ${ms} ms: its fields are null in this response; retry later`,
  extensions: { code: 'SUBGRAPH_TIMEOUT', subgraph: name },
});

/** A subgraph error as the gateway receives it: no `http` extension (statuses are the router's to set). */
export function clientError(e: GraphQLError, name: string, log: Pick<Logger, 'warn'>): GraphQLFormattedError {
  const original = e.originalError;
  // A GraphQLError thrown by a resolver (or a validation error) is the client's to read, and so is the store not
  // answering (STORE_UNAVAILABLE); anything else is internal.
  if (original && !(original instanceof GraphQLError)) {
    const known = storeOutageError(e.toJSON(), original);
    if (known) {
      const { http: _http, ...extensions } = known.extensions ?? {};
      return { ...known, extensions };
    }
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

export const internalError = (name: string, path: GraphQLFormattedError['path']): GraphQLFormattedError => ({
  message: `internal error in the ${name} service`,
  ...(path ? { path } : {}),
  extensions: { code: 'INTERNAL_SERVER_ERROR', subgraph: name },
});

/**
 * A subgraph error as received over HTTP, under the rules of {@link clientError}: an error with a code of its own is
 * the client's to read (without `http`, `stacktrace` or `exception` extensions); an internal one (the subgraph
 * server's `INTERNAL_SERVER_ERROR`, or no code) is logged and becomes "internal error in the X service".
 */
export function remoteError(e: unknown, name: string, log: Pick<Logger, 'warn'>): GraphQLFormattedError {
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
