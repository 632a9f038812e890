/**
 * The embedded graph for router tests: one test market (10 days of demo history), the accounts REST API on the same
 * store (to sign in and make keys the way users do), the four subgraphs in-process and the router, mounted on
 * Fastify and driven with `inject`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { createAccess } from '../../src/access/access.ts';
import type { Access } from '../../src/access/access.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import { loadDeployment } from '../../src/bridge/deployment.ts';
import { ensureDemoSnapshot } from '../../src/bridge/snapshots.ts';
import { createSubgraphs } from '../../src/graph.ts';
import { engineConfig } from '../../src/product.ts';
import { createRouter } from '../../router/index.ts';
import type { Router, RouterOptions } from '../../router/index.ts';
import { mountRouter } from '../../router/http.ts';
import { ADMIN_TOKEN, DOMAIN, harness } from '../accounts/harness.ts';
import type { Harness } from '../accounts/harness.ts';
import { createTestMarket } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';

export interface GraphHarness {
  tm: TestMarket;
  rest: Harness;
  access: Access;
  router: Router;
  app: FastifyInstance;
  /** POST a GraphQL operation; returns status, headers and the parsed body. */
  gql(
    query: string,
    opts?: { variables?: Record<string, unknown>; headers?: Record<string, string>; operationName?: string },
  ): Promise<GqlResponse>;
  close(): Promise<void>;
}

export interface GqlResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
    extensions?: Record<string, unknown>;
  };
}

export async function graphHarness(
  opts: Partial<Omit<RouterOptions, 'subgraphs'>> & { keylessPerMinute?: number } = {},
): Promise<GraphHarness> {
  const tm = await createTestMarket({ days: 10 });
  const rest = await harness({ db: tm.db });
  const access = createAccess({
    keys: rest.keys,
    limiter: createMemoryLimiter(),
    keylessPerMinute: opts.keylessPerMinute,
  });
  const deployment = loadDeployment('testnet');
  const dataDir = mkdtempSync(join(tmpdir(), 'graph-router-'));
  await ensureDemoSnapshot(tm.db, deployment, dataDir);
  const router = await createRouter({
    access,
    ...opts,
    subgraphs: {
      kind: 'in-process',
      subgraphs: createSubgraphs({
        db: tm.db,
        market: tm.market,
        engine: engineConfig({ staleAfterMs: 900_000 }),
        keys: rest.keys,
        adminToken: ADMIN_TOKEN,
        domain: DOMAIN,
        nameSuffix: 'coin',
        nameNetwork: 'mainnet',
        deployment,
        bridgeStaleAfterMs: 3_600_000,
      }),
    },
  });
  const app = Fastify();
  await mountRouter(app, router);
  await app.ready();
  return {
    tm,
    rest,
    access,
    router,
    app,
    async gql(query, o = {}) {
      const r = await app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', ...o.headers },
        payload: JSON.stringify({ query, variables: o.variables, operationName: o.operationName }),
      });
      return { status: r.statusCode, headers: r.headers, body: JSON.parse(r.body) as GqlResponse['body'] };
    },
    async close() {
      await app.close();
      await router.stop();
      await rest.app.close();
      await tm.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
