/**
 * The embedded mode's source: executes the subgraph's schema in this process — no HTTP hop, no JSON round trip. The
 * subgraph context (and so its DataLoaders) is made once per router request and shared by every fetch of that
 * request to the subgraph.
 */
import { LRUCache } from 'lru-cache';
import type { Logger } from '../../src/core/log.ts';
import { execute, GraphQLError, parse } from 'graphql';
import type { DocumentNode } from 'graphql';
import type { Subgraph } from '../../subgraphs/shared/subgraph.ts';
import { clientError, subgraphContext, timedOut, unavailable } from './source.ts';
import { TimeoutError, withTimeout } from '../../src/core/timeout.ts';
import type { SourceContext, SubgraphAnswer, SubgraphFetch, SubgraphSource } from './source.ts';

/** Parsed subgraph documents: the query planner sends the same few strings again and again. */
class DocumentCache {
  private readonly docs = new LRUCache<string, DocumentNode>({ max: 1_000 });
  get(query: string): DocumentNode {
    let doc = this.docs.get(query);
    if (!doc) {
      doc = parse(query);
      this.docs.set(query, doc);
    }
    return doc;
  }
}

export class InProcessSource implements SubgraphSource {
  private readonly docs = new DocumentCache();
  constructor(
    private readonly subgraph: Subgraph<unknown>,
    private readonly timeoutMs: number,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  async process(fetch: SubgraphFetch, ctx: Partial<SourceContext>): Promise<SubgraphAnswer> {
    const name = this.subgraph.name;
    if (ctx.timedOut?.has(name)) return { errors: [timedOut(name, this.timeoutMs)] };
    const run = async (): Promise<SubgraphAnswer> => {
      let contextValue: unknown;
      try {
        contextValue = await subgraphContext(this.subgraph, ctx);
      } catch (e) {
        if (e instanceof GraphQLError) return { errors: [clientError(e, name, this.log)] };
        throw e;
      }
      const result = await execute({
        schema: this.subgraph.schema,
        document: this.docs.get(fetch.query),
        variableValues: fetch.variables,
        operationName: fetch.operationName ?? null,
        contextValue,
      });
      return {
        ...(result.data !== undefined ? { data: result.data as Record<string, unknown> | null } : {}),
        ...(result.errors ? { errors: result.errors.map((e) => clientError(e, name, this.log)) } : {}),
      };
    };
    try {
      return await withTimeout(run(), this.timeoutMs);
    } catch (e) {
      if (e instanceof TimeoutError) {
        this.log.warn('subgraph timed out', { subgraph: name, timeoutMs: this.timeoutMs });
        return { errors: [timedOut(name, this.timeoutMs)] };
      }
      this.log.warn('subgraph failed', { subgraph: name, error: e instanceof Error ? e.message : String(e) });
      return { errors: [unavailable(name)] };
    }
  }
}
