/**
 * The embedded graph for router tests: one test market (10 days of demo history), the accounts REST API on the same
 * store (to sign in and make keys the way users do), the four subgraphs in-process and the router, mounted on
 * Fastify and driven with `inject`.
 *
 * Work done behind the router is counted: `counts.contexts[name]` (subgraph contexts made: one per router request
 * that reaches the subgraph) and `counts.barReads` (history reads of the market), so a test can prove that a refused
 * operation executed nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { createAccess } from '../../src/access/access.ts';
import type { Access } from '../../src/access/access.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import type { Plan } from '../../src/access/plans.ts';
import { UsageRecorder } from '../../src/access/usage-recorder.ts';
import type { UsageRecorderOptions } from '../../src/access/usage-recorder.ts';
import { loadDeployment } from '../../src/bridge/deployment.ts';
import type { Deployment } from '../../src/bridge/model.ts';
import { ensureDemoSnapshot } from '../../src/bridge/snapshots.ts';
import { createSubgraphs } from '../../src/start/graph.ts';
import { engineConfig } from '../../src/start/wiring.ts';
import { createRouter } from '../../router/index.ts';
import type { Router, RouterOptions } from '../../router/index.ts';
import { mountRouter } from '../../router/http.ts';
import { strictJsonBodies } from '../../src/server/json-body.ts';
import type { Subgraph, SubgraphName } from '../../subgraphs/shared/subgraph.ts';
import { ADMIN_TOKEN, call, DOMAIN, harness } from '../accounts/harness.ts';
import type { Harness } from '../accounts/harness.ts';
import { createTestMarket } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';
import { createServices } from '../../src/services.ts';

export interface GraphHarness {
  tm: TestMarket;
  rest: Harness;
  access: Access;
  router: Router;
  app: FastifyInstance;
  /** The bridge deployment the bridge subgraph serves (its demo snapshot is in the store). */
  deployment: Deployment;
  /** The subgraphs the router embeds (counting wrappers), for building other routers over the same graph. */
  subgraphs: Subgraph<unknown>[];
  /**
   * The request statistics, when the harness was asked for them (`usage` option): one recorder over the test store,
   * wired like the product's (access layer, router, accounts subgraph). Null otherwise.
   */
  usage: UsageRecorder | null;
  /** Work done behind the router since the last {@link GraphHarness.resetCounts}. */
  counts: { contexts: Record<SubgraphName, number>; barReads: number };
  resetCounts(): void;
  /** POST a GraphQL operation; returns status, headers and the parsed body. */
  gql(
    query: string,
    opts?: {
      variables?: Record<string, unknown>;
      headers?: Record<string, string>;
      operationName?: string;
      /** The client's address (each test may use its own keyless budget). */
      ip?: string;
    },
  ): Promise<GqlResponse>;
  /** Any request to the Fastify app; the body is parsed when it is JSON. */
  inject(opts: InjectOptions): Promise<RawResponse>;
  /** An API key made through the operator's REST route (`approve: false` leaves it pending). */
  makeKey(
    plan: Plan,
    opts?: { approve?: boolean; limitPerMinute?: number },
  ): Promise<{ key: string; id: string }>;
  close(): Promise<void>;
}

export interface GqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
  extensions?: Record<string, unknown>;
}

export interface GqlResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: GqlBody;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

