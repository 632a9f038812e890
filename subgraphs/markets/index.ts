/**
 * The markets subgraph as a value: `createMarketsSubgraph({ market, engine })` gives the executable schema and the
 * per-request context factory. Side-effect free (no listener, no timers): `coinwallet serve --only subgraph:markets`
 * serves it (src/start/part.ts), the router embeds it, tests execute it.
 */
import type { ChartCache } from '../../src/market/charts.ts';
import type { Subgraph, SubgraphRequest } from '../shared/subgraph.ts';
import type { EngineConfig } from '../../src/engine/snapshot.ts';
import type { MarketService } from '../../src/market/service.ts';
import type { MarketsContext, MarketsStore } from './context.ts';
import { createLoaders, storeOf } from './loaders.ts';
import type { LoaderHooks } from './loaders.ts';
import { notReady } from './errors.ts';
import type { MarketSnapshot } from '../../src/engine/snapshot.ts';
import { resolvers } from './resolvers.ts';
import { buildSchema } from '../shared/schema.ts';
import { serveFloats } from '../shared/served-floats.ts';
import { snapshotStream } from '../../src/market/snapshot-stream.ts';

export interface MarketsSubgraphOptions {
  market: MarketService;
  engine: EngineConfig;
  /** What the resolvers read; default the market's snapshot and history (`storeOf(market)`). Tests count reads here. */
  store?: MarketsStore;
  /** Clock, UNIX ms; default the market's (`Date.now` in the product). */
  now?: () => number;
  /** Where charts are shared; default the market's (`MarketService.charts`, shared with the price API). */
  charts?: ChartCache;
  /** Loader hooks (tests record the batches). */
  hooks?: LoaderHooks;
}

export interface MarketsSubgraph extends Subgraph<MarketsContext> {
  /** A fresh context (fresh loaders) for one request. The request itself is not needed by this subgraph. */
  contextFor(req?: SubgraphRequest): MarketsContext;
}

export function createMarketsSubgraph(opts: MarketsSubgraphOptions): MarketsSubgraph {
  const store = opts.store ?? storeOf(opts.market);
  const now = opts.now ?? opts.market.now;
  const charts = opts.charts ?? opts.market.charts;
  /**
   * Per context, by its store view (a context's copy shares it: Apollo Server runs each operation on a shallow copy of
   * the context it is given): the snapshot it read when it read nothing else, else null (the response-cache facet),
   * and its snapshot taken on first use (the answer caches' `pin`).
   */
  const reads = new WeakMap<
    MarketsStore,
    { readOnly: () => MarketSnapshot | null; pin: () => MarketSnapshot | null }
  >();
  return {
    name: 'markets',
    schema: serveFloats(buildSchema('markets', resolvers)),
    contextFor: () => {
      // One snapshot per request, taken on first use. The request's view of the store serves that snapshot to the
      // resolvers and loaders; any other read (history, the open day, sources, mining) or a look at the clock
      // marks the request as depending on more than the snapshot.
      let snap: MarketSnapshot | null | undefined;
      let snapshotOnly = true;
      const pinned = (): MarketSnapshot | null => (snap === undefined ? (snap = store.snapshot()) : snap);
      const other = <A extends unknown[], R>(f: (...a: A) => R) => {
        return (...a: A): R => {
          snapshotOnly = false;
          return f(...a);
        };
      };
      const view: MarketsStore = {
        snapshot: pinned,
        readBarsMany: other((ids, res, from, to) => store.readBarsMany(ids, res, from, to)),
        openDailyBar: other((id, at) => store.openDailyBar(id, at)),
        ...(store.openBar ? { openBar: other(store.openBar.bind(store)) } : {}),
        ...(store.sources ? { sources: other(store.sources.bind(store)) } : {}),
        ...(store.readMining ? { readMining: other(store.readMining.bind(store)) } : {}),
      };
      const at = now();
      // The clock is read through the prototype: a shallow copy of the context (Apollo Server's) copies own
      // properties only, so copying does not count as a look at the clock.
      const clock = {
        get now() {
          snapshotOnly = false;
          return at;
        },
      };
      const ctx: MarketsContext = Object.assign(Object.create(clock) as { readonly now: number }, {
        store: view,
        snapshot: () => {
          const s = pinned();
          if (!s) throw notReady();
          return s;
        },
        engine: opts.engine,
        loaders: createLoaders(view, opts.hooks),
        charts,
        snapshots: () => snapshotStream(opts.market),
      });
      reads.set(view, { readOnly: () => (snapshotOnly ? (snap ?? null) : null), pin: pinned });
      return ctx;
    },
    responseCache: {
      current: () => store.snapshot(),
      readBy: (ctx) => reads.get(ctx.store)?.readOnly() ?? null,
      pin: (ctx) => reads.get(ctx.store)?.pin() ?? null,
    },
  };
}
