/**
 * Serves one subgraph over HTTP (Apollo Server's GraphQL-over-HTTP handling, mounted on Fastify) for
 * `coinwallet serve --only subgraph:<name>`: POST/GET at `path` (default `/graphql`), behind the router.
 */
import { ApolloServer, HeaderMap } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import type { ApolloServerPlugin } from '@apollo/server';
import {
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLFormattedError } from 'graphql';
import { utf8Body } from '../../src/core/utf8.ts';
import { storeOutageError } from './errors.ts';
import { AnswerCache } from './answer-cache.ts';
import type { AnswerCacheOptions, AnswerCacheStats } from './answer-cache.ts';
import type { Subgraph } from './subgraph.ts';

/**
 * An operation that executed is answered 200, whatever its errors, under either media type (GraphQL over HTTP: a
 * response with `data` MUST be 2xx): a resolver's error carries the REST status in `extensions.http`, and Apollo
 * Server would answer the whole response with it — which a stock gateway (`@apollo/gateway`, Apollo Router) reads as
 * a failed fetch and turns into `INTERNAL_SERVER_ERROR` with every field of the subgraph null. Only a request that
 * never executed (unparsable, invalid, wrong method or media type) keeps Apollo Server's 4xx.
 */
const executedIsOk: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind === 'single' && 'data' in response.body.singleResult)
          response.http.status = 200;
      },
    };
  },
};

/**
 * No `extensions.http` leaves a subgraph: statuses and headers are the gateway's to set, and a gateway that reads the
 * extension would answer its client with it (Hive Gateway turns the whole response into the 401 of one field's
 * `AUTH_REQUIRED`; `@apollo/gateway` passes the extension through to clients). Apollo Server removes it only when its
 * headers are a `Map`; the catalogs' plain-object headers (`www-authenticate`, `retry-after`) would stay. The code
 * and the other extensions (`retryAfter`, `cost`) stay.
 */
export function withoutHttpExtension(formatted: GraphQLFormattedError): GraphQLFormattedError {
  if (!formatted.extensions || !('http' in formatted.extensions)) return formatted;
  const { http: _http, ...extensions } = formatted.extensions;
  return { ...formatted, extensions };
}

export interface MountedSubgraph {
  stop(): Promise<void>;
  /** Counters of the answer cache (`answer-cache.ts`); null when it has none. */
  answerStats(): AnswerCacheStats | null;
}

/** A response kept by {@link mountSubgraph}'s answer cache: its status, headers and body as sent. */
interface KeptResponse {
  status: number;
  headers: ReadonlyArray<readonly [string, string]>;
  body: string;
  size: number;
}

export async function mountSubgraph(
  app: FastifyInstance,
  subgraph: Subgraph<unknown>,
  path = '/graphql',
  /**
   * The answer cache of a subgraph with a response-cache facet (`answer-cache.ts`): a POSTed JSON operation
   * answered from one snapshot is answered from memory, without Apollo Server, while that snapshot is current.
   * `false` turns it off. Default on, 8 MiB.
   */
  answerCache: AnswerCacheOptions | false = {},
): Promise<MountedSubgraph> {
  const facet = subgraph.responseCache;
  const answers =
    facet && answerCache !== false ? new AnswerCache<KeptResponse>(() => facet.current(), answerCache) : null;
  const server = new ApolloServer<object>({
    schema: subgraph.schema,
    includeStacktraceInErrorResponses: false,
    // A store outage under a resolver is STORE_UNAVAILABLE, not Apollo Server's INTERNAL_SERVER_ERROR.
    formatError: (formatted, error) =>
      withoutHttpExtension(storeOutageError(formatted, unwrapResolverError(error)) ?? formatted),
    introspection: true,
    // No federated traces: nothing here reports to Apollo's cloud.
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginInlineTraceDisabled(), executedIsOk],
    // Subgraphs are called by the router (JSON POSTs); browsers go through the router.
    csrfPrevention: true,
    // The process drains and stops it on SIGTERM (src/start/process.ts); Apollo's own handler would stop it first.
    stopOnTerminationSignals: false,
  });
  await server.start();
  await app.register(async (scope) => {
    // Any other media type as text, for Apollo Server to refuse; UTF-8 only (`src/core/utf8.ts`).
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body: Buffer, done) => {
      try {
        done(null, utf8Body(body));
      } catch (e) {
        done(e as Error, undefined);
      }
    });
    const handler = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const headers = new HeaderMap();
      const flat: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (v === undefined) continue;
        const s = Array.isArray(v) ? v.join(', ') : v;
        headers.set(k, s);
        flat[k.toLowerCase()] = s;
      }
      // The cache's key: the operation as sent (a JSON POST) and the media type it asks for; the subgraphs with a
      // facet answer the same to every caller, so no other header counts.
      const version = answers ? facet?.current() : null;
      const key =
        version && req.method === 'POST' && typeof req.body === 'object' && req.body !== null
          ? `${flat['accept'] ?? ''}\0${JSON.stringify(req.body)}`
          : null;
      if (key !== null && version) {
        const kept = answers?.get(version, key);
        if (kept) {
          for (const [k, v] of kept.headers) void reply.header(k, v);
          return void reply.code(kept.status).send(kept.body);
        }
      }
      let ctx: unknown;
      const q = req.url.indexOf('?');
      const res = await server.executeHTTPGraphQLRequest({
        httpGraphQLRequest: {
          method: req.method,
          headers,
          search: q === -1 ? '' : req.url.slice(q + 1),
          body: req.body,
        },
        context: async () => (ctx = await subgraph.contextFor({ headers: flat })) as object,
      });
      for (const [k, v] of res.headers) void reply.header(k, v);
      void reply.code(res.status ?? 200);
      if (res.body.kind === 'complete') {
        const read = key !== null && ctx !== undefined ? facet?.readBy(ctx) : null;
        if (read && key !== null && (res.status ?? 200) === 200) {
          const body = res.body.string;
          answers?.set(read, key, { status: 200, headers: [...res.headers], body, size: body.length + 64 });
        }
        return void reply.send(res.body.string);
      }
      let text = '';
      for await (const chunk of res.body.asyncIterator) text += chunk;
      return void reply.send(text);
    };
    scope.get(path, handler);
    scope.post(path, handler);
  });
  return { stop: () => server.stop(), answerStats: () => answers?.stats() ?? null };
}
