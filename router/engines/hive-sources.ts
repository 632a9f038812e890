/**
 * Our subgraph sources (`router/sources.ts`) as a transport of the Hive Gateway runtime: each fetch of a query plan
 * goes through the same `InProcessSource` (embedded: the subgraph's schema in this process, one subgraph context per
 * router request) or `HttpSource` (keep-alive, fetch deduplication, `authorization` forwarded), so timeouts, partial
 * results and error codes (`SUBGRAPH_UNAVAILABLE`, `SUBGRAPH_TIMEOUT`, "internal error in the X service") are the
 * router's own whichever planner plans the operation.
 *
 * Use: `transports: { router: sourcesTransport(sources) }, transportEntries: { '*': { kind: 'router' } }`; the
 * runtime's context must carry the router's per-request {@link SourceContext} as `routerSource` (the engine's
 * server context).
 */
import type { Transport } from '@graphql-mesh/transport-common';
import type { ExecutionRequest, ExecutionResult } from '@graphql-tools/utils';
import { GraphQLError, print } from 'graphql';
import type { DocumentNode } from 'graphql';
import { failedWith, inSpan, SpanKind } from '../../src/core/trace.ts';
import { outcomeOf } from '../sources/source.ts';
import type { SourceContext, SubgraphSource } from '../sources/source.ts';

/** The runtime context's part this transport reads. */
export interface WithRouterSource {
  routerSource?: SourceContext;
}

/** Printed fetch documents: the planner hands the same few documents again and again. */
const printed = new WeakMap<DocumentNode, string>();
function text(doc: DocumentNode): string {
  let t = printed.get(doc);
  if (t === undefined) {
    t = print(doc);
    printed.set(doc, t);
  }
  return t;
}

/** Per runtime context without a router's: the source context made for it (a stock runtime's own requests). */
const made = new WeakMap<object, SourceContext>();

/**
 * The router's per-request source context; in a runtime that is not our router's, one made per request from the
 * request's headers.
 */
function sourceContext(runtimeContext: unknown): SourceContext {
  const ctx = runtimeContext as (WithRouterSource & { request?: Request }) | undefined;
  if (ctx?.routerSource) return ctx.routerSource;
  if (!ctx || typeof ctx !== 'object') return { headers: {}, subgraphContexts: new Map() };
  let c = made.get(ctx);
  if (!c) {
    const headers: Record<string, string> = {};
    ctx.request?.headers.forEach((v, k) => (headers[k] = v));
    c = { headers, subgraphContexts: new Map() };
    made.set(ctx, c);
  }
  return c;
}

export function sourcesTransport(sources: ReadonlyMap<string, SubgraphSource>): Transport {
  return {
    getSubgraphExecutor({ subgraphName }) {
      const source = sources.get(subgraphName);
      if (!source) throw new Error(`router: the supergraph names an unknown subgraph ${subgraphName}`);
      const fetch = (req: ExecutionRequest, ctx: SourceContext) =>
        source.process(
          { query: text(req.document), variables: req.variables ?? {}, operationName: req.operationName },
          ctx,
        );
      return async (req: ExecutionRequest): Promise<ExecutionResult> => {
        const ctx = sourceContext(req.context);
        ctx.fetchStarting?.();
        const res = await inSpan(
          `subgraph ${subgraphName}`,
          { kind: SpanKind.CLIENT, attributes: { 'coinwallet.subgraph': subgraphName } },
          async (span) => {
            const answer = await fetch(req, ctx);
            const outcome = outcomeOf(answer);
            if (span && outcome !== 'ok') failedWith(span, `subgraph ${subgraphName}: ${outcome}`);
            return answer;
          },
        );
        return {
          ...(res.data !== undefined ? { data: res.data } : {}),
          ...(res.errors
            ? {
                errors: res.errors.map(
                  (e) =>
                    new GraphQLError(e.message, {
                      ...(e.path ? { path: e.path } : {}),
                      ...(e.extensions ? { extensions: e.extensions } : {}),
                    }),
                ),
              }
            : {}),
        } as ExecutionResult;
      };
    },
  };
}
