/**
 * The router's engine on `@apollo/server` 5 + `@apollo/gateway` 2: the gateway plans each operation over the
 * supergraph and calls the subgraphs through our sources (`router/sources.ts`: in-process, or HTTP with keep-alive and
 * fetch deduplication); the plugins' operation phase (`onOperation`, `onResponse`) runs in Apollo Server's
 * `didResolveOperation` / `willSendResponse`; embedded, the response cache and direct execution sit in front of the
 * gateway. Everything before parsing (key, budget, batch, safelist) and after (usage, in-flight deduplication) is the
 * router's own (`router/index.ts`), the same whatever the engine.
 */
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer, HeaderMap } from '@apollo/server';
import type { ApolloServerPlugin, GraphQLRequestContext } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError } from 'graphql';
import { directExecution } from '../direct-execution.ts';
import {
  directExecutors,
  responseCacheOf,
  operationPhase,
  PREFLIGHT_HEADERS,
  responsePhase,
} from '../engine.ts';
import type { Engine, EngineOptions, EngineRequest, Executed } from '../engine.ts';
import type { RouterError } from '../errors.ts';
import type { OperationState, RequestState } from '../plugin.ts';
import { closeSources, createSources } from '../sources.ts';
import type { SourceContext } from '../sources.ts';

/** The context of one operation inside Apollo Server and the gateway. */
interface RouterContext extends SourceContext {
  state: RequestState;
  opState: OperationState;
}

export async function createApolloEngine(opts: EngineOptions): Promise<Engine> {
  const { log, timeoutMs, limits, plugins, supergraphSdl } = opts;
  const sources = createSources(opts.subgraphs, timeoutMs, log, opts.dedupe !== false);
  const responseCache = responseCacheOf(opts);
  let directAnswered = 0;
  const direct = directExecutors(opts, () => directAnswered++).map(
    (d) => directExecution(d) as ApolloServerPlugin<RouterContext>,
  );

  const toGraphQLError = (e: RouterError): GraphQLError =>
    new GraphQLError(e.message, {
      extensions: {
        code: e.code,
        ...e.extensions,
        // Apollo Server reads a HeaderMap here; the extension's declared type (augmented by graphql-yoga, installed
        // for the Hive Gateway benchmark variants) says a plain record.
        http: {
          status: e.status,
          headers: new HeaderMap(Object.entries(e.headers)) as unknown as Record<string, string>,
        },
      },
    });

  const bridgePlugin: ApolloServerPlugin<RouterContext> = {
    async requestDidStart() {
      return {
        async didResolveOperation(rc: GraphQLRequestContext<RouterContext>) {
          if (!rc.document) return;
          // Refused here, as client errors: the gateway would throw on them (a 500).
          const refused = await operationPhase(
            plugins,
            {
              schema: rc.schema,
              document: rc.document,
              operationName: rc.request.operationName,
              variables: rc.request.variables ?? {},
            },
            rc.contextValue.state,
            rc.contextValue.opState,
            toGraphQLError,
          );
          if (refused) throw refused;
        },
        async willSendResponse(rc: GraphQLRequestContext<RouterContext>) {
          const out = responsePhase(plugins, rc.contextValue.state, rc.contextValue.opState);
          const body = rc.response.body;
          if (body?.kind === 'single' && Object.keys(out.extensions).length > 0)
            body.singleResult.extensions = { ...body.singleResult.extensions, ...out.extensions };
          for (const [k, v] of Object.entries(out.headers)) rc.response.http.headers.set(k, v);
        },
      };
    },
  };

  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name }) => {
      const s = sources.get(name);
      if (!s) throw new Error(`router: the supergraph names an unknown subgraph ${name}`);
      return s;
    },
  });
  const server = new ApolloServer<RouterContext>({
    gateway,
    plugins: [
      bridgePlugin,
      ...(responseCache ? [responseCache.plugin as ApolloServerPlugin<RouterContext>] : []),
      ...direct,
      ApolloServerPluginLandingPageDisabled(),
    ],
    includeStacktraceInErrorResponses: false,
    introspection: true,
    // Browsers cannot send these headers without a CORS preflight, so a request carrying one is not a CSRF.
    csrfPrevention: { requestHeaders: [...PREFLIGHT_HEADERS] },
    persistedQueries:
      opts.apqCache === false ? false : { ...(opts.apqCache ? { cache: opts.apqCache } : {}), ttl: 86_400 },
    parseOptions: { maxTokens: limits.maxTokens },
    allowBatchedHttpRequests: false,
    formatError: (formatted, error) => {
      const code = formatted.extensions?.['code'];
      if (code !== 'INTERNAL_SERVER_ERROR' || formatted.extensions?.['subgraph']) return formatted;
      // Apollo Server refuses some requests with a 4xx and no code ("provided sha does not match query"): they are
      // the client's to read.
      const http = (error as { extensions?: { http?: { status?: unknown } } } | null)?.extensions?.http;
      if (typeof http?.status === 'number' && http.status >= 400 && http.status < 500)
        return { ...formatted, extensions: { ...formatted.extensions, code: 'BAD_REQUEST' } };
      log.error('router error', { error: error instanceof Error ? error.message : String(error) });
      return { message: 'internal error', extensions: { code } };
    },
  });
  await server.start();

  /** One operation through Apollo Server and the gateway; `cost` is the estimate when the cost plugin made one. */
  async function execute(req: EngineRequest, state: RequestState): Promise<Executed> {
    const headers = new HeaderMap();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, v);
    const ctx: RouterContext = {
      headers: req.headers,
      subgraphContexts: new Map(),
      state,
      opState: { cost: null },
    };
    const res = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method, headers, search: req.search, body: req.body },
      context: async () => ctx,
    });
    const outHeaders: Record<string, string> = {};
    for (const [k, v] of res.headers) outHeaders[k] = v;
    let text: string;
    if (res.body.kind === 'complete') text = res.body.string;
    else {
      text = '';
      for await (const chunk of res.body.asyncIterator) text += chunk;
    }
    return {
      status: res.status ?? 200,
      headers: outHeaders,
      body: text,
      cost: ctx.opState.cost?.estimated ?? null,
    };
  }

  return {
    execute,
    responseCacheStats: () => responseCache?.stats() ?? null,
    directExecutions: () => directAnswered,
    async stop() {
      await server.stop();
      closeSources(sources);
    },
  };
}
