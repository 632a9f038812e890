/**
 * Graph throughput: our router with every plugin on (with and without in-flight deduplication)
 * against a vanilla `@apollo/gateway` and Hive Gateway's runtime (JS planner; Rust planner with fetch dedup on, off,
 * and with its inbound dedup) with none, all calling the same four subgraphs over HTTP; plus the embedded variants (the
 * subgraphs executed in the router's process). Same run, same store, same queries, same load generator (autocannon,
 * loopback, POST JSON). Prints requests/s, p50/p99 latency and the ratios to the vanilla gateway and to Hive with the
 * Rust planner; and each process's CPU time per response, which stays put when other work on the machine moves the
 * throughput.
 *
 * Processes (this script re-runs itself with `--role`):
 * - `subgraphs`: one in-memory store (test market, a registered name, a bridge proof-of-reserves snapshot, API keys),
 *   the four subgraphs each on its own Fastify port (as `coinwallet serve --only subgraph:<name>`), and on more ports
 *   the embedded variants over the same store (each with its own subgraph objects, as in the product): our router
 *   with its response cache on (`embedded`, as shipped) and off (`embedded-uncached`), and the stock Hive runtime
 *   over our in-process sources (`hive-rust-embedded`). PGlite is
 *   single-process, so everything that reads the store lives here.
 * - `gateway --variant …`: one process per HTTP gateway — vanilla on `startStandaloneServer`, vanilla mounted on
 *   Fastify the way our router is, the Hive variants on `node:http`, and ours (`createRouter` + `mountRouter`, its own
 *   in-memory store for API keys).
 * - this process: autocannon only.
 *
 * Run: `npm run bench:graph` (about 18 minutes). Env: `DURATION` (s, default 10), `WARMUP` (s, default 3),
 * `CONNECTIONS` (default 50), `ROUNDS` (default 3, variants interleaved, the median round reported), `VARIANTS` and
 * `QUERIES` (comma lists to run a subset), `PROFILE=1` (a CPU profile of the serving processes — the gateway and the
 * subgraphs process — over each measured run, not the warm-up, written to `PROFILE_DIR`, default a temporary
 * directory), `BENCH_LOG=1` (Fastify error logs, to see why a probe failed).
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { createServer } from 'node:http';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';
import * as httpTransport from '@graphql-mesh/transport-http';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createAccess } from '../src/access/access.ts';
import { ApiKeyService } from '../src/access/keys.ts';
import { createMemoryLimiter } from '../src/access/limiter.ts';
import { AuthService } from '../src/accounts/auth.ts';
import { loadDeployment } from '../src/bridge/deployment.ts';
import { ensureDemoSnapshot } from '../src/bridge/snapshots.ts';
import { createSubgraphs } from '../src/graph.ts';
import type { GraphDeps } from '../src/graph.ts';
import { upsertAddress } from '../src/names/name-repo.ts';
import { NameService } from '../src/names/service.ts';
import { engineConfig } from '../src/product.ts';
import { registerErrorHandling } from '../src/rest/errors.ts';
import type { Db } from '../src/store/db.ts';
import { openDb } from '../src/store/open.ts';
import { sourcesTransport } from '../router/engines/hive-sources.ts';
import { createSources } from '../router/sources/create.ts';
import { createRouter, SUPERGRAPH_URL } from '../router/index.ts';
import type { Router } from '../router/index.ts';
import { mountRouter } from '../router/http.ts';
import { mountSubgraph } from '../subgraphs/shared/http.ts';
import type { SubgraphName } from '../subgraphs/shared/subgraph.ts';
import { createTestMarket } from '../test/support/price-app.ts';
import { wallet } from '../test/names/harness.ts';
import { createServices } from '../src/services.ts';

const DURATION = Number(process.env.DURATION ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
/** Days of demo history in the store (the markets subgraph's 24 h figures need more than one). */
const DAYS = 3;
/** Enterprise keys at 10,000/min each, rotated per request: 16,700 req/s of budget, above what the graph serves. */
const KEYS = 100;
const PEPPER = 'bench-pepper-0123456789abcdef';
const NAME_LABEL = 'bench';

