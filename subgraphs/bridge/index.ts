/**
 * The bridge subgraph as a value: `createBridgeSubgraph({ bridge })` gives the executable schema and the per-request
 * context factory. Side-effect free (no listener, no timers, no store access until a request asks):
 * `coinwallet serve --only subgraph:bridge` serves it (src/start/part.ts), the router embeds it, tests execute it.
 * Read only, like the REST bridge API (docs/bridge.md).
 */
import type { BridgeService } from '../../src/bridge/service.ts';
import type { Subgraph, SubgraphRequest } from '../shared/subgraph.ts';
import type { BridgeContext } from './context.ts';
import { createLoaders } from './loaders.ts';
import type { LoaderHooks } from './loaders.ts';
import { resolvers } from './resolvers.ts';
import { buildSchema } from '../shared/schema.ts';
import { serveFloats } from '../shared/served-floats.ts';

export interface BridgeSubgraphOptions {
  /**
   * The bridge service of the active deployment (`src/services.ts`: the REST bridge API's), with its staleness
   * threshold (`BRIDGE_STALE_AFTER_MS`) and its clock, read once per request.
   */
  bridge: BridgeService;
  /** Loader hooks (tests record the batches). */
  hooks?: LoaderHooks;
}

export interface BridgeSubgraph extends Subgraph<BridgeContext> {
  /** A fresh context (fresh loaders, the clock read now) for one request. The request itself is not needed. */
  contextFor(req?: SubgraphRequest): BridgeContext;
}

export function createBridgeSubgraph(opts: BridgeSubgraphOptions): BridgeSubgraph {
  const { bridge } = opts;
  return {
    name: 'bridge',
    schema: serveFloats(buildSchema('bridge', resolvers)),
    contextFor: () => ({
      bridge,
      deployment: bridge.deployment,
      now: bridge.now(),
      staleAfterMs: bridge.staleAfterMs,
      loaders: createLoaders(bridge, opts.hooks),
    }),
  };
}
