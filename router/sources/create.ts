/**
 * Where the engine sends each subgraph's part of a query plan (`router/sources/`):
 *
 * - `in-process.ts` `InProcessSource` (embedded mode): executes the subgraph's schema in this process — no HTTP hop, no JSON
 *   round trip. The subgraph context (and so its DataLoaders) is made once per router request and shared by every
 *   fetch of that request to the subgraph.
 * - `http.ts` `HttpSource` (scale-out mode): POSTs to the subgraph's URL over a keep-alive `node:http`/`node:https` agent,
 *   forwarding `authorization`. (Not `fetch`: per call it cost 2.6× the client CPU — bench/README.md.) An identical
 *   query fetch (same body, same forwarded headers) while one is in flight shares its answer (`router/inflight.ts`).
 *
 * Both answer a failure or a timeout with a GraphQL error naming the subgraph (`SUBGRAPH_UNAVAILABLE`,
 * `SUBGRAPH_TIMEOUT`) — never internals — and the gateway returns everything else (partial results).
 */
import type { Logger } from '../../src/core/log.ts';
import { SUBGRAPH_NAMES } from '../../subgraphs/shared/subgraph.ts';
import { HttpSource } from './http.ts';
import { InProcessSource } from './in-process.ts';
import { ObservedSource } from './source.ts';
import type { RouterSubgraphs, SubgraphFetchObserver, SubgraphSource } from './source.ts';

/** Closes the kept-alive connections of the HTTP sources (an engine's `stop`). */
export function closeSources(sources: ReadonlyMap<string, SubgraphSource>): void {
  for (const s of sources.values()) s.close?.();
}

/** The four subgraphs' sources for the router's options: in-process (embedded) or over HTTP (scale-out). */
export function createSources(
  subgraphs: RouterSubgraphs,
  timeoutMs: number,
  log: Pick<Logger, 'warn'>,
  dedupe: boolean,
  observe?: SubgraphFetchObserver,
): Map<string, SubgraphSource> {
  const sources = new Map<string, SubgraphSource>();
  if (subgraphs.kind === 'in-process') {
    for (const sg of subgraphs.subgraphs) sources.set(sg.name, new InProcessSource(sg, timeoutMs, log));
  } else {
    for (const name of SUBGRAPH_NAMES)
      sources.set(name, new HttpSource(name, subgraphs.urls[name], timeoutMs, log, dedupe));
  }
  for (const name of SUBGRAPH_NAMES)
    if (!sources.has(name)) throw new Error(`router: no source for the ${name} subgraph`);
  if (observe) for (const [name, s] of sources) sources.set(name, new ObservedSource(name, s, observe));
  return sources;
}
