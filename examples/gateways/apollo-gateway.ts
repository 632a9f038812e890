/**
 * A vanilla Apollo Gateway (`@apollo/gateway` on `@apollo/server`) in front of our four subgraphs, instead of our
 * router (docs/gateways.md):
 *
 *   npx coinwallet supergraph --url markets=http://127.0.0.1:4001/graphql --url identity=… --url bridge=… \
 *     --url accounts=… > supergraph.graphql
 *   SUPERGRAPH=supergraph.graphql PORT=4000 node bin/run-ts.js examples/gateways/apollo-gateway.ts
 *
 * The subgraph URLs come from the printed supergraph (no `serviceList`, no managed federation: nothing is fetched
 * from Apollo); the only addition to Apollo's defaults is forwarding two headers, which `RemoteGraphQLDataSource`
 * does not do by itself. `test/e2e/gateways.e2e.ts` runs exactly this file.
 */
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';

// Apollo Gateway exports usage data to Apollo (probing cloud metadata endpoints first) unless this is set when it is
// constructed: a gateway of ours connects to its subgraphs only.
process.env['APOLLO_TELEMETRY_DISABLED'] ??= 'true';

/** The session token (identity and accounts read it) and the request id (every subgraph logs it). */
const FORWARDED = ['authorization', 'x-request-id'] as const;

interface Context {
  forwarded: Record<string, string>;
}

const forwardedOf = (headers: IncomingHttpHeaders): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const h of FORWARDED) {
    const v = headers[h];
    if (typeof v === 'string' && v !== '') out[h] = v;
  }
  return out;
};

const gateway = new ApolloGateway({
  supergraphSdl: readFileSync(process.env['SUPERGRAPH'] ?? 'supergraph.graphql', 'utf8'),
  buildService: ({ url }) =>
    new RemoteGraphQLDataSource<Context>({
      ...(url ? { url } : {}),
      willSendRequest({ request, context }) {
        // The gateway's own requests (none with a static supergraph) have no client context.
        const forwarded = (context as Partial<Context>).forwarded ?? {};
        for (const [h, v] of Object.entries(forwarded)) request.http?.headers.set(h, v);
      },
    }),
});

const server = new ApolloServer<Context>({ gateway });
const { url } = await startStandaloneServer(server, {
  listen: { port: Number(process.env['PORT'] ?? 4000), host: process.env['HOST'] ?? '127.0.0.1' },
  context: async ({ req }) => ({ forwarded: forwardedOf(req.headers) }),
});
process.stderr.write(`apollo-gateway listening on ${url}\n`);
