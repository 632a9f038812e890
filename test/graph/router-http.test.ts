/**
 * The router as an HTTP service, part one: partial results when a subgraph fails, in process and over HTTP (the
 * subgraphs served by `mountSubgraph`), with nothing internal in the response. Built over the embedded graph of
 * `support/router-http.ts`; automatic persisted queries and manifests are in `router-persisted.test.ts`, GraphQL over
 * HTTP and the fuzz in `router-graphql-http.test.ts`.
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineConfig } from '../../src/start/wiring.ts';
import { createRouter } from '../../router/index.ts';
import type { Router } from '../../router/index.ts';
import type { Logger } from '../../src/core/log.ts';
import { createMarketsSubgraph } from '../../subgraphs/markets/index.ts';
import { storeOf } from '../../subgraphs/markets/loaders.ts';
import { mountSubgraph } from '../../subgraphs/shared/http.ts';
import type { MountedSubgraph } from '../../subgraphs/shared/http.ts';
import type { Subgraph, SubgraphName } from '../../subgraphs/shared/subgraph.ts';
import type { GraphHarness } from './router-harness.ts';
import { codes, httpGraphHarness, send } from './support/router-http.ts';

let g: GraphHarness;

/** How the wrapped markets subgraph behaves. */
type Mode = 'ok' | 'throw' | 'hang' | 'resolver' | 'down' | 'html';
let mode: Mode = 'ok';
const SECRET = 'SECRET-db-password-hunter2';
/** What the routers over the wrapped markets subgraph logged. */
const logged: { level: string; msg: string; data: unknown }[] = [];
const log: Logger = {
  info: (msg, data) => logged.push({ level: 'info', msg, data }),
  warn: (msg, data) => logged.push({ level: 'warn', msg, data }),
  error: (msg, data) => logged.push({ level: 'error', msg, data }),
};
/** In process: the four subgraphs with markets wrapped. */
let flaky: Router;
/** Over HTTP: the four subgraphs served by `mountSubgraph` (markets wrapped), the router calling them. */
let subgraphApp: FastifyInstance;
const mountedSubgraphs: MountedSubgraph[] = [];
let remote: Router;

/** Generous, so that a healthy but busy machine never times out; the slow subgraph takes three times as long. */
const TIMEOUT_MS = 1_000;

beforeAll(async () => {
  g = await httpGraphHarness();
  const markets = g.subgraphs.find((s) => s.name === 'markets')!;
  // A markets subgraph whose store fails: its resolvers throw a plain Error (not a GraphQLError).
  const broken = createMarketsSubgraph({
    market: g.tm.market,
    engine: engineConfig({ staleAfterMs: 900_000 }),
    store: {
      ...storeOf(g.tm.market),
      snapshot: () => {
        throw new Error(`snapshot read failed: ${SECRET}`);
      },
    },
  });
  const wrapped: Subgraph<unknown> = {
    name: 'markets',
    schema: markets.schema,
    contextFor: async (req) => {
      if (mode === 'throw') throw new Error(`connection refused: ${SECRET}`);
      if (mode === 'hang') await new Promise((r) => setTimeout(r, TIMEOUT_MS * 3));
      if (mode === 'resolver') return broken.contextFor(req);
      return markets.contextFor(req);
    },
  };
  const withWrapped = g.subgraphs.map((s) => (s.name === 'markets' ? wrapped : s));
  flaky = await createRouter({
    access: g.access,
    subgraphTimeoutMs: TIMEOUT_MS,
    log,
    subgraphs: { kind: 'in-process', subgraphs: withWrapped },
  });

  subgraphApp = Fastify();
  subgraphApp.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/markets')) return;
    if (mode === 'down') reply.raw.destroy();
    if (mode === 'html') return reply.code(502).type('text/html').send(`<html>${SECRET}</html>`);
  });
  for (const s of withWrapped) mountedSubgraphs.push(await mountSubgraph(subgraphApp, s, `/${s.name}`));
  await subgraphApp.listen({ port: 0, host: '127.0.0.1' });
  const port = (subgraphApp.server.address() as AddressInfo).port;
  const urls = Object.fromEntries(
    withWrapped.map((s) => [s.name, `http://127.0.0.1:${port}/${s.name}`]),
  ) as Record<SubgraphName, string>;
  remote = await createRouter({
    access: g.access,
    subgraphTimeoutMs: TIMEOUT_MS,
    log,
    subgraphs: { kind: 'http', urls },
  });
  // Warm both routers up (first query plans, HTTP connections) before anything is timed.
  for (const r of [flaky, remote])
    await send(r, { query: '{ coin(id: "bitcoin") { id } bridge { label } }' });
}, 120_000);

afterAll(async () => {
  mode = 'ok';
  await flaky?.stop();
  await remote?.stop();
  for (const m of mountedSubgraphs) await m.stop();
  await subgraphApp?.close();
  await g?.close();
});

/** Nothing internal in a response: no original error text, no stack trace. */
function expectNoLeak(text: string): void {
  expect(text).not.toContain('SECRET');
  expect(text).not.toContain('stacktrace');
  expect(text).not.toMatch(/\bat .+:\d+:\d+/);
  expect(text).not.toContain('node_modules');
}

