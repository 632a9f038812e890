/**
 * The markets subgraph as a value: `createMarketsSubgraph({ market, engine })` gives the executable schema and the
 * per-request context factory. Side-effect free (no listener, no timers): `main.ts` serves it, tests execute it.
 */
import type { Subgraph, SubgraphRequest } from '../shared/subgraph.ts';
import type { EngineConfig } from '../../src/engine/snapshot.ts';
import type { MarketService } from '../../src/market/service.ts';
import type { MarketsContext, MarketsStore } from './context.ts';
import { createLoaders, storeOf } from './loaders.ts';
import type { LoaderHooks } from './loaders.ts';
import { notReady } from './errors.ts';
import type { MarketSnapshot } from '../../src/engine/snapshot.ts';
import { buildMarketsSchema } from './schema.ts';

export interface MarketsSubgraphOptions {
  market: MarketService;
  engine: EngineConfig;
  /** What the resolvers read; default the market's snapshot and history (`storeOf(market)`). Tests count reads here. */
  store?: MarketsStore;
  /** Clock, UNIX ms; default `Date.now`. */
  now?: () => number;
  /** Loader hooks (tests record the batches). */
  hooks?: LoaderHooks;
}

export interface MarketsSubgraph extends Subgraph<MarketsContext> {
  /** A fresh context (fresh loaders) for one request. The request itself is not needed by this subgraph. */
  contextFor(req?: SubgraphRequest): MarketsContext;
}

export function createMarketsSubgraph(opts: MarketsSubgraphOptions): MarketsSubgraph {
  const store = opts.store ?? storeOf(opts.market);
  const now = opts.now ?? Date.now;
  return {
    name: 'markets',
    schema: buildMarketsSchema(),
    contextFor: () => {
      let snap: MarketSnapshot | null = null;
      return {
        store,
        snapshot: () => {
          snap ??= store.snapshot();
          if (!snap) throw notReady();
          return snap;
        },
        engine: opts.engine,
        now: now(),
        loaders: createLoaders(store, opts.hooks),
      };
    },
  };
}
