/** What `createRouter` takes (`router/index.ts`): where the subgraphs are, the access layer, limits, caches. */
import type { Logger } from '../src/core/log.ts';
import type { KeyValueCache } from '@apollo/utils.keyvaluecache';
import type { Access } from '../src/access/access.ts';
import type { AppPolicies } from '../src/accounts/app-policy.ts';
import type { LoadShedder } from '../src/access/overload.ts';
import type { CallerPlan } from '../src/access/plans.ts';
import type { UsageSink } from '../src/access/usage.ts';
import type { Limits } from './plugins/limits.ts';
import type { PersistedManifest, SafelistMode } from './plugins/persisted-operations.ts';
import type { ResponseCacheOptions } from './response-cache.ts';
import type { RouterSubgraphs, SubgraphFetchObserver } from './sources/source.ts';

export type RouterPlanner = 'rust' | 'js';

/** Calls `onSnapshot` whenever the market publishes a new snapshot; returns the function that stops it. */
export type SnapshotFeed = (onSnapshot: () => void) => () => void;

/**
 * The query planner when `RouterOptions.planner` is not given. The router reads no environment: the product passes
 * `ROUTER_PLANNER` as the configuration read it (`AppConfig.routerPlanner`).
 */
export const DEFAULT_PLANNER: RouterPlanner = 'rust';

export interface RouterOptions {
  subgraphs: RouterSubgraphs;
  /**
   * The query planner: the Rust one of `@graphql-hive/router-runtime` or the runtime's JavaScript one. Default
   * {@link DEFAULT_PLANNER}.
   */
  planner?: RouterPlanner;
  /** The access layer shared with REST (keys, budgets). Omitted → no key or rate-limit plugins (bench baseline). */
  access?:
    | (Pick<Access, 'identify' | 'admit' | 'spent' | 'charge' | 'correct' | 'enter'> &
        Partial<Pick<Access, 'openStream' | 'idsPerStream'>>)
    | undefined;
  /** Supergraph SDL; default the committed `schema/supergraph.graphql`. */
  supergraphSdl?: string;
  costLimits?: Partial<Record<CallerPlan, number>>;
  /** List size assumed for a list field without `@listSize` (default 10). */
  defaultListSize?: number;
  /** Flat cost of `__schema` / `__type` (default 50). */
  introspectionCost?: number;
  limits?: Partial<Limits>;
  /** Per-subgraph-fetch timeout, ms (default 5,000). */
  subgraphTimeoutMs?: number;
  /**
   * The apps' per-key policy (docs/apps.md): allowed origins and trusted documents of a key's app. Needs `access`.
   * Omitted → no app rules.
   */
  apps?: AppPolicies | undefined;
  /** Persisted operations manifest (a file path or a parsed manifest) and how strictly to apply it. */
  persisted?: { manifest: string | PersistedManifest; mode: SafelistMode } | undefined;
  /**
   * Embedded mode: answer a query whose data came only from the current market snapshot from memory while that
   * snapshot is current (`router/response-cache.ts`; exact, the per-caller checks still run). Default true (500
   * entries, 16 MiB of JSON); ignored with HTTP subgraphs (the router does not see their data's version).
   */
  responseCache?: boolean | ResponseCacheOptions;
  /**
   * Embedded mode: a query one subgraph answers whole is executed against that subgraph directly, without the
   * gateway's plan and result processing (`router/direct-execution.ts`; a result with errors goes through the
   * gateway). Default true; ignored with HTTP subgraphs.
   */
  directExecution?: boolean;
  /**
   * In-flight deduplication (`router/inflight.ts`): an identical query (same body, `accept`, `authorization` and plan)
   * arriving while one executes shares its answer, every request still passing the per-caller checks; and over HTTP,
   * an identical query fetch to a subgraph (same body and forwarded headers) shares the one in flight. Never a
   * mutation. Default true.
   */
  dedupe?: boolean;
  /**
   * Called after every subgraph fetch with its duration and outcome (`ok`, `timeout`, `unavailable`, `error`: the
   * subgraph answered errors only): the process's metrics. Default none.
   */
  onSubgraphFetch?: SubgraphFetchObserver;
  /** Where automatic persisted queries are kept; default an in-process LRU. `false` turns APQ off. */
  apqCache?: KeyValueCache<string> | false;
  /**
   * Request statistics (`src/access/usage.ts`): each operation (a request refused whole: once) under the caller's
   * plan with its HTTP status, and each estimated cost; each trusted document of the key's app with its outcome and
   * measured cost (usage per document). The per-key counts are the access layer's. Omitted → none.
   */
  usage?: Pick<UsageSink, 'request' | 'cost' | 'operation'> | undefined;
  /**
   * Refuses operations that would execute (not answered from the response cache) while the process is overloaded:
   * 503 `OVERLOADED` (`src/access/overload.ts`). Default none.
   */
  shedder?: Pick<LoadShedder, 'begin' | 'heavyTurn'> | undefined;
  /**
   * When the market publishes a new snapshot, so that live subscriptions are computed again and pushed
   * (`router/subscriptions/`): the market service's own (embedded) or the markets subgraph's publication through
   * Redis (scale-out). Omitted → subscriptions get their first event only, until `subscriptions.tick()` is called.
   */
  snapshots?: SnapshotFeed;
  log?: Logger;
}