const QUERIES = {
  nested: `{
  coins(first: 10) { edges { node { id price marketCap } } }
  bridge { coins { ticker coin { id price } } proofOfReserves { stale } }
  resolveName(name: "${NAME_LABEL}.coin", asset: "LTC") { address coin { id price } }
}`,
  'coins(first: 100)': `{
  coins(first: 100) { edges { node { id symbol price volume24h changes { h24 } } } }
}`,
} as const;
type QueryName = keyof typeof QUERIES;

const VARIANTS = [
  'vanilla',
  'vanilla-fastify',
  'hive-js',
  'hive-rust',
  'hive-rust-nodedup',
  'hive-rust-inbound',
  'ours',
  'ours-nodedup',
  'embedded',
  'embedded-uncached',
  'hive-rust-embedded',
] as const;
type Variant = (typeof VARIANTS)[number];
const EMBEDDED: readonly Variant[] = ['embedded', 'embedded-uncached', 'hive-rust-embedded'];
const embeddedVariant = (v: Variant): boolean => EMBEDDED.includes(v);
/** Variants with none of our plugins (no key, rate-limit, cost or safelist checks to probe). */
const stockVariant = (v: Variant): boolean => v.startsWith('vanilla') || v.startsWith('hive-');
const LABEL: Record<Variant, string> = {
  vanilla: 'vanilla gateway, standalone (HTTP subgraphs, no plugins)',
  'vanilla-fastify': 'vanilla gateway on Fastify (HTTP subgraphs, no plugins)',
  'hive-js': 'Hive Gateway runtime, JS planner (HTTP subgraphs, defaults: fetch dedup on)',
  'hive-rust': 'Hive Gateway runtime, Rust planner (HTTP subgraphs, fetch dedup on)',
  'hive-rust-nodedup': 'Hive Gateway runtime, Rust planner (HTTP subgraphs, fetch dedup off)',
  'hive-rust-inbound': 'Hive Gateway runtime, Rust planner (HTTP subgraphs, fetch and inbound dedup on)',
  ours: 'our router, all plugins (HTTP subgraphs)',
  'ours-nodedup': 'our router, all plugins (HTTP subgraphs, in-flight dedup off)',
  embedded: 'our router, all plugins (embedded subgraphs)',
  'embedded-uncached': 'our router, all plugins (embedded subgraphs, response cache off)',
  'hive-rust-embedded': 'Hive Gateway runtime, Rust planner, in-process subgraphs (no plugins)',
};

/** What a child reports once it listens. */
interface Ready {
  url: string;
  /** The subgraphs process: the URL of each embedded variant. */
  embedded?: Partial<Record<Variant, string>>;
  keys: string[];
  urls?: Record<SubgraphName, string>;
}

// ---------------------------------------------------------------------------------------------------- child roles

/** 100 approved enterprise keys at the highest per-key limit (10,000/min), the way `keys create` makes them. */
async function makeKeys(keys: ApiKeyService): Promise<string[]> {
  const out: string[] = [];
  for (let k = 0; k < KEYS; k++)
    out.push((await keys.create({ plan: 'enterprise', description: `bench ${k}`, approve: true })).key);
  return out;
}

/** The safelist: exactly the two benchmark operations (persisted operations plugin in `safelist` mode). */
const manifest = (): ReadonlyMap<string, string> => new Map(Object.entries(QUERIES));

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  if (!addr || typeof addr !== 'object') throw new Error('no address');
  return `http://127.0.0.1:${addr.port}/graphql`;
}

/** As `startGraphPart`: a Fastify app with the product's error handling and body limit. */
function fastifyApp(): FastifyInstance {
  const app = Fastify({
    bodyLimit: 1_048_576,
    // Off while measuring, as `serve --only …`; BENCH_LOG=1 shows why a probe failed.
    ...(process.env.BENCH_LOG ? { logger: { level: 'error' } } : {}),
  });
  registerErrorHandling(app);
  return app;
}

