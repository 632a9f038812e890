/**
 * The graph benchmark's settings (environment variables, see graph.bench.ts), its two identical-body operations (the
 * varied ones are in workload.ts) and its variants: which gateway, which planner, which subgraph transport.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SubgraphName } from '../../subgraphs/shared/subgraph.ts';

export const DURATION = Number(process.env.DURATION ?? 10);
export const WARMUP = Number(process.env.WARMUP ?? 3);
export const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
export const ROUNDS = Number(process.env.ROUNDS ?? 3);
/** Days of demo history in the store (the markets subgraph's 24 h figures need more than one). */
export const DAYS = 3;
/** Enterprise keys at 10,000/min each, rotated per request: 16,700 req/s of budget, above what the graph serves. */
export const KEYS = 100;
export const PEPPER = 'bench-pepper-0123456789abcdef';
export const NAME_LABEL = 'bench';
/** The registered names of the varied workload (`bench` first, the most asked), each with an LTC address. */
export const NAME_LABELS: readonly string[] = [
  NAME_LABEL,
  ...Array.from({ length: 39 }, (_, i) => `${NAME_LABEL}-${i + 1}`),
];
/** `identical`: one body per operation from every connection; `varied`: variables drawn per request (workload.ts). */
export const WORKLOADS = ['identical', 'varied'] as const;
export type Workload = (typeof WORKLOADS)[number];

export const QUERIES = {
  nested: `{
  coins(first: 10) { edges { node { id price marketCap } } }
  bridge { coins { ticker coin { id price } } proofOfReserves { stale } }
  resolveName(name: "${NAME_LABEL}.coin", asset: "LTC") { address coin { id price } }
}`,
  'coins(first: 100)': `{
  coins(first: 100) { edges { node { id symbol price volume24h changes { h24 } } } }
}`,
} as const;
export type QueryName = keyof typeof QUERIES;

export const VARIANTS = [
  'vanilla',
  'vanilla-fastify',
  'hive-js',
  'hive-rust',
  'hive-rust-nodedup',
  'hive-rust-inbound',
  'ours',
  'ours-nodedup',
  'ours-apps',
  'ours-unobserved',
  'ours-observed',
  'embedded',
  'embedded-uncached',
  'hive-rust-embedded',
] as const;
export type Variant = (typeof VARIANTS)[number];
const EMBEDDED: readonly Variant[] = ['embedded', 'embedded-uncached', 'hive-rust-embedded'];
export const embeddedVariant = (v: Variant): boolean => EMBEDDED.includes(v);
/** Variants with none of our plugins (no key, rate-limit, cost or safelist checks to probe). */
export const stockVariant = (v: Variant): boolean => v.startsWith('vanilla') || v.startsWith('hive-');
export const LABEL: Record<Variant, string> = {
  vanilla: 'vanilla gateway, standalone (HTTP subgraphs, no plugins)',
  'vanilla-fastify': 'vanilla gateway on Fastify (HTTP subgraphs, no plugins)',
  'hive-js': 'Hive Gateway runtime, JS planner (HTTP subgraphs, defaults: fetch dedup on)',
  'hive-rust': 'Hive Gateway runtime, Rust planner (HTTP subgraphs, fetch dedup on)',
  'hive-rust-nodedup': 'Hive Gateway runtime, Rust planner (HTTP subgraphs, fetch dedup off)',
  'hive-rust-inbound': 'Hive Gateway runtime, Rust planner (HTTP subgraphs, fetch and inbound dedup on)',
  ours: 'our router, all plugins (HTTP subgraphs)',
  'ours-nodedup': 'our router, all plugins (HTTP subgraphs, in-flight dedup off)',
  'ours-apps':
    'our router, all plugins, every key trusted-only in an app holding the safelist (HTTP subgraphs)',
  'ours-unobserved':
    'our router through the process wiring, observability off: LOG_LEVEL=error, no metrics (HTTP subgraphs)',
  'ours-observed': 'our router as operated: access lines to a file, metrics, tracing off (HTTP subgraphs)',
  embedded: 'our router, all plugins (embedded subgraphs)',
  'embedded-uncached': 'our router, all plugins (embedded subgraphs, response cache off)',
  'hive-rust-embedded': 'Hive Gateway runtime, Rust planner, in-process subgraphs (no plugins)',
};

/** What a child reports once it listens. */
export interface Ready {
  url: string;
  /** The subgraphs process: the URL of each embedded variant. */
  embedded?: Partial<Record<Variant, string>>;
  keys: string[];
  urls?: Record<SubgraphName, string>;
}

export const PROFILE = Boolean(process.env.PROFILE);
export const PROFILE_DIR = process.env.PROFILE_DIR ?? join(tmpdir(), `cw-bench-graph-prof-${process.pid}`);
