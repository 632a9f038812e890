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
import { AnswerCache, fetchKey } from '../../subgraphs/shared/answer-cache.ts';
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

/** A kept answer without errors: its data's JSON (parsed again per hit: the gateway merges into what it gets). */
interface KeptAnswer {
  json: string;
  size: number;
}

export class InProcessSource implements SubgraphSource {
  private readonly docs = new DocumentCache();
  /**
   * Answers of this subgraph's fetches per snapshot (`subgraphs/shared/answer-cache.ts`), when it has a
   * response-cache facet with `pin`: a fetch the request's snapshot already answered is not executed again.
   */
  private readonly answers: AnswerCache<KeptAnswer> | null;
  constructor(
    private readonly subgraph: Subgraph<unknown>,
    private readonly timeoutMs: number,
    private readonly log: Pick<Logger, 'warn'>,
  ) {
    const facet = subgraph.responseCache;
    this.answers = facet?.pin ? new AnswerCache<KeptAnswer>(() => facet.current()) : null;
  }

  /** Stats of the answer cache; null when the subgraph has none. */
  answerStats() {
    return this.answers?.stats() ?? null;
  }

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
      // The request's snapshot, pinned now: every fetch of one request reads the same one, kept or executed.
      const facet = this.subgraph.responseCache;
      const version = this.answers ? (facet?.pin?.(contextValue) ?? null) : null;
      const key = version ? fetchKey(fetch.query, fetch.operationName, fetch.variables) : null;
      if (version && key !== null) {
        const kept = this.answers?.get(version, key);
        if (kept) return { data: JSON.parse(kept.json) as Record<string, unknown> };
      }
      const result = await execute({
        schema: this.subgraph.schema,
        document: this.docs.get(fetch.query),
        variableValues: fetch.variables,
        operationName: fetch.operationName ?? null,
        contextValue,
      });
      // Kept when this fetch (and all before it in the request) read nothing but that snapshot.
      if (
        version &&
        key !== null &&
        !result.errors &&
        result.data &&
        facet?.readBy(contextValue) === version
      ) {
        const json = JSON.stringify(result.data);
        this.answers?.set(version, key, { json, size: json.length });
      }
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
