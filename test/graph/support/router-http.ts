/**
 * Shared by the tests of the router as an HTTP service (`router-http.test.ts`, `router-persisted.test.ts`,
 * `router-graphql-http.test.ts`): the embedded graph of `router-harness.ts` with a keyless budget large enough for
 * the fuzz, a request straight to a router and a POST to the graph's `/graphql`.
 */
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import type { Router } from '../../../router/index.ts';
import { graphHarness } from '../router-harness.ts';
import type { GqlBody, GraphHarness, RawResponse } from '../router-harness.ts';

export { codes } from './router.ts';

/** The embedded graph, its keyless budget large enough for the fuzz. */
export const httpGraphHarness = (): Promise<GraphHarness> => graphHarness({ keylessPerMinute: 100_000 });

/** `httpGraphHarness` listening on a free loopback port, and its `/graphql` URL. */
export async function listeningGraph(): Promise<{ g: GraphHarness; url: string }> {
  const g = await httpGraphHarness();
  await g.app.listen({ port: 0, host: '127.0.0.1' });
  return { g, url: `http://127.0.0.1:${(g.app.server.address() as AddressInfo).port}/graphql` };
}

export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** One request straight to a router (no transport). */
export async function send(
  router: Router,
  body: unknown,
  o: { method?: string; search?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, string>; json: GqlBody }> {
  const r = await router.handle({
    method: o.method ?? 'POST',
    headers: { 'content-type': 'application/json', 'apollo-require-preflight': 'true', ...o.headers },
    search: o.search ?? '',
    body,
    socketIp: '10.2.0.1',
  });
  return { status: r.status, headers: r.headers, json: JSON.parse(r.body) as GqlBody };
}

/** `post(payload, headers)`: a POST to `/graphql` of the graph of `current()` (read when the request is made). */
export function graphPost(
  current: () => GraphHarness,
): (payload: string | unknown, headers?: Record<string, string>) => Promise<RawResponse> {
  return async (payload, headers = {}) =>
    current().inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
}
