/**
 * Kit test support: a name linked to an address the real way (sign-in, register, proof of control) on the embedded
 * graph, and a router over that graph that runs the kit's persisted documents only (safelist), on a real port, with
 * the product's CORS rules so a page on another origin can call it.
 */
import cors from '@fastify/cors';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { mountRouter } from '../../router/http.ts';
import { createRouter } from '../../router/index.ts';
import { KIT_PERSISTED_DOCUMENTS_PATH } from '../../src/server/browser/kit-manifest.ts';
import { CORS_ALLOWED_HEADERS } from '../../src/server/host.ts';
import { signIn } from '../accounts/harness.ts';
import type { Wallet } from '../accounts/harness.ts';
import type { GraphHarness } from '../graph/router-harness.ts';

let ips = 0;
/** A fresh client address for the harness's own calls (each has its own keyless budget). */
export const otherIp = (): string => `10.9.${Math.floor(++ips / 250)}.${ips % 250}`;

/** Registers `name` for `owner` and links `owner.address` for LTC (signed challenge), through the harness's router. */
export async function linkName(g: GraphHarness, name: string, owner: Wallet): Promise<void> {
  const token = await signIn(g.rest, owner);
  const headers = { authorization: `Bearer ${token}` };
  const ok = (r: Awaited<ReturnType<GraphHarness['gql']>>, what: string) => {
    if (r.body.errors?.length) throw new Error(`${what}: ${JSON.stringify(r.body.errors)}`);
    return r.body.data ?? {};
  };
  ok(
    await g.gql('mutation($n: String!) { registerName(name: $n) { name } }', {
      variables: { n: name },
      headers,
      ip: otherIp(),
    }),
    'registerName',
  );
  const ch = ok(
    await g.gql(
      'mutation($n: String!, $a: String!) { requestAddressChallenge(name: $n, asset: "LTC", address: $a) { challenge nonce } }',
      { variables: { n: name, a: owner.address }, headers, ip: otherIp() },
    ),
    'requestAddressChallenge',
  )['requestAddressChallenge'] as { challenge: string; nonce: string };
  ok(
    await g.gql(
      'mutation($n: String!, $a: String!, $s: String!, $c: String!) { linkAddress(name: $n, asset: "LTC", address: $a, signature: $s, nonce: $c) { name } }',
      {
        variables: { n: name, a: owner.address, s: owner.sign(ch.challenge), c: ch.nonce },
        headers,
        ip: otherIp(),
      },
    ),
    'linkAddress',
  );
}

export interface KitRouterServer {
  /** `http://127.0.0.1:<port>`: the kit's `baseUrl`. */
  baseUrl: string;
  close(): Promise<void>;
}

/** A router over the harness's graph (same store, keys, budgets) in safelist mode with the kit's manifest. */
export async function kitRouterServer(g: GraphHarness): Promise<KitRouterServer> {
  const router = await createRouter({
    access: g.access,
    persisted: { manifest: KIT_PERSISTED_DOCUMENTS_PATH, mode: 'safelist' },
    subgraphs: { kind: 'in-process', subgraphs: g.subgraphs },
  });
  const app = Fastify();
  await app.register(cors, {
    origin: true,
    methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
  });
  await mountRouter(app, router);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: () => app.close(),
  };
}