async function serveSubgraphs(): Promise<Ready> {
  const tm = await createTestMarket({ days: DAYS });
  const db = tm.db;
  // A name with an LTC address, registered by a signed-in account (as the names API does).
  const auth = new AuthService(db, { domain: 'bench.local' });
  const w = wallet('LTC');
  const c = await auth.challenge(w.address);
  const s = await auth.signIn(w.address, w.sign(c.challenge), c.nonce);
  await new NameService(db, { suffix: 'coin', network: 'mainnet' }).register(
    { kind: 'account', account: s.account },
    `${NAME_LABEL}.coin`,
  );
  await upsertAddress(db, NAME_LABEL, 'LTC', w.address, Date.now());
  // The bridge's proof-of-reserves snapshot (demo chain data, a fresh attestation key).
  const deployment = loadDeployment('testnet');
  const dataDir = mkdtempSync(join(tmpdir(), 'cw-bench-graph-'));
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const por = await ensureDemoSnapshot(db, deployment, dataDir);
  if (por.status === 'skipped') throw new Error(`no proof-of-reserves snapshot: ${por.reason}`);
  const keys = new ApiKeyService(db, { pepper: PEPPER });
  const raw = await makeKeys(keys);

  const deps: GraphDeps = {
    db,
    market: tm.market,
    engine: engineConfig({ staleAfterMs: 900_000 }),
    keys,
    adminToken: null,
    services: createServices(db, { domain: 'bench.local', nameSuffix: 'coin', nameNetwork: 'mainnet' }),
    deployment,
    bridgeStaleAfterMs: 3_600_000,
  };
  const urls = {} as Record<SubgraphName, string>;
  for (const sg of createSubgraphs(deps)) {
    const app = fastifyApp();
    await mountSubgraph(app, sg);
    urls[sg.name] = await listen(app);
  }
  // The embedded router over the same store, with subgraph objects of its own: Apollo Server wraps every field
  // resolver of a schema it serves (its cache-control plugin), which the embedded product's schemas never are.
  // Twice: as the product runs it (response cache on), and with the response cache off (every request executes).
  const embedded = async (responseCache: boolean): Promise<string> => {
    const router = await createRouter({
      access: createAccess({ keys, limiter: createMemoryLimiter() }),
      persisted: { manifest: manifest(), mode: 'safelist' },
      subgraphs: { kind: 'in-process', subgraphs: createSubgraphs(deps) },
      responseCache,
    });
    const app = fastifyApp();
    await mountRouter(app, router);
    return listen(app);
  };
  const hive = createGatewayRuntime({
    supergraph: readFileSync(SUPERGRAPH_URL, 'utf8'),
    unifiedGraphHandler,
    // Our in-process sources as the runtime's transport (`router/engines/hive-sources.ts`), nothing else of ours.
    transports: {
      inprocess: sourcesTransport(
        createSources({ kind: 'in-process', subgraphs: createSubgraphs(deps) }, 5_000, { warn() {} }, false),
      ),
    },
    transportEntries: { '*': { kind: 'inprocess' } },
    logging: false,
    landingPage: false,
    graphiql: false,
  });
  const hiveServer = createServer(hive);
  await new Promise<void>((resolve) => hiveServer.listen(0, '127.0.0.1', resolve));
  const hiveAddr = hiveServer.address() as { port: number };
  return {
    url: '',
    embedded: {
      embedded: await embedded(true),
      'embedded-uncached': await embedded(false),
      'hive-rust-embedded': `http://127.0.0.1:${hiveAddr.port}/graphql`,
    },
    keys: raw,
    urls,
  };
}

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

async function serveGateway(variant: Variant, urls: Record<SubgraphName, string>): Promise<Ready> {
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
  const raw = await makeKeys(keys);
  const router: Router = await createRouter({
    access: createAccess({ keys, limiter: createMemoryLimiter() }),
    persisted: { manifest: manifest(), mode: 'safelist' },
    subgraphs: { kind: 'http', urls },
    dedupe: variant !== 'ours-nodedup',
  });
  const app = fastifyApp();
  await mountRouter(app, router);
  return { url: await listen(app), keys: raw };
}

// ---------------------------------------------------------------------------------------------------- orchestrator

interface Child {
  name: string;
  ready: Ready;
  /** The child's CPU time so far (user + system), ms. */
  cpuMs(): Promise<number>;
  /** Starts the CPU profiler in the child; `profileStop` writes what it sampled to `file`. */
  profileStart(): Promise<void>;
  profileStop(file: string): Promise<void>;
  stop(): Promise<void>;
}

const PROFILE = Boolean(process.env.PROFILE);
const PROFILE_DIR = process.env.PROFILE_DIR ?? join(tmpdir(), `cw-bench-graph-prof-${process.pid}`);

