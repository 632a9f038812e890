/**
 * Response cache of the embedded router: a query whose every subgraph fetch was answered from one versioned value
 * (today: the markets subgraph reading only the market snapshot) is answered from memory while that value is
 * current — the graph's counterpart of the price API's per-snapshot response cache (`src/rest/cache.ts`).
 *
 * Exact, not approximate: an entry is served only while each subgraph it came from still reports the same version
 * (by identity: the snapshot object), and the subgraph itself says whether a request read anything besides it
 * (history, the clock, sources, mining figures — `ResponseCacheFacet.readBy`). So a hit is byte for byte what
 * executing the operation again would give. Only queries without errors are kept; mutations never. Memory is bounded
 * by entries and by the size of everything an entry keeps: its key (which holds the variables as JSON) and its data's
 * JSON (`ResponseCacheOptions`). Variables the operation does not declare never reach the key: the engine drops them
 * first (`router/variables.ts`).
 *
 * Everything per caller still runs per request: the API key, the rate limit, the persisted-operation check, the
 * limits and the query-cost estimate (with its `extensions.cost` and `X-Query-Cost`) all happen before the
 * lookup (the Hive engine's `onExecute`). The key is the parsed document's identity, the operation name and the
 * variables.
 */
import { LRUCache } from 'lru-cache';
import type { Subgraph } from '../subgraphs/shared/subgraph.ts';
import type { SourceContext } from './sources/source.ts';
import { fetchKey } from '../subgraphs/shared/answer-cache.ts';

interface Entry {
  /**
   * Each subgraph the response came from, with the version it was computed from — weakly held, so that stale
   * entries do not keep old market snapshots alive.
   */
  deps: ReadonlyArray<readonly [Subgraph<unknown>, WeakRef<object>]>;
  data: Record<string, unknown>;
  /** Length of the key plus the answer's as sent (its data's JSON and a little more): what the bound counts. */
  size: number;
}

export interface ResponseCacheStats {
  hits: number;
  misses: number;
  stored: number;
  entries: number;
  /** Sum of the entries' sizes: key length plus the answer's length each. */
  size: number;
}

export interface ResponseCacheOptions {
  /** Distinct operations × variables kept (oldest dropped first). Default 500. */
  maxEntries?: number;
  /**
   * Bound on what the entries keep, as the sum over entries of the key's length (query id, operation name and the
   * variables' JSON) and the length of the answer as sent, its data's JSON and the extensions beside it (oldest
   * dropped first; an entry larger than an eighth of it is not kept). Default 16 MiB — a few times that in heap.
   */
  maxSize?: number;
}

export interface ResponseCache {
  /** The kept data for `key`, when still current (a hit), else null (a miss; null `key`: neither). */
  lookup(key: string | null): Record<string, unknown> | null;
  /**
   * Keeps an answer without errors, when everything `ctx`'s subgraph contexts read was versioned; `bytes`: the
   * length of the answer as sent (its serialisation is the engine's: the data is not serialised again to weigh it).
   */
  store(key: string | null, data: Record<string, unknown>, ctx: SourceContext, bytes: number): Promise<void>;
  stats(): ResponseCacheStats;
}

/** A key for each parsed document (the runtime parses a query text once and reuses the document). */
const documentIds = new WeakMap<object, string>();
let documents = 0;
export function documentId(doc: object): string {
  let id = documentIds.get(doc);
  if (id === undefined) {
    id = `d${++documents}`;
    documentIds.set(doc, id);
  }
  return id;
}

/**
 * The key of a query: its text (or anything that identifies it, `queryId`), operation name and variables; null for
 * anything else or for variables too deeply nested to serialise (execution refuses them with BAD_USER_INPUT).
 */
export const responseCacheKey: (
  queryId: string,
  operationName: string | null | undefined,
  variables: unknown,
) => string | null = fetchKey;

export function createResponseCache(
  subgraphs: readonly Subgraph<unknown>[],
  opts: ResponseCacheOptions = {},
): ResponseCache {
  const maxEntries = opts.maxEntries ?? 500;
  const maxSize = opts.maxSize ?? 16 * 1024 * 1024;
  const byName = new Map(subgraphs.map((s) => [s.name as string, s]));
  const entries = new LRUCache<string, Entry>({ max: maxEntries, maxSize, sizeCalculation: (e) => e.size });
  const counts = { hits: 0, misses: 0, stored: 0 };

  const current = (e: Entry): boolean =>
    e.deps.every(([sg, v]) => {
      const now = sg.responseCache?.current();
      return now !== null && now !== undefined && now === v.deref();
    });

  const versioned = subgraphs.filter((s) => s.responseCache);
  /** The version each versioned subgraph reported when last asked (weakly: a past snapshot is not kept for it). */
  const seen = new Map<Subgraph<unknown>, WeakRef<object> | null>();
  /**
   * When a subgraph has moved to a new version since the last lookup or store, the entries it made stale go now. No
   * stale entry is served again (`current`), and kept they held the cache's bytes until newer entries pushed them out
   * one by one: after a burst of large answers, as long as the steady traffic took to store as many.
   */
  function dropStale(): void {
    let moved = false;
    for (const sg of versioned) {
      const now = sg.responseCache?.current() ?? null;
      const before = seen.get(sg);
      if (before !== undefined && (before?.deref() ?? null) === now) continue;
      seen.set(sg, now === null ? null : new WeakRef(now));
      moved ||= before !== undefined;
    }
    if (!moved) return;
    const stale: string[] = [];
    entries.forEach((e, k) => {
      if (!current(e)) stale.push(k);
    });
    for (const k of stale) entries.delete(k);
  }

  /** The versions a response depends on, or null when it is not cacheable. */
  async function depsOf(ctx: SourceContext): Promise<Entry['deps'] | null> {
    if (ctx.subgraphContexts.size === 0) return null;
    const deps: Array<readonly [Subgraph<unknown>, WeakRef<object>]> = [];
    for (const [name, pending] of ctx.subgraphContexts) {
      const sg = byName.get(name);
      if (!sg?.responseCache) return null;
      let c: unknown;
      try {
        c = await pending;
      } catch {
        return null;
      }
      const v = sg.responseCache.readBy(c);
      if (v === null) return null;
      deps.push([sg, new WeakRef(v)]);
    }
    return deps;
  }

  function lookup(key: string | null): Record<string, unknown> | null {
    if (key === null) return null;
    dropStale();
    const e = entries.get(key);
    if (!e || !current(e)) {
      if (e) entries.delete(key);
      counts.misses++;
      return null;
    }
    counts.hits++;
    return e.data;
  }

  async function store(
    key: string | null,
    data: Record<string, unknown>,
    ctx: SourceContext,
    bytes: number,
  ): Promise<void> {
    if (key === null) return;
    const size = key.length + bytes;
    if (size > maxSize / 8) return;
    const deps = await depsOf(ctx);
    if (!deps) return;
    dropStale();
    // Computed from a version that a newer one replaced while it ran: never served, so not kept.
    if (!current({ deps, data, size })) return;
    entries.set(key, { deps, data, size });
    counts.stored++;
  }

  return { lookup, store, stats: () => ({ ...counts, entries: entries.size, size: entries.calculatedSize }) };
}
