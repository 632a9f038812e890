/**
 * The `gateway` role: one HTTP gateway over the four subgraph ports — vanilla `@apollo/gateway` (standalone or on
 * Fastify), Hive Gateway's runtime (JS or Rust planner), or our router with every plugin on.
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';
import * as httpTransport from '@graphql-mesh/transport-http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { createAccess } from '../../src/access/access.ts';
import { AppService } from '../../src/accounts/apps.ts';
import { StoredAppPolicies } from '../../src/accounts/app-policy.ts';
import type { AppPolicies } from '../../src/accounts/app-policy.ts';
import { AuthService } from '../../src/accounts/auth.ts';
import { documentCheck } from '../../router/trusted/check.ts';
import { wallet } from '../../test/names/harness.ts';
import { ApiKeyService } from '../../src/accounts/keys.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import type { Db } from '../../src/store/db.ts';
import { openDb } from '../../src/store/open.ts';
import { createRouter, SUPERGRAPH_URL } from '../../router/index.ts';
import type { Router } from '../../router/index.ts';
import { mountRouter } from '../../router/http.ts';
import { ProcessRun } from '../../src/start/process.ts';
import type { SubgraphName } from '../../subgraphs/shared/subgraph.ts';
import type { Ready, Variant } from './config.ts';
import { PEPPER } from './config.ts';
import { fastifyApp, listen, makeKeys } from './serving.ts';
import { safelist } from './workload.ts';
/** Apollo Server mounted on Fastify exactly as `router/http.ts` and `subgraphs/shared/http.ts` do it. */
function mountApollo(app: FastifyInstance, server: ApolloServer): void {
  const handler = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const headers = new HeaderMap();
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    const q = req.url.indexOf('?');
    const res = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: req.method,
        headers,
        search: q === -1 ? '' : req.url.slice(q + 1),
        body: req.body,
      },
      context: async () => ({}),
    });
    for (const [k, v] of res.headers) void reply.header(k, v);
    void reply.code(res.status ?? 200);
    if (res.body.kind === 'complete') return void reply.send(res.body.string);
    let text = '';
    for await (const chunk of res.body.asyncIterator) text += chunk;
    return void reply.send(text);
  };
  app.get('/graphql', handler);
  app.post('/graphql', handler);
}

/**
 * Hive Gateway as its CLI runs it, minus the CLI: `createGatewayRuntime` over the committed supergraph on
 * `node:http`, the HTTP transport pointed at the four subgraph ports, logging, landing page and GraphiQL off. The Rust
 * planner is `@graphql-hive/router-runtime`'s `unifiedGraphHandler`; "dedup" is the HTTP executor's in-flight
 * deduplication of identical subgraph queries (on by default).
 */
async function serveHive(variant: Variant, urls: Record<SubgraphName, string>): Promise<Ready> {
  process.setSourceMapsEnabled(false);
  const entries: Record<string, { location?: string; options?: Record<string, unknown> }> = {};
  for (const [name, url] of Object.entries(urls)) entries[name] = { location: url };
  if (variant === 'hive-rust-nodedup')
    entries['*.http'] = { options: { deduplicateInflightRequests: false } };
  const gateway = createGatewayRuntime({
    supergraph: readFileSync(SUPERGRAPH_URL, 'utf8'),
    ...(variant === 'hive-js' ? {} : { unifiedGraphHandler }),
    transports: { http: httpTransport },
    transportEntries: entries,
    // Hive's own inbound in-flight deduplication; by default its key holds every request header, and the load
    // generator rotates API keys, so only `authorization` is kept (as in our router's key).
    ...(variant === 'hive-rust-inbound'
      ? {
          inboundInflightRequestDeduplication: {
            shouldIncludeHeader: (name: string) => name === 'authorization',
          },
        }
      : {}),
    logging: false,
    landingPage: false,
    graphiql: false,
  });
  const server = createServer(gateway);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  if (!addr || typeof addr !== 'object') throw new Error('no address');
  return { url: `http://127.0.0.1:${addr.port}/graphql`, keys: [] };
}