async function startChild(name: string, args: string[], timeoutMs = 600_000): Promise<Child> {
  const proc: ChildProcess = fork(
    join(import.meta.dirname, '..', 'bin', 'run-ts.js'),
    [import.meta.filename, ...args],
    { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const reply = (timeout: number) =>
    new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name}: no answer after ${timeout} ms`)), timeout);
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited with ${code}`));
      };
      proc.once('exit', onExit);
      proc.once('message', (m) => {
        clearTimeout(timer);
        proc.off('exit', onExit);
        resolve(m);
      });
    });
  const ready = (await reply(timeoutMs)) as Ready;
  return {
    name,
    ready,
    async cpuMs() {
      proc.send({ cmd: 'cpu' });
      return ((await reply(10_000)) as { cpuMs: number }).cpuMs;
    },
    async profileStart() {
      proc.send({ cmd: 'profile-start' });
      await reply(10_000);
    },
    async profileStop(file) {
      proc.send({ cmd: 'profile-stop', file });
      await reply(60_000);
    },
    async stop() {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

interface Row {
  rps: number;
  /** Responses in the run. */
  total: number;
  /**
   * CPU ms per response of the gateway process, of the subgraphs process (embedded: one process, counted as
   * `gateway`) and of this process (autocannon).
   */
  cpu: { gateway: number; subgraphs: number; client: number };
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  mismatches: number;
}

/** One autocannon run. A measured run with a non-2xx, a socket error or timeout, or an unexpected body aborts. */
async function load(
  url: string,
  query: string,
  keys: string[],
  expectBody: string,
  duration: number,
  warmUp = false,
): Promise<Row> {
  let i = 0;
  let mismatches = 0;
  const r = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration,
    // 50 connections queue behind a few hundred responses a second: on a busy machine a tail above autocannon's
    // default 10 s timeout is queueing, not a lost request.
    timeout: 30,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, 'x-sp-api-key': keys[i++ % keys.length] as string },
        }),
        // Every response must be the exact body this variant answered before the run (autocannon's `expectBody`
        // does not combine with `requests`).
        onResponse: (_status, body) => {
          if (body !== expectBody) mismatches++;
        },
      },
    ],
  });
  const row: Row = {
    rps: r.requests.average,
    total: r.requests.total,
    cpu: { gateway: 0, subgraphs: 0, client: 0 },
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    mismatches,
  };
  const bad = `${row.non2xx} non-2xx, ${row.errors} errors or timeouts, ${row.mismatches} unexpected bodies`;
  if (row.non2xx || row.errors || row.mismatches) {
    // A cold gateway under 50 connections on a busy machine may time out during warm-up: say so, go on.
    if (warmUp) console.log(`warm-up of ${url}: ${bad}`);
    else throw new Error(`${url}: ${bad}`);
  }
  return row;
}

/** One request; its body must be a 200 with data and no errors. Returns the raw body and the parsed data. */
async function probe(
  url: string,
  query: string,
  key: string,
): Promise<{ body: string; data: unknown; headers: Headers }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sp-api-key': key },
    body: JSON.stringify({ query }),
  });
  const body = await res.text();
  const parsed = JSON.parse(body) as { data?: unknown; errors?: unknown[] };
  if (res.status !== 200 || parsed.errors || !parsed.data)
    throw new Error(`${url}: ${res.status} ${body.slice(0, 500)}`);
  return { body, data: parsed.data, headers: res.headers };
}

const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] as number;

