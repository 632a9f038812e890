/**
 * Shared by the tests of the router's access, budget, cost and shape rules and of every surface of the graph reached
 * through it (`router.test.ts`, `router-cost.test.ts`, `router-surfaces.test.ts`), over the embedded graph
 * (`router-harness.ts`: test market, accounts REST API, the four subgraphs in process, the router on Fastify).
 * Keyless requests use their own client address per test (`remoteAddress`), so each starts with a fresh keyless
 * budget and the `x-ratelimit-remaining` values are exact.
 */
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { createAccess } from '../../../src/access/access.ts';
import { createMemoryLimiter } from '../../../src/access/limiter.ts';
import { accessHook } from '../../../src/rest/access-hook.ts';
import { createRouter } from '../../../router/index.ts';
import type { Router } from '../../../router/index.ts';
import { graphHarness } from '../router-harness.ts';
import type { GqlBody, GraphHarness, RawResponse } from '../router-harness.ts';

export interface RouterGraph {
  g: GraphHarness;
  /** A REST service guarded by the same access layer (the price API's `onRequest` hook), sharing the budgets. */
  rest: FastifyInstance;
  /** A second router over the same subgraphs: keyless budget 2 a minute, keyless cost ceiling 10, depth 4. */
  small: Router;
  close(): Promise<void>;
}

/** The embedded graph, the REST service behind its access layer and the `small` router (one per test file). */
export async function startRouterGraph(): Promise<RouterGraph> {
  const g = await graphHarness();
  const rest = Fastify();
  accessHook(g.access, { prefixes: ['/v1'] })(rest);
  rest.get('/v1/ping', async () => ({ ok: true }));
  await rest.ready();
  const small = await createRouter({
    access: createAccess({ keys: g.rest.keys, limiter: createMemoryLimiter(), keylessPerMinute: 2 }),
    costLimits: { keyless: 10 },
    limits: { maxDepth: 4 },
    subgraphs: { kind: 'in-process', subgraphs: g.subgraphs },
  });
  return {
    g,
    rest,
    small,
    async close() {
      await small.stop();
      await rest.close();
      await g.close();
    },
  };
}

let ipCount = 0;
/** A client address of its own: a fresh keyless budget. */
export const freshIp = (): string => {
  ipCount++;
  return `10.1.${Math.floor(ipCount / 200)}.${(ipCount % 200) + 1}`;
};

export const codes = (b: GqlBody): unknown[] => (b.errors ?? []).map((e) => e.extensions?.['code']);

export const CHEAP = '{ coin(id: "bitcoin") { id name } }';
export const UNKNOWN_KEY = `cw_live_${'Z'.repeat(40)}`;

/** Requests to the graph of `current()` (read when each request is made, once the test file's graph is started). */
export function routerRequests(current: () => RouterGraph) {
  async function post(
    payload: unknown,
    o: { headers?: Record<string, string>; ip?: string; url?: string } = {},
  ): Promise<RawResponse> {
    return current().g.inject({
      method: 'POST',
      url: o.url ?? '/graphql',
      headers: { 'content-type': 'application/json', ...o.headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      remoteAddress: o.ip ?? freshIp(),
    });
  }

  async function get(
    params: Record<string, string>,
    o: { headers?: Record<string, string>; ip?: string } = {},
  ): Promise<RawResponse> {
    return current().g.inject({
      method: 'GET',
      url: `/graphql?${new URLSearchParams(params).toString()}`,
      headers: { 'apollo-require-preflight': 'true', ...o.headers },
      remoteAddress: o.ip ?? freshIp(),
    });
  }

  /** One request to the REST service behind the access hook. */
  async function restPing(
    key: string,
  ): Promise<{ status: number; headers: Record<string, unknown>; body: unknown }> {
    const r = await current().rest.inject({
      method: 'GET',
      url: '/v1/ping',
      headers: { 'x-sp-api-key': key },
    });
    return { status: r.statusCode, headers: r.headers, body: JSON.parse(r.body) as unknown };
  }

  /** A request to the `small` router, transport-free. */
  async function viaSmall(
    body: unknown,
    ip: string,
  ): Promise<{ status: number; headers: Record<string, string>; json: GqlBody }> {
    const r = await current().small.handle({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      search: '',
      body,
      socketIp: ip,
    });
    return { status: r.status, headers: r.headers, json: JSON.parse(r.body) as GqlBody };
  }

  return { post, get, restPing, viaSmall };
}