export async function serveGateway(variant: Variant, urls: Record<SubgraphName, string>): Promise<Ready> {
  if (variant.startsWith('hive')) return serveHive(variant, urls);
  if (variant === 'vanilla' || variant === 'vanilla-fastify') {
    // A vanilla gateway is plain JavaScript: no tsx, so no source-mapped stack traces. (Left on, they cost it ~9 % of
    // its CPU: agent-base reads `new Error().stack` on every subgraph request.)
    process.setSourceMapsEnabled(false);
    // Nothing but the gateway: default RemoteGraphQLDataSource, default Apollo Server options, no plugins.
    const server = new ApolloServer({
      gateway: new ApolloGateway({
        supergraphSdl: readFileSync(SUPERGRAPH_URL, 'utf8'),
        buildService: ({ name }) => new RemoteGraphQLDataSource({ url: urls[name as SubgraphName] }),
      }),
    });
    if (variant === 'vanilla') {
      const { url } = await startStandaloneServer(server, { listen: { port: 0, host: '127.0.0.1' } });
      return { url: new URL('/graphql', url).href, keys: [] };
    }
    await server.start();
    const app = fastifyApp();
    mountApollo(app, server);
    return { url: await listen(app), keys: [] };
  }
  // Ours: the production wiring of `serve --only router` (createRouter over HTTP sources, mountRouter) with every
  // plugin on; keys in this process's own in-memory store, looked up and counted as in the embedded product
  // (in-process lookup cache, in-memory rate limiter).
  const db: Db = await openDb({});
  const keys = new ApiKeyService(db, { pepper: PEPPER });
  const apps = variant === 'ours-apps' ? await trustedOnlyKeys(db, keys) : null;
  const raw = apps ? apps.keys : (await makeKeys(keys)).map((k) => k.key);
  // ours-observed: as operated, through the product's process wiring (`src/start/process.ts`): an access line per
  // request at info (JSON on stderr: the orchestrator sends it to a file), Prometheus metrics, tracing off.
  // ours-unobserved: the same wiring with observability off (errors alone logged, no metrics): its baseline.
  const run =
    variant === 'ours-observed'
      ? new ProcessRun(
          { logLevel: 'info', logFormat: 'json', host: '127.0.0.1', port: 0, metricsPort: 0 },
          {},
          'router',
        )
      : variant === 'ours-unobserved'
        ? new ProcessRun({ logLevel: 'error', host: '127.0.0.1', port: 0 }, {}, 'router')
        : null;
  const router: Router = await createRouter({
    access: createAccess({ keys, limiter: createMemoryLimiter() }),
    persisted: { manifest: safelist(), mode: 'safelist' },
    subgraphs: { kind: 'http', urls },
    dedupe: variant !== 'ours-nodedup',
    ...(apps ? { apps: apps.policies } : {}),
    ...(run?.metrics ? { onSubgraphFetch: run.metrics.observeFetch.bind(run.metrics) } : {}),
  });
  const app = fastifyApp(run?.fastifyOptions);
  if (run) {
    run.metrics?.watchRouter(router);
    run.instrument(app);
    await mountRouter(app, router);
    const url = await run.listen(app);
    await run.warmUp(async () => {});
    return { url: `${url}/graphql`, keys: raw };
  }
  await mountRouter(app, router);
  return { url: await listen(app), keys: raw };
}

/**
 * ours-apps: the keys of one signed-in account, in apps whose active version is the safelist (20 keys per app, the
 * most an app takes), every key set to `documents: trusted-only` (docs/apps.md); the policy read from the store as
 * the product reads it.
 */
async function trustedOnlyKeys(
  db: Db,
  keys: ApiKeyService,
): Promise<{ keys: string[]; policies: AppPolicies }> {
  const auth = new AuthService(db, { domain: 'bench.local' });
  const w = wallet('LTC');
  const c = await auth.challenge(w.address);
  const { account } = await auth.signIn(w.address, w.sign(c.challenge), c.nonce);
  const made = await makeKeys(keys, account.id);
  const policies = new StoredAppPolicies(db);
  const apps = new AppService(db, { check: documentCheck() });
  const manifest = Object.fromEntries(
    [...safelist().values()].map((body) => [
      `sha256:${createHash('sha256').update(body).digest('hex')}`,
      body,
    ]),
  );
  for (let i = 0; i * 20 < made.length; i++) {
    const group = made.slice(i * 20, i * 20 + 20);
    const name = `bench-${i}`;
    await apps.create(account, { name, keys: group.map((k) => k.id) });
    await apps.publish({ kind: 'account', account }, name, { version: '1', manifest, activate: true });
    for (const k of group) await apps.setKey(account, name, k.id, 'trusted-only');
  }
  return { keys: made.map((k) => k.key), policies };
}
