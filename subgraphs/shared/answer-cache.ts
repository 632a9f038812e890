/**
 * Answers of one subgraph's fetches, kept while the version they were computed from is current (the markets
 * subgraph: the market snapshot, which changes once per tick). A gateway asks the same fetch many times between two
 * ticks — a popular page of coins in a popular currency, the entity join of the coins a bridge lists — and each
 * such answer is a pure function of the snapshot, so executing it again gives the same bytes.
 *
 * Exact, not approximate: an answer is kept only when the subgraph says the request read nothing but that version
 * (`ResponseCacheFacet.readBy`: no history, clock, sources or caller), and it is served only for the same version
 * (by identity). A subgraph without the facet (identity, bridge, accounts: names, keys, accounts) is never cached
 * this way. Everything kept is dropped at once when a newer version is seen, and bounded by bytes (the key plus the
 * answer's serialised length) and entries, least recently used out first.
 *
 * Used by the subgraph's HTTP listener (`http.ts`: the response body as sent) and the embedded router's in-process
 * source (`router/sources/in-process.ts`: the answer's JSON, parsed again per hit, since the gateway merges entity
 * results into the objects it receives).
 */
import { LRUCache } from 'lru-cache';

export interface AnswerCacheOptions {
  /** Bound on the sum of keys' and answers' lengths; an answer over an eighth of it is not kept. Default 8 MiB. */
  maxBytes?: number;
  /** Bound on the number of answers. Default 5,000. */
  maxEntries?: number;
}

export interface AnswerCacheStats {
  hits: number;
  misses: number;
  stored: number;
  entries: number;
  bytes: number;
}

/** The key of a fetch: its operation text, operation name and variables (JSON); null when they cannot be serialised. */
export function fetchKey(
  query: string,
  operationName: string | null | undefined,
  variables: unknown,
): string | null {
  let v: string;
  try {
    v = JSON.stringify(variables ?? {});
  } catch {
    return null;
  }
  return `${operationName ?? ''}\0${v}\0${query}`;
}

export class AnswerCache<V extends { size: number }> {
  private readonly entries: LRUCache<string, V>;
  /** The version the kept answers were computed from; the first newer one seen drops them all. */
  private version: object | null = null;
  private readonly counts = { hits: 0, misses: 0, stored: 0 };
  private readonly maxEntryBytes: number;

  /** @param current the version answers would be computed from now (the facet's `current`); null: none yet. */
  constructor(
    private readonly current: () => object | null,
    opts: AnswerCacheOptions = {},
  ) {
    const maxSize = opts.maxBytes ?? 8 * 1024 * 1024;
    this.maxEntryBytes = maxSize / 8;
    this.entries = new LRUCache<string, V>({
      max: opts.maxEntries ?? 5_000,
      maxSize,
      sizeCalculation: (v, k) => v.size + k.length,
    });
  }

  /**
   * The answer kept for `key` at `version` (the version the asking request reads), if any. When the current version
   * is not the kept one, everything kept is dropped first; a request still reading an older version gets a miss.
   */
  get(version: object, key: string): V | undefined {
    const now = this.current();
    if (now !== this.version) {
      this.entries.clear();
      this.version = now;
    }
    const v = version === now ? this.entries.get(key) : undefined;
    if (v === undefined) this.counts.misses++;
    else this.counts.hits++;
    return v;
  }

  /**
   * Keeps `value` for `key`, computed from `version`: only while that is the current version (an answer that
   * finished after a newer one was published is not kept, nor does it drop the newer answers).
   */
  set(version: object, key: string, value: V): void {
    if (
      version !== this.version ||
      version !== this.current() ||
      value.size + key.length > this.maxEntryBytes
    )
      return;
    this.entries.set(key, value);
    this.counts.stored++;
  }

  stats(): AnswerCacheStats {
    return { ...this.counts, entries: this.entries.size, bytes: this.entries.calculatedSize };
  }
}
