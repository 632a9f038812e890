/** Category aggregates for `/coins/categories`, from the curated category list and the current markets. */
import type { CategoryInfo } from '../catalog/types.ts';
import type { AssetMarket } from './types.ts';

/** One category's market figures, in USD. */
export interface CategoryMarket {
  id: string;
  name: string;
  /** The category description. */
  content: string;
  /** Sum of members' market caps over members with a (verified) market cap; null when none has one. */
  marketCapUsd: number | null;
  /**
   * 24h percent change of the members' summed market cap at constant supply: the 24h price changes of members
   * with a market cap and a 24h change, weighted by each member's market cap 24h ago (`cap / (1 +
   * change/100)`). Null when no member has both.
   */
  marketCapChange24hPct: number | null;
  /** Sum of members' 24h volumes over members with a volume; null when none has one. */
  volume24hUsd: number | null;
  /** Up to 3 member ids: market cap desc (members without one last), then volume desc, then id. */
  top3: string[];
  /** Members we track (present in the markets map), duplicates counted once. */
  coinsCount: number;
  /** Members with a verified market cap. */
  verifiedCount: number;
  /** `now` of the computation, UNIX ms. */
  updatedAt: number;
}

/** Descending by a nullable number, nulls last. */
function descNullLast(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return b - a;
}

function category(cat: CategoryInfo, markets: ReadonlyMap<string, AssetMarket>, now: number): CategoryMarket {
  const members: AssetMarket[] = [];
  for (const id of new Set(cat.members)) {
    const m = markets.get(id);
    if (m) members.push(m);
  }
  let cap: number | null = null;
  let volume: number | null = null;
  let verifiedCount = 0;
  let capNow = 0;
  let capThen = 0;
  for (const m of members) {
    const v = m.price.volumeUsd;
    if (v !== null) volume = (volume ?? 0) + v;
    const c = m.marketCapUsd;
    if (c === null) continue;
    verifiedCount++;
    cap = (cap ?? 0) + c;
    const ch = m.changes['24h'];
    if (ch === null || !(1 + ch / 100 > 0)) continue;
    capNow += c;
    capThen += c / (1 + ch / 100);
  }
  const top3 = [...members]
    .sort(
      (a, b) =>
        descNullLast(a.marketCapUsd, b.marketCapUsd) ||
        descNullLast(a.price.volumeUsd, b.price.volumeUsd) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, 3)
    .map((m) => m.id);
  return {
    id: cat.id,
    name: cat.name,
    content: cat.description,
    marketCapUsd: cap,
    marketCapChange24hPct: capThen > 0 ? ((capNow - capThen) / capThen) * 100 : null,
    volume24hUsd: volume,
    top3,
    coinsCount: members.length,
    verifiedCount,
    updatedAt: now,
  };
}

/**
 * Computes the market figures of every category in `cats` (same order) from `markets` (asset id → market) at
 * `now`. Members missing from `markets` are ignored; sums only cover members whose figure is known, and a sum
 * with no known figure is null, never 0. See {@link CategoryMarket} for each field.
 */
export function computeCategories(
  cats: readonly CategoryInfo[],
  markets: ReadonlyMap<string, AssetMarket>,
  now: number,
): CategoryMarket[] {
  return cats.map((cat) => category(cat, markets, now));
}
