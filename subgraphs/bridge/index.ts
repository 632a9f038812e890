/**
 * The bridge subgraph as a value: `createBridgeSubgraph({ db, deployment, staleAfterMs })` gives the executable
 * schema and the per-request context factory. Side-effect free (no listener, no timers, no store access until a
 * request asks): `coinwallet serve --only subgraph:bridge` serves it (src/start/part.ts), the router embeds it, tests
 * execute it. Read only, like the REST bridge API (docs/bridge.md).
 */
import type { Deployment } from '../../src/bridge/model.ts';
import type { Db } from '../../src/store/db.ts';
import type { Subgraph, SubgraphRequest } from '../shared/subgraph.ts';
import type { BridgeContext } from './context.ts';
import { createLoaders } from './loaders.ts';
import type { LoaderHooks } from './loaders.ts';
import { resolvers } from './resolvers.ts';
import { buildSchema } from '../shared/schema.ts';
import { serveFloats } from '../shared/served-floats.ts';

export interface BridgeSubgraphOptions {
  /** The store holding `bridge_snapshots`; tests count its reads here. */
  db: Db;
  /** The active deployment (`loadDeployment(BRIDGE_NETWORK)`), as given to the REST bridge API. */
  deployment: Deployment;
  /** A snapshot whose figures are older than this (ms) is served with `stale: true` (`BRIDGE_STALE_AFTER_MS`). */
  staleAfterMs: number;
  /** Clock, UNIX ms; default `Date.now`. Read once per request. */
  now?: () => number;
  /** Loader hooks (tests record the batches). */
  hooks?: LoaderHooks;
}

export interface BridgeSubgraph extends Subgraph<BridgeContext> {
  /** A fresh context (fresh loaders, the clock read now) for one request. The request itself is not needed. */
  contextFor(req?: SubgraphRequest): BridgeContext;
}

export function createBridgeSubgraph(opts: BridgeSubgraphOptions): BridgeSubgraph {
  const { db, deployment, staleAfterMs } = opts;
  const now = opts.now ?? Date.now;
  return {
    name: 'bridge',
    schema: serveFloats(buildSchema('bridge', resolvers)),
    contextFor: () => ({
      db,
      deployment,
      now: now(),
      staleAfterMs,
      loaders: createLoaders(db, deployment, opts.hooks),
    }),
  };
}
