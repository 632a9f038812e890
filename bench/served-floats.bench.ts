/**
 * What the served-number rule costs the graph: `node bin/run-ts.js bench/served-floats.bench.ts [rounds]`.
 *
 * Executes one Float-heavy query — `coins(first: 100)` with price, market cap, volume, 24 h range and changes in EUR,
 * supply, the 7-day sparkline (about 24,000 Float values) — against the markets subgraph's schema built two ways in
 * the same process: as shipped (every `Float` field wrapped by `serveFloats`) and without the wrapping (the baseline),
 * interleaved round by round on the same snapshot and context. Prints ms per execution (median) for both and the
 * ratio. Timings are printed, never asserted.
 */
import { createRequire } from 'node:module';
import type * as GraphQL from 'graphql';
import { engineConfig } from '../src/start/wiring.ts';
import { createMarketsSubgraph } from '../subgraphs/markets/index.ts';
import { resolvers } from '../subgraphs/markets/resolvers.ts';
import { buildSchema } from '../subgraphs/shared/schema.ts';
import { createTestMarket, TEST_NOW } from '../test/support/price-app.ts';

const { execute, parse } = createRequire(import.meta.url)('graphql') as typeof GraphQL;
const ROUNDS = Number(process.argv[2] ?? 20);
const PER_ROUND = 20;

const QUERY = parse(`{ coins(first: 100) { edges { node {
  price(currency: "eur") marketCap(currency: "eur") volume24h(currency: "eur") high24h(currency: "eur")
  low24h(currency: "eur") priceChange24h(currency: "eur") marketCapChangePercentage24h confidence
  supply { circulating total max } changes { h1 h24 d7 d30 y1 } sparkline7d(currency: "eur")
} } } }`);

const tm = await createTestMarket({ days: 10 });
const sg = createMarketsSubgraph({
  market: tm.market,
  engine: engineConfig({ staleAfterMs: 900_000 }),
  now: () => TEST_NOW,
});
const plain = buildSchema('markets', resolvers);

async function time(schema: GraphQL.GraphQLSchema): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < PER_ROUND; i++) {
    const r = await execute({ schema, document: QUERY, contextValue: sg.contextFor() });
    if (r.errors) throw new Error(JSON.stringify(r.errors));
  }
  return (performance.now() - t0) / PER_ROUND;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
for (let i = 0; i < 3; i++) await Promise.all([time(sg.schema), time(plain)]); // warm-up
const served: number[] = [];
const baseline: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  served.push(await time(sg.schema));
  baseline.push(await time(plain));
}
const r = await execute({ schema: sg.schema, document: QUERY, contextValue: sg.contextFor() });
const floats = JSON.stringify(r.data).match(/-?\d+\.\d+(e-?\d+)?/g)?.length ?? 0;
console.log(
  `coins(first: 100), ${floats} non-integer numbers per answer, ${ROUNDS} rounds × ${PER_ROUND} executions`,
);
console.log(`baseline (no wrapping): ${median(baseline).toFixed(2)} ms per execution (median)`);
console.log(`served (serveFloats):   ${median(served).toFixed(2)} ms per execution (median)`);
console.log(`served / baseline: ${(median(served) / median(baseline)).toFixed(3)}×`);
await tm.close();
