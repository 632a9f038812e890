/**
 * The router's section: where a scale-out router finds the subgraphs, how long it waits for them, its planner, and
 * the persisted operations it serves. A leaf, so the subgraphs' names are this file's own list, held equal to
 * `subgraphs/shared/subgraph.ts`'s by test/architecture/config-vocabulary.test.ts.
 */
import { ConfigError } from '../config-error.ts';
import { bool, int, pairs } from './read.ts';

/** The subgraphs `SUBGRAPH_URLS` names (`subgraphs/shared/subgraph.ts`'s `SUBGRAPH_NAMES`). */
export const CONFIG_SUBGRAPHS = ['markets', 'identity', 'bridge', 'accounts'] as const;
type ConfigSubgraph = (typeof CONFIG_SUBGRAPHS)[number];

export interface RouterSection {
  /**
   * `SUBGRAPH_URLS`: `markets=http://…/graphql,identity=…,bridge=…,accounts=…` — where a router started with
   * `serve --only router` finds the four subgraphs. Required in that mode, ignored otherwise.
   */
  subgraphUrls: Partial<Record<ConfigSubgraph, string>>;
  /** `ROUTER_SUBGRAPH_TIMEOUT_MS`, default 5,000: a subgraph fetch slower than this yields null fields + an error. */
  routerSubgraphTimeoutMs: number;
  /** `ROUTER_PLANNER`, default `rust`: the router's query planner (`router/engines/hive.ts`), or `js`. */
  routerPlanner: 'rust' | 'js';
  /**
   * `READY_REQUIRES_SUBGRAPHS`, default `true`: a scale-out router's `/readyz` answers 503 while a subgraph process is
   * not ready. `false`: the router stays ready and answers with partial results (the missing subgraph's fields null).
   */
  readyRequiresSubgraphs: boolean;
  /** `PERSISTED_OPERATIONS`: a persisted-operations manifest file for the router; unset → none. */
  persistedOperations: string | undefined;
  /** `PERSISTED_OPERATIONS_MODE`: `allow` (default: manifest ids plus any other operation) or `safelist`. */
  persistedOperationsMode: 'allow' | 'safelist';
}

export function routerSection(env: NodeJS.ProcessEnv): RouterSection {
  return {
    subgraphUrls: subgraphUrls(env.SUBGRAPH_URLS),
    routerSubgraphTimeoutMs: int(env, 'ROUTER_SUBGRAPH_TIMEOUT_MS', 5_000, 10, 600_000),
    routerPlanner: routerPlanner(env.ROUTER_PLANNER),
    readyRequiresSubgraphs: bool(env, 'READY_REQUIRES_SUBGRAPHS', true),
    persistedOperations: env.PERSISTED_OPERATIONS || undefined,
    persistedOperationsMode: safelistMode(env.PERSISTED_OPERATIONS_MODE),
  };
}

function subgraphUrls(v: string | undefined): Partial<Record<ConfigSubgraph, string>> {
  const out: Partial<Record<ConfigSubgraph, string>> = {};
  if (!v) return out;
  const expected = 'name=url pairs such as markets=http://127.0.0.1:4001/graphql,identity=…';
  for (const [k, url] of pairs(v, 'SUBGRAPH_URLS', expected)) {
    if (!(CONFIG_SUBGRAPHS as readonly string[]).includes(k))
      throw new ConfigError(`SUBGRAPH_URLS: ${k} is not a subgraph (${CONFIG_SUBGRAPHS.join(', ')})`);
    if (!/^https?:\/\/\S+$/.test(url)) throw new ConfigError(`SUBGRAPH_URLS: ${k} needs an http(s) URL`);
    out[k as ConfigSubgraph] = url;
  }
  return out;
}

function routerPlanner(v: string | undefined): 'rust' | 'js' {
  if (v === undefined || v === '' || v === 'rust') return 'rust';
  if (v === 'js') return 'js';
  throw new ConfigError('ROUTER_PLANNER must be rust or js');
}

function safelistMode(v: string | undefined): 'allow' | 'safelist' {
  if (v === undefined || v === '') return 'allow';
  if (v !== 'allow' && v !== 'safelist')
    throw new ConfigError('PERSISTED_OPERATIONS_MODE must be allow or safelist');
  return v;
}
