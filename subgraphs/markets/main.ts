/**
 * Standalone listener of the markets subgraph (Apollo Server), for running it on its own behind the router:
 * `node bin/run-ts.js subgraphs/markets/main.ts`. Never imported by tests or by the product.
 *
 * Env: `PORT` (default 4001), `DATABASE_URL` (default: in-memory PGlite, empty until ingested).
 */
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { MarketService } from '../../src/market/service.ts';
import { engineConfig } from '../../src/product.ts';
import { openDb } from '../../src/store/open.ts';
import type { MarketsContext } from './context.ts';
import { createMarketsSubgraph } from './index.ts';

const db = await openDb({ databaseUrl: process.env['DATABASE_URL'] });
const engine = engineConfig({ staleAfterMs: 900_000 });
const market = new MarketService({ db, engine });
await market.load();
await market.ingest([]);
market.start();

const subgraph = createMarketsSubgraph({ market, engine });
const server = new ApolloServer<MarketsContext>({ schema: subgraph.schema });
const { url } = await startStandaloneServer(server, {
  listen: { port: Number(process.env['PORT'] ?? 4001) },
  context: async ({ req }) => subgraph.contextFor(req),
});
console.log(`markets subgraph at ${url}`);
