/** `/coins/categories` and `/coins/categories/list`. */
import type { CategoryInfo } from '../../catalog/types.ts';
import type { CategoryMarket } from '../../engine/categories.ts';
import { applyPrecision } from './precision.ts';
import { imageUrl, iso, pct } from './common.ts';

export const CATEGORY_ORDERS = [
  'market_cap_desc',
  'market_cap_asc',
  'name_desc',
  'name_asc',
  'market_cap_change_24h_desc',
  'market_cap_change_24h_asc',
] as const;
export type CategoryOrder = (typeof CATEGORY_ORDERS)[number];

/** `[{ category_id, name }]`, by name. */
export function presentCategoryList(cats: readonly CategoryInfo[]): { category_id: string; name: string }[] {
  return [...cats]
    .sort((a, b) => a.name.localeCompare(b.name, 'en') || (a.id < b.id ? -1 : 1))
    .map((c) => ({ category_id: c.id, name: c.name }));
}

const byName = (a: CategoryMarket, b: CategoryMarket): number =>
  a.name.localeCompare(b.name, 'en') || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Nullable numeric order, nulls last in both directions, ties by name. */
function by(get: (c: CategoryMarket) => number | null, dir: 1 | -1) {
  return (a: CategoryMarket, b: CategoryMarket): number => {
    const x = get(a);
    const y = get(b);
    if (x === null || y === null) return x === y ? byName(a, b) : x === null ? 1 : -1;
    return (x - y) * dir || byName(a, b);
  };
}

const COMPARE: Record<CategoryOrder, (a: CategoryMarket, b: CategoryMarket) => number> = {
  market_cap_desc: by((c) => c.marketCapUsd, -1),
  market_cap_asc: by((c) => c.marketCapUsd, 1),
  name_desc: (a, b) => byName(b, a),
  name_asc: byName,
  market_cap_change_24h_desc: by((c) => c.marketCapChange24hPct, -1),
  market_cap_change_24h_asc: by((c) => c.marketCapChange24hPct, 1),
};

/**
 * The categories with their USD figures (CoinGecko's shape; `market_cap_change_24h` is a percentage). Sums cover
 * members with a verified figure only and are null when none has one; `coins_count` and `verified_coins` (ours)
 * say how many members there are and how many the market cap covers.
 */
export function presentCategories(
  cats: readonly CategoryMarket[],
  order: CategoryOrder,
): Record<string, unknown>[] {
  const p = { kind: 'default' } as const;
  return [...cats].sort(COMPARE[order]).map((c) => ({
    id: c.id,
    name: c.name,
    market_cap: applyPrecision(c.marketCapUsd, p),
    market_cap_change_24h: pct(c.marketCapChange24hPct),
    content: c.content,
    top_3_coins_id: c.top3,
    top_3_coins: c.top3.map(imageUrl),
    volume_24h: applyPrecision(c.volume24hUsd, p),
    updated_at: iso(c.updatedAt),
    coins_count: c.coinsCount,
    verified_coins: c.verifiedCount,
  }));
}