describe('partial results when a subgraph fails', () => {
  const BOTH = '{ coin(id: "bitcoin") { id name price } bridge { label coins { ticker coin { id name } } } }';
  const NESTED = '{ bridge { coins { ticker coin { id name } } } }';
  const label = 'Example testnet deployment: illustrative addresses, recorded chain data';

  for (const [kind, router] of [
    ['in process', () => flaky],
    ['over HTTP', () => remote],
  ] as const) {
    it(`${kind}: a healthy markets subgraph answers everything`, async () => {
      mode = 'ok';
      const r = await send(router(), { query: BOTH });
      expect(r.json.errors, JSON.stringify(r.json.errors)).toBeUndefined();
      expect(r.json.data).toEqual({
        coin: { id: 'bitcoin', name: 'Bitcoin', price: expect.any(Number) as number },
        bridge: {
          label,
          coins: [
            { ticker: 'LKY', coin: { id: 'luckycoin', name: 'Luckycoin' } },
            { ticker: 'DOGE', coin: { id: 'dogecoin', name: 'Dogecoin' } },
          ],
        },
      });
    });

    it(`${kind}: an unreachable markets subgraph is SUBGRAPH_UNAVAILABLE; bridge data still arrives`, async () => {
      mode = kind === 'in process' ? 'throw' : 'down';
      logged.length = 0;
      const r = await send(router(), { query: BOTH });
      expect(r.status).toBe(200);
      expect(r.json.data).toEqual({
        coin: null,
        bridge: {
          label,
          coins: [
            { ticker: 'LKY', coin: null },
            { ticker: 'DOGE', coin: null },
          ],
        },
      });
      const unavailable = {
        message: 'the markets service is unavailable: its fields are null in this response; retry later',
        extensions: { code: 'SUBGRAPH_UNAVAILABLE', subgraph: 'markets', serviceName: 'markets' },
      };
      // The root fetch and the entity fetch for the bridge coins each report it.
      expect(r.json.errors).toEqual([unavailable, unavailable]);
      expect(r.json.extensions).toMatchObject({ cost: { estimated: 10, max: 2500, plan: 'keyless' } });
      expectNoLeak(JSON.stringify(r));
      // The operator's log has what the client does not.
      expect(logged.some((l) => l.level === 'warn' && JSON.stringify(l.data).includes('markets'))).toBe(true);
      if (kind === 'in process') expect(JSON.stringify(logged)).toContain(SECRET);
    });

    it(`${kind}: a markets subgraph slower than subgraphTimeoutMs is SUBGRAPH_TIMEOUT`, async () => {
      mode = 'hang';
      logged.length = 0;
      const t0 = Date.now();
      const r = await send(router(), { query: BOTH });
      expect(Date.now() - t0).toBeLessThan(TIMEOUT_MS * 2.5);
      expect(r.json.data).toEqual({
        coin: null,
        bridge: {
          label,
          coins: [
            { ticker: 'LKY', coin: null },
            { ticker: 'DOGE', coin: null },
          ],
        },
      });
      const timedOut = {
        message: `the markets service did not answer within ${TIMEOUT_MS} ms: its fields are null in this response; retry later`,
        extensions: { code: 'SUBGRAPH_TIMEOUT', subgraph: 'markets', serviceName: 'markets' },
      };
      expect(r.json.errors).toEqual([timedOut, timedOut]);
      expect(logged.filter((l) => l.level === 'warn')).toHaveLength(2);
    });

    it(`${kind}: a resolver's unexpected error is "internal error in the markets service", at its path`, async () => {
      mode = 'resolver';
      logged.length = 0;
      const r = await send(router(), { query: BOTH });
      expect(r.json.data).toEqual({
        coin: null,
        bridge: {
          label,
          coins: [
            { ticker: 'LKY', coin: null },
            { ticker: 'DOGE', coin: null },
          ],
        },
      });
      const internal = (path: (string | number)[]) => ({
        message: 'internal error in the markets service',
        path,
        extensions: { code: 'INTERNAL_SERVER_ERROR', subgraph: 'markets', serviceName: 'markets' },
      });
      expect(r.json.errors).toEqual([
        internal(['coin']),
        internal(['bridge', 'coins', 0, 'coin']),
        internal(['bridge', 'coins', 1, 'coin']),
      ]);
      expectNoLeak(JSON.stringify(r));
      expect(JSON.stringify(logged)).toContain(SECRET);
    });

    it(`${kind}: the nested entity call alone (bridge coins → Coin) fails soft`, async () => {
      mode = 'throw';
      const r = await send(router(), { query: NESTED });
      expect(r.json.data).toEqual({
        bridge: {
          coins: [
            { ticker: 'LKY', coin: null },
            { ticker: 'DOGE', coin: null },
          ],
        },
      });
      // Over HTTP a context that throws is the subgraph server's internal error; in process the source's.
      expect(codes(r.json)).toEqual([
        kind === 'in process' ? 'SUBGRAPH_UNAVAILABLE' : 'INTERNAL_SERVER_ERROR',
      ]);
      expect(r.json.errors?.[0]?.extensions?.['subgraph']).toBe('markets');
      expectNoLeak(JSON.stringify(r));
      mode = 'ok';
    });
  }

  it('over HTTP: a subgraph answering without JSON is SUBGRAPH_UNAVAILABLE', async () => {
    mode = 'html';
    const r = await send(remote, { query: '{ coin(id: "bitcoin") { id } bridge { label } }' });
    expect(r.json.data).toEqual({ coin: null, bridge: { label } });
    expect(codes(r.json)).toEqual(['SUBGRAPH_UNAVAILABLE']);
    expectNoLeak(JSON.stringify(r));
    mode = 'ok';
  });
});
