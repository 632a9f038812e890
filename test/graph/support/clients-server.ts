/**
 * The embedded graph on a loopback port for third-party clients driven on their defaults (`test/graph/clients.test.ts`
 * in Node, `test/browser/clients.e2e.ts` in Chromium): the router of `router-harness.ts` mounted on a Fastify app of
 * its own, one per test file. What each request carried is noted as the server sees it (the clients get no fetch
 * wrapper): `GET` or `POST`, `+text` when it carried query text. `routes` adds routes beside `/graphql` (the browser
 * test's page and bundle, so that the page and the graph share an origin).
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { mountRouter } from '../../../router/http.ts';
import { strictJsonBodies } from '../../../src/server/json-body.ts';
import { graphHarness } from '../router-harness.ts';
import type { GraphHarness } from '../router-harness.ts';

export interface ClientsServer {
  g: GraphHarness;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `<origin>/graphql` */
  url: string;
  /** What the graph's requests carried, in order (`seen.length = 0` to start again). */
  seen: string[];
  close(): Promise<void>;
}

const hasText = (body: unknown): boolean =>
  Array.isArray(body)
    ? body.some(hasText)
    : typeof body === 'object' && body !== null && typeof (body as { query?: unknown }).query === 'string';

export async function startClientsServer(routes?: (app: FastifyInstance) => void): Promise<ClientsServer> {
  // A keyless budget no client run here reaches (each test file is one caller, on one address).
  const g = await graphHarness({ keylessPerMinute: 100_000 });
  const seen: string[] = [];
  // Connections still open at the end are cut: one stays after Node 20's fetch aborts an SSE subscription
  // (docs/graph.md, "Clients").
  const app = Fastify({ forceCloseConnections: true });
  strictJsonBodies(app);
  app.addHook('preHandler', async (req) => {
    if (!req.url.startsWith('/graphql') || req.url.startsWith('/graphql/')) return;
    const text =
      req.method === 'GET' ? new URL(req.url, 'http://x').searchParams.has('query') : hasText(req.body);
    seen.push(`${req.method}${text ? '+text' : ''}`);
  });
  routes?.(app);
  await mountRouter(app, g.router);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    g,
    origin,
    url: `${origin}/graphql`,
    seen,
    async close() {
      await app.close();
      await g.close();
    },
  };
}
