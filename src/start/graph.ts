/**
 * The four subgraphs over this process's domain services: what the embedded router executes in-process and what
 * `coinwallet serve --only subgraph:<name>` serves on its own port.
 */
import type { ApiKeyService } from '../accounts/keys.ts';
import type { UsageReads } from '../access/usage.ts';
import type { Deployment } from '../bridge/model.ts';
import type { EngineConfig } from '../engine/snapshot.ts';
import type { MarketService } from '../market/service.ts';
import type { Services } from '../services.ts';
import type { Db } from '../store/db.ts';
import { createAccountsSubgraph } from '../../subgraphs/accounts/index.ts';
import { createBridgeSubgraph } from '../../subgraphs/bridge/index.ts';
import { createIdentitySubgraph } from '../../subgraphs/identity/index.ts';
import { createMarketsSubgraph } from '../../subgraphs/markets/index.ts';
import type { Subgraph, SubgraphName } from '../../subgraphs/shared/subgraph.ts';
import { SUBGRAPH_NAMES } from '../../subgraphs/shared/subgraph.ts';

export interface GraphDeps {
  db: Db;
  /** Needed by `markets` only. */
  market?: MarketService;
  engine: EngineConfig;
  /** Needed by `accounts` only. */
  keys?: ApiKeyService;
  /**
   * Request statistics for `accounts` (`ApiKey.usage`, `serviceStats`): this process's recorder, so its own pending
   * counts are written before a read; default a reader over `db`.
   */
  usage?: UsageReads;
  adminToken: string | null;
  /** The process's domain services (`src/services.ts`): the same instances REST uses. */
  services: Services;
  /** Needed by `bridge` only. */
  deployment?: Deployment;
  bridgeStaleAfterMs: number;
}

function need<T>(v: T | undefined, what: string, name: SubgraphName): T {
  if (v === undefined) throw new Error(`the ${name} subgraph needs ${what}`);
  return v;
}

export function createSubgraph(name: SubgraphName, deps: GraphDeps): Subgraph<unknown> {
  const { auth, names, dapps } = deps.services;
  switch (name) {
    case 'markets':
      return createMarketsSubgraph({
        market: need(deps.market, 'the market service', name),
        engine: deps.engine,
      });
    case 'identity':
      return createIdentitySubgraph({
        db: deps.db,
        auth,
        names,
      }) as Subgraph<unknown>;
    case 'bridge':
      return createBridgeSubgraph({
        db: deps.db,
        deployment: need(deps.deployment, 'the bridge deployment', name),
        staleAfterMs: deps.bridgeStaleAfterMs,
      }) as Subgraph<unknown>;
    case 'accounts':
      return createAccountsSubgraph({
        db: deps.db,
        keys: need(deps.keys, 'the API key service', name),
        ...(deps.usage ? { usage: deps.usage } : {}),
        auth,
        dapps,
        adminToken: deps.adminToken,
      }) as Subgraph<unknown>;
  }
}

export const createSubgraphs = (deps: GraphDeps): Subgraph<unknown>[] =>
  SUBGRAPH_NAMES.map((n) => createSubgraph(n, deps));
