/**
 * Hive Gateway's runtime over the supergraph, with the runtime plugins of `router/engines/` in the order they act:
 * the body as the router read it, the scalars' input rules, variables coerced first, the router's operation, a turn
 * before serialising a heavy answer, subscriptions refused over plain HTTP, automatic persisted queries; and parsed
 * documents kept within a bound of bytes, in place of Yoga's cache. The subgraphs
 * are reached through the router's own sources (`hive-sources.ts`). CSRF prevention is the engine's own
 * (`csrfRefusal`, before the runtime is called), with Apollo's rule.
 */
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import type { KeyValueCache } from '@apollo/utils.keyvaluecache';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import type { DocumentNode } from 'graphql';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';
import type { RouterPlanner } from '../options.ts';
import { scalarRules } from '../scalars.ts';
import type { createSources } from '../sources/create.ts';
import { coerceVariablesFirst } from '../variables.ts';
import { documentCache } from './document-cache.ts';
import type { DocumentCache } from './document-cache.ts';
import { apqPlugin, readBodyOnce } from './hive-http.ts';
import { sourcesTransport } from './hive-sources.ts';
import { turnBeforeSerialising } from './operation-hooks.ts';
import type { operationHooks } from './operation-hooks.ts';
import { refuseSubscriptions } from './refuse-subscriptions.ts';

export type GatewayRuntime = ReturnType<typeof createGatewayRuntime>;

export interface RuntimeOptions {
  /** The supergraph, parsed: the runtime takes the tree as it is (a string it would parse twice). */
  supergraph: DocumentNode;
  sources: ReturnType<typeof createSources>;
  operation: ReturnType<typeof operationHooks>;
  /** Where automatic persisted queries are kept (default: in memory); false: off. */
  apqCache?: KeyValueCache<string> | false | undefined;
}

/**
 * The runtime's Yoga disposes every runtime of the process on SIGINT/SIGTERM (`disposeOnProcessTerminate`, not an
 * option): the subgraph fetches of requests still in flight would fail while the process drains. The router is
 * disposed by its owner instead (`stop()`, after the HTTP server has drained), so those two listeners come off again.
 */
function keepThroughSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    for (const l of process.listeners(signal))
      if (l.name === 'terminateHandler') process.removeListener(signal, l);
}

/** The runtimes of the engine: one per planner, sharing the plugins and the APQ cache; each made once, when asked. */
export interface GatewayRuntimes {
  of(planner: RouterPlanner): GatewayRuntime;
  /** The parsed documents the runtimes keep (`document-cache.ts`, in place of Yoga's unbounded cache). */
  parsedDocuments: DocumentCache['stats'];
  dispose(): Promise<void>;
}

export function gatewayRuntimes(opts: RuntimeOptions): GatewayRuntimes {
  const apqCache = opts.apqCache === false ? null : (opts.apqCache ?? new InMemoryLRUCache<string>());
  const made = new Map<RouterPlanner, GatewayRuntime>();
  const documents = documentCache();
  const make = (planner: RouterPlanner) =>
    createGatewayRuntime({
      supergraph: opts.supergraph,
      ...(planner === 'js' ? {} : { unifiedGraphHandler }),
      transports: { router: sourcesTransport(opts.sources) },
      transportEntries: { '*': { kind: 'router' } },
      logging: false,
      landingPage: false,
      deferStream: true,
      graphiql: false,
      plugins: () => [
        documents.plugin as never,
        readBodyOnce as never,
        scalarRules as never,
        coerceVariablesFirst as never,
        opts.operation as never,
        turnBeforeSerialising as never,
        refuseSubscriptions as never,
        ...(apqCache ? [apqPlugin(apqCache) as never] : []),
      ],
    });
  return {
    parsedDocuments: documents.stats,
    of(planner) {
      let runtime = made.get(planner);
      if (!runtime) {
        runtime = make(planner);
        keepThroughSignals();
        made.set(planner, runtime);
      }
      return runtime;
    },
    async dispose() {
      for (const runtime of made.values()) await runtime.dispose();
    },
  };
}
