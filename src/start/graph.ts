/**
 * The four subgraphs over this process's domain services: what the embedded router executes in-process and what
 * `coinwallet serve --only subgraph:<name>` serves on its own port.
 */
import type { EngineConfig } from '../engine/snapshot.ts';
import type { MarketService } from '../market/service.ts';
import type { KeyServices, Services } from '../services.ts';
import { createAccountsSubgraph } from '../../subgraphs/accounts/index.ts';
import { createBridgeSubgraph } from '../../subgraphs/bridge/index.ts';
import { createIdentitySubgraph } from '../../subgraphs/identity/index.ts';
import { createMarketsSubgraph } from '../../subgraphs/markets/index.ts';
import type { Subgraph, SubgraphName } from '../../subgraphs/shared/subgraph.ts';
import { SUBGRAPH_NAMES } from '../../subgraphs/shared/subgraph.ts';

export interface GraphDeps {
  /** Needed by `markets` only. */
  market?: MarketService;
  engine: EngineConfig;
  adminToken: string | null;
  /**
   * The process's domain services (`src/services.ts`): the same instances REST uses. `bridge` needs the bridge
   * service (a deployment given to `createServices`), `accounts` the key services (the access layer's).
   */
  services: Services & Partial<KeyServices>;
}

function need<T>(v: T | null | undefined, what: string, name: SubgraphName): T {
  if (v === undefined || v === null) throw new Error(`the ${name} subgraph needs ${what}`);
  return v;
}

export function createSubgraph(name: SubgraphName, deps: GraphDeps): Subgraph<unknown> {
  const s = deps.services;
  switch (name) {
    case 'markets':
      return createMarketsSubgraph({
        market: need(deps.market, 'the market service', name),
        engine: deps.engine,
      });
    case 'identity':
      return createIdentitySubgraph({ auth: s.auth, names: s.names }) as Subgraph<unknown>;
    case 'bridge':
      return createBridgeSubgraph({
        bridge: need(s.bridge, 'the bridge deployment', name),
      }) as Subgraph<unknown>;
    case 'accounts':
      return createAccountsSubgraph({
        services: {
          ...s,
          keys: need(s.keys, 'the API key service', name),
          ownKeys: need(s.ownKeys, 'the API key service', name),
        },
        adminToken: deps.adminToken,
      }) as Subgraph<unknown>;
  }
}

export const createSubgraphs = (deps: GraphDeps): Subgraph<unknown>[] =>
  SUBGRAPH_NAMES.map((n) => createSubgraph(n, deps));
