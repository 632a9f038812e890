/** Coin search for `/search`: case-insensitive over id, symbol and name; exact, then prefix, then substring. */

/** The fields search looks at. */
export interface SearchableAsset {
  id: string;
  symbol: string;
  name: string;
  /** Market-cap rank (1 = largest); null when the coin has no verified market cap. */
  rank: number | null;
}

/** Assets pre-normalised for repeated searches; build once with {@link createSearchIndex}. */
export interface SearchIndex<T extends SearchableAsset = SearchableAsset> {
  /** Entries sorted by rank ascending (null last), then id; `keys` are the lowercase id, symbol and name. */
  readonly entries: readonly { asset: T; keys: readonly [string, string, string] }[];
}

/** Default maximum number of results. */
export const SEARCH_LIMIT = 25;

function byRankThenId(a: SearchableAsset, b: SearchableAsset): number {
  if (a.rank !== b.rank) {
    if (a.rank === null) return 1;
    if (b.rank === null) return -1;
    return a.rank - b.rank;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Lowercases and sorts `assets` once so each search is a single pass without sorting. */
export function createSearchIndex<T extends SearchableAsset>(assets: readonly T[]): SearchIndex<T> {
  const entries = [...assets].sort(byRankThenId).map((asset) => ({
    asset,
    keys: [asset.id.toLowerCase(), asset.symbol.toLowerCase(), asset.name.toLowerCase()] as const,
  }));
  return { entries };
}

/**
 * Finds assets matching `query` (trimmed, case-insensitive) in id, symbol or name. Order: exact matches (any
 * field equal to the query) first, then prefix matches, then substring matches; within each group rank
 * ascending (null last), then id. An empty or whitespace-only query, or `limit` ≤ 0, gives `[]`. `assets` may
 * be a prebuilt {@link SearchIndex}. `limit` defaults to 25.
 */
export function searchAssets<T extends SearchableAsset>(
  query: string,
  assets: readonly T[] | SearchIndex<T>,
  limit: number = SEARCH_LIMIT,
): T[] {
  const q = query.trim().toLowerCase();
  if (q === '' || !(limit > 0)) return [];
  // Not `'entries' in assets`: arrays have an `entries` method.
  const index = Array.isArray(assets)
    ? createSearchIndex(assets as readonly T[])
    : (assets as SearchIndex<T>);
  const exact: T[] = [];
  const prefix: T[] = [];
  const substring: T[] = [];
  for (const { asset, keys } of index.entries) {
    if (keys[0] === q || keys[1] === q || keys[2] === q) exact.push(asset);
    else if (keys[0].startsWith(q) || keys[1].startsWith(q) || keys[2].startsWith(q)) prefix.push(asset);
    else if (keys[0].includes(q) || keys[1].includes(q) || keys[2].includes(q)) substring.push(asset);
  }
  return [...exact, ...prefix, ...substring].slice(0, Math.floor(limit));
}
