/**
 * Hive Gateway (`@graphql-hive/gateway`) in front of our four subgraphs, instead of our router (docs/gateways.md):
 *
 *   npx coinwallet supergraph --url markets=http://127.0.0.1:4001/graphql --url identity=… --url bridge=… \
 *     --url accounts=… > supergraph.graphql
 *   npx hive-gateway supergraph supergraph.graphql -c examples/gateways/hive-gateway.config.ts --port 4000
 *
 * The subgraph URLs come from the printed supergraph; this file adds only what a stock Hive Gateway does not do by
 * itself. `test/e2e/gateways.e2e.ts` runs exactly this file.
 */
import { defineConfig } from '@graphql-hive/gateway';

export const gatewayConfig = defineConfig({
  // Hive Gateway's default (JavaScript) query planner: with `--hive-router-runtime` (the Rust planner our router runs
  // on, faster) a stock Hive Gateway answers some operations wrongly (docs/gateways.md).
  // The session token reaches identity and accounts (`me`, the mutations). `x-request-id` needs nothing: Hive Gateway
  // forwards the client's (or one it makes) to every subgraph fetch by default.
  propagateHeaders: {
    fromClientToSubgraphs: ({ request }) => ({ authorization: request.headers.get('authorization') }),
  },
});
