/**
 * What executes an operation once the router's HTTP phase has admitted it: the seam between the router's own rules
 * (`router/index.ts`: key, budget, batch, safelist, usage, in-flight deduplication) and the GraphQL engine that
 * parses, validates, plans and calls the subgraphs, running the plugins' operation phase on the way
 * (`router/engines/`).
 */
import { directExecutor, resolvesAllItsFields } from './direct-execution.ts';
import type { DirectExecutor } from './direct-execution.ts';
import type { RouterLog, RouterOptions } from './index.ts';
import type { RequestState, RouterPlugin } from './plugin.ts';
import type { Limits } from './plugins/limits.ts';
import type { ResponseCacheStats } from './response-cache.ts';

/** One operation as handed to the engine: GraphQL over HTTP, the body already read. */
export interface EngineRequest {
  method: string;
  /** Lowercase header names. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The URL's query string without `?` (GET: the operation). */
  search: string;
  /** The JSON body (POST), or undefined. */
  body: unknown;
}

/** One operation's answer (shared by identical queries in flight: `router/inflight.ts`). */
export interface Executed {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The estimated cost, when the cost plugin made an estimate. */
  cost: number | null;
}

export interface EngineOptions extends RouterOptions {
  log: RouterLog;
  timeoutMs: number;
  limits: Limits;
  /** The plugins, in order; the engine runs their `onOperation` and `onResponse`. */
  plugins: readonly RouterPlugin[];
  supergraphSdl: string;
}

export interface Engine {
  execute(req: EngineRequest, state: RequestState): Promise<Executed>;
  responseCacheStats(): ResponseCacheStats | null;
  directExecutions(): number;
  stop(): Promise<void>;
}

/** Embedded mode with direct execution on: one executor per subgraph that resolves all its fields itself. */
export function directExecutors(opts: EngineOptions, onAnswered: () => void): DirectExecutor[] {
  if (opts.subgraphs.kind !== 'in-process' || opts.directExecution === false) return [];
  return opts.subgraphs.subgraphs
    .filter((sg) => resolvesAllItsFields(sg.schema))
    .map((sg) => directExecutor(sg, { timeoutMs: opts.timeoutMs, log: opts.log, onAnswered }));
}