export async function graphHarness(
  opts: Partial<Omit<RouterOptions, 'subgraphs' | 'usage'>> & {
    keylessPerMinute?: number;
    /** Record request statistics (`GraphHarness.usage`) with these recorder options. */
    usage?: UsageRecorderOptions;
    /** The market's clock after its history is loaded (default always `TEST_NOW`). */
    now?: () => number;
    /** Push live subscriptions on every snapshot the market publishes, as the product does. */
    liveSubscriptions?: boolean;
  } = {},
): Promise<GraphHarness> {
  const tm = await createTestMarket({ days: 10, ...(opts.now ? { now: opts.now } : {}) });
  const rest = await harness({ db: tm.db });
  // The subgraphs read sessions with the real clock: sessions and keys made through REST must be current.
  rest.clock.now = Date.now();
  const usage = opts.usage ? new UsageRecorder(tm.db, opts.usage) : null;
  const access = createAccess({
    keys: rest.keys,
    limiter: createMemoryLimiter(),
    keylessPerMinute: opts.keylessPerMinute,
    ...(usage ? { usage } : {}),
  });
  const deployment = loadDeployment('testnet');
  const dataDir = mkdtempSync(join(tmpdir(), 'graph-router-'));
  await ensureDemoSnapshot(tm.db, deployment, dataDir);

  const counts: GraphHarness['counts'] = {
    contexts: { markets: 0, identity: 0, bridge: 0, accounts: 0 },
    barReads: 0,
  };
  // History reads: the markets subgraph's store calls the market's `readBarsMany` (subgraphs/markets/loaders.ts).
  const readBarsMany = tm.market.readBarsMany.bind(tm.market);
  tm.market.readBarsMany = (...args: Parameters<typeof readBarsMany>) => {
    counts.barReads++;
    return readBarsMany(...args);
  };
  const subgraphs = createSubgraphs({
    market: tm.market,
    engine: engineConfig({ staleAfterMs: 900_000 }),
    adminToken: ADMIN_TOKEN,
    services: createServices(
      tm.db,
      {
        domain: DOMAIN,
        nameSuffix: 'coin',
        nameNetwork: 'mainnet',
        bridge: { deployment, staleAfterMs: 3_600_000 },
      },
      { keys: rest.keys, usage: usage ?? undefined },
    ),
  }).map((sg): Subgraph<unknown> => ({
    name: sg.name,
    schema: sg.schema,
    contextFor: (req) => {
      counts.contexts[sg.name]++;
      return sg.contextFor(req);
    },
    // As in the product: the markets subgraph lets the router answer repeated snapshot-only queries from memory.
    ...(sg.responseCache ? { responseCache: sg.responseCache } : {}),
  }));
  const { keylessPerMinute: _k, usage: _u, now: _n, liveSubscriptions, ...routerOpts } = opts;
  const router = await createRouter({
    access,
    ...(liveSubscriptions ? { snapshots: (tick: () => void) => tm.market.onSnapshot(() => tick()) } : {}),
    ...routerOpts,
    ...(usage ? { usage } : {}),
    subgraphs: { kind: 'in-process', subgraphs },
  });
  const app = Fastify();
  strictJsonBodies(app); // as the product's server (src/start/server.ts)
  await mountRouter(app, router);
  await app.ready();

  const inject = async (o: InjectOptions): Promise<RawResponse> => {
    const r = await app.inject(o);
    return { status: r.statusCode, headers: r.headers, text: r.body, json: parseJson(r.body) };
  };

  return {
    tm,
    rest,
    access,
    router,
    app,
    deployment,
    subgraphs,
    usage,
    counts,
    resetCounts() {
      for (const k of Object.keys(counts.contexts) as SubgraphName[]) counts.contexts[k] = 0;
      counts.barReads = 0;
    },
    async gql(query, o = {}) {
      const r = await app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', ...o.headers },
        payload: JSON.stringify({ query, variables: o.variables, operationName: o.operationName }),
        ...(o.ip ? { remoteAddress: o.ip } : {}),
      });
      return { status: r.statusCode, headers: r.headers, body: JSON.parse(r.body) as GqlBody };
    },
    inject,
    async makeKey(plan, o = {}) {
      const r = await call(rest, 'POST', '/api/admin/api-keys', {
        token: ADMIN_TOKEN,
        body: {
          plan,
          description: `router test ${plan} key`,
          approve: o.approve ?? true,
          ...(o.limitPerMinute !== undefined ? { limitPerMinute: o.limitPerMinute } : {}),
        },
      });
      if (r.status !== 201) throw new Error(`make key: ${r.status} ${r.raw.body}`);
      return { key: r.body['key'] as string, id: r.body['id'] as string };
    },
    async close() {
      await app.close();
      await router.stop();
      await rest.keys.flush();
      await usage?.close();
      await rest.app.close();
      await tm.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