async function main(): Promise<void> {
  const only = <T extends string>(env: string | undefined, all: readonly T[]): T[] =>
    env ? all.filter((v) => env.split(',').includes(v)) : [...all];
  const variants = only(process.env.VARIANTS, VARIANTS);
  const queries = only(process.env.QUERIES, Object.keys(QUERIES) as QueryName[]);
  const children: Child[] = [];
  try {
    const t0 = Date.now();
    const sub = await startChild('subgraphs', ['--role', 'subgraphs']);
    children.push(sub);
    const urls = sub.ready.urls as Record<SubgraphName, string>;
    const targets = new Map<Variant, Ready>();
    /** The processes serving each variant (profiled with PROFILE=1). */
    const serving = new Map<Variant, Child[]>();
    for (const v of variants) {
      if (embeddedVariant(v)) {
        targets.set(v, { ...sub.ready, url: sub.ready.embedded?.[v] as string });
        serving.set(v, [sub]);
      } else {
        const g = await startChild(v, ['--role', 'gateway', '--variant', v, '--urls', JSON.stringify(urls)]);
        children.push(g);
        targets.set(v, g.ready);
        serving.set(v, [g, sub]);
      }
    }
    if (PROFILE) mkdirSync(PROFILE_DIR, { recursive: true });
    // Vanilla gateways get the same request bytes (a rotating key header they ignore).
    const anyKeys = sub.ready.keys;
    const keysOf = (v: Variant) => (targets.get(v)?.keys.length ? (targets.get(v) as Ready).keys : anyKeys);
    const load1 = () => loadavg()[0]?.toFixed(2);
    console.log(
      `start-up ${((Date.now() - t0) / 1000).toFixed(1)} s; ${cpus().length} CPUs, load average ${load1()} (other work on the machine moves req/s, far less CPU ms/response)`,
    );

    // Same data from every variant, else abort; each variant's exact body is then expected of every response.
    const expected = new Map<string, string>();
    for (const q of queries) {
      let reference: { v: Variant; data: unknown } | null = null;
      for (const v of variants) {
        const p = await probe((targets.get(v) as Ready).url, QUERIES[q], keysOf(v)[0] as string).catch(
          (e: unknown) => {
            throw new Error(`${v}, ${q}: ${e instanceof Error ? e.message : String(e)}`);
          },
        );
        if (!stockVariant(v)) {
          const h = (n: string) => p.headers.get(n);
          if (h('x-api-plan') !== 'enterprise' || h('x-ratelimit-limit') !== '10000' || !h('x-query-cost'))
            throw new Error(
              `${v}: the key, rate-limit or cost plugin did not run (x-api-plan ${h('x-api-plan')}, x-ratelimit-limit ${h('x-ratelimit-limit')}, x-query-cost ${h('x-query-cost')})`,
            );
          // The safelist is on: an operation outside the manifest is refused before parsing.
          const off = await fetch((targets.get(v) as Ready).url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-sp-api-key': keysOf(v)[0] as string },
            body: JSON.stringify({ query: '{ __typename }' }),
          });
          const code = ((await off.json()) as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]
            ?.extensions?.code;
          if (code !== 'PERSISTED_QUERY_NOT_IN_LIST')
            throw new Error(
              `${v}: the persisted-operations safelist did not refuse { __typename } (${code})`,
            );
        }
        if (!reference) reference = { v, data: p.data };
        else if (!isDeepStrictEqual(reference.data, p.data))
          throw new Error(`${v} and ${reference.v} answer ${q} differently:\n${p.body}`);
        expected.set(`${v} ${q}`, p.body);
      }
      const d = reference?.data as Record<string, unknown>;
      console.log(
        `${q}: identical data from ${variants.join(', ')} (${JSON.stringify(d).length} bytes of data)`,
      );
    }

    const results = new Map<string, Row[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const q of queries)
        for (const v of variants) {
          const t = targets.get(v) as Ready;
          const body = expected.get(`${v} ${q}`) as string;
          if (WARMUP > 0) await load(t.url, QUERIES[q], keysOf(v), body, WARMUP, true);
          const profiled = PROFILE ? (serving.get(v) ?? []) : [];
          for (const c of profiled) await c.profileStart();
          const procs = serving.get(v) ?? [];
          const before = await Promise.all(procs.map((c) => c.cpuMs()));
          const client = process.cpuUsage();
          const row = await load(t.url, QUERIES[q], keysOf(v), body, DURATION);
          const clientUsage = process.cpuUsage(client);
          const after = await Promise.all(procs.map((c) => c.cpuMs()));
          const perReq = (i: number) => ((after[i] ?? 0) - (before[i] ?? 0)) / row.total;
          row.cpu = {
            gateway: perReq(0),
            subgraphs: procs.length > 1 ? perReq(1) : 0,
            client: (clientUsage.user + clientUsage.system) / 1000 / row.total,
          };
          for (const c of profiled)
            await c.profileStop(
              join(PROFILE_DIR, `${v}.${q.replace(/\W+/g, '-')}.r${round}.${c.name}.cpuprofile`),
            );
          const k = `${v} ${q}`;
          results.set(k, [...(results.get(k) ?? []), row]);
          console.log(
            `round ${round} | ${v} | ${q} | ${row.rps.toFixed(0)} req/s | p50 ${row.p50} ms | p99 ${row.p99} ms | CPU ms/req ${row.cpu.gateway.toFixed(2)} + ${row.cpu.subgraphs.toFixed(2)}`,
          );
        }
    }

    console.log(
      `\n${DURATION} s per run after ${WARMUP} s warm-up, ${CONNECTIONS} connections, ${ROUNDS} round(s) interleaved, median round shown; ${KEYS} enterprise keys rotating; load average now ${load1()}`,
    );
    console.log(
      'variant | query | req/s | p50 / p99 ms | × vanilla | × Hive Gateway + Rust planner | req/s per round',
    );
    const pick = (k: string): Row | undefined => {
      const rows = results.get(k);
      if (!rows) return undefined;
      const m = median(rows.map((r) => r.rps));
      return rows.find((r) => r.rps === m);
    };
    for (const q of queries)
      for (const v of variants) {
        const r = pick(`${v} ${q}`) as Row;
        const ratio = (base: Variant) => {
          const b = pick(`${base} ${q}`);
          return b ? `${(r.rps / b.rps).toFixed(2)}×` : '–';
        };
        const rounds = (results.get(`${v} ${q}`) ?? []).map((x) => x.rps.toFixed(0)).join(', ');
        console.log(
          `${LABEL[v]} | ${q} | ${r.rps.toFixed(0)} | ${r.p50} / ${r.p99} | ${ratio('vanilla')} | ${ratio('hive-rust')} | ${rounds}`,
        );
      }

    // CPU time per response: what each process spent, whatever else the machine was running (medians of rounds).
    const cpuOf = (k: string) => {
      const rows = results.get(k);
      if (!rows) return undefined;
      const gateway = median(rows.map((r) => r.cpu.gateway));
      const subgraphs = median(rows.map((r) => r.cpu.subgraphs));
      return {
        gateway,
        subgraphs,
        total: median(rows.map((r) => r.cpu.gateway + r.cpu.subgraphs)),
        client: median(rows.map((r) => r.cpu.client)),
      };
    };
    console.log(
      '\nvariant | query | CPU ms/response: gateway | subgraphs | total | responses per CPU-second × vanilla | × Hive + Rust | autocannon CPU ms/response',
    );
    for (const q of queries)
      for (const v of variants) {
        const c = cpuOf(`${v} ${q}`);
        const base = cpuOf(`vanilla ${q}`);
        const hive = cpuOf(`hive-rust ${q}`);
        if (!c) continue;
        console.log(
          `${LABEL[v]} | ${q} | ${embeddedVariant(v) ? '(one process)' : c.gateway.toFixed(2)} | ${embeddedVariant(v) ? '' : c.subgraphs.toFixed(2)} | ${c.total.toFixed(2)} | ${base ? `${(base.total / c.total).toFixed(2)}×` : '–'} | ${hive ? `${(hive.total / c.total).toFixed(2)}×` : '–'} | ${c.client.toFixed(2)}`,
        );
      }
  } finally {
    for (const c of children.reverse()) await c.stop();
    if (PROFILE) console.log(`CPU profiles in ${PROFILE_DIR}`);
  }
}

// ---------------------------------------------------------------------------------------------------- entry

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};
const role = arg('--role');
if (role === undefined) await main();
else {
  // A child: reports readiness over IPC, profiles on request, exits on SIGTERM or when the parent goes away.
  const exit = () => process.exit(0);
  process.on('SIGTERM', exit);
  process.on('disconnect', exit);
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
    );
  process.on('message', (m: { cmd: string; file?: string }) => {
    void (async () => {
      if (m.cmd === 'profile-start') {
        await post('Profiler.enable');
        await post('Profiler.start');
      } else if (m.cmd === 'cpu') {
        const u = process.cpuUsage();
        process.send?.({ cpuMs: (u.user + u.system) / 1000 });
        return;
      } else if (m.cmd === 'profile-stop') {
        const { profile } = (await post('Profiler.stop')) as { profile: object };
        writeFileSync(m.file as string, JSON.stringify(profile));
      }
      process.send?.({ done: m.cmd });
    })();
  });
  const ready =
    role === 'subgraphs'
      ? await serveSubgraphs()
      : await serveGateway(
          arg('--variant') as Variant,
          JSON.parse(arg('--urls') ?? '{}') as Record<SubgraphName, string>,
        );
  process.send?.(ready);
}
