/**
 * The embedded transport of the Hive Gateway runtime: each subgraph's part of a plan is executed against the
 * subgraph's schema in this process (no HTTP hop, no JSON round trip). The subgraph context (and so its DataLoaders)
 * is made once per gateway request and shared by every fetch of that request to the subgraph, as the Apollo-based
 * router's `InProcessSource` does.
 *
 * Use: `transports: { inprocess: inProcessTransport(subgraphs) }, transportEntries: { '*': { kind: 'inprocess' } }`.
 */
import type { Transport } from '@graphql-mesh/transport-common';
import type { ExecutionRequest, ExecutionResult } from '@graphql-tools/utils';
import { execute } from 'graphql';
import type { Subgraph } from '../../subgraphs/shared/subgraph.ts';

/** Per gateway request (its context object): the subgraph contexts made so far. */
const contexts = new WeakMap<object, Map<string, Promise<unknown>>>();

function headersOf(ctx: unknown): Record<string, string | undefined> {
  const req = (ctx as { request?: { headers?: Headers } } | undefined)?.request;
  const out: Record<string, string | undefined> = {};
  req?.headers?.forEach((v, k) => (out[k] = v));
  return out;
}

function contextFor(subgraph: Subgraph<unknown>, gatewayContext: unknown): Promise<unknown> {
  const key = (gatewayContext && typeof gatewayContext === 'object' ? gatewayContext : null) as object | null;
  let map = key ? contexts.get(key) : undefined;
  if (!map) {
    map = new Map();
    if (key) contexts.set(key, map);
  }
  let sub = map.get(subgraph.name);
  if (!sub) {
    sub = Promise.resolve(subgraph.contextFor({ headers: headersOf(gatewayContext) }));
    map.set(subgraph.name, sub);
  }
  return sub;
}

export function inProcessTransport(subgraphs: readonly Subgraph<unknown>[]): Transport {
  const byName = new Map(subgraphs.map((s) => [s.name as string, s]));
  return {
    getSubgraphExecutor({ subgraphName }) {
      const subgraph = byName.get(subgraphName);
      if (!subgraph) throw new Error(`no in-process subgraph named ${subgraphName}`);
      return async (req: ExecutionRequest) =>
        (await execute({
          schema: subgraph.schema,
          document: req.document,
          variableValues: req.variables ?? {},
          operationName: req.operationName ?? null,
          contextValue: await contextFor(subgraph, req.context),
        })) as ExecutionResult;
    },
  };
}
