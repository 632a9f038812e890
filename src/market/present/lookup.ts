/**
 * Coin selection by `ids`, `names` or `symbols` (CoinGecko's lookup parameters of `/simple/price` and
 * `/coins/markets`), in the snapshot's rank order.
 */
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import type { AssetMarket } from '../../engine/types.ts';

/** What a request names coins by; `symbols` with `include_tokens=top` keeps only the top coin per symbol. */
export type CoinLookup =
  | { by: 'ids'; values: readonly string[] }
  | { by: 'names'; values: readonly string[] }
  | { by: 'symbols'; values: readonly string[]; all: boolean };

/**
 * The coins a lookup names, in rank order (market cap desc, then the unranked by volume). Unknown values are
 * simply absent (CoinGecko answers 200 with what it knows). Names and symbols match case-insensitively.
 */
export function lookupCoins(snapshot: MarketSnapshot, lookup: CoinLookup): AssetMarket[] {
  const wanted = new Set(lookup.values.map((v) => v.toLowerCase()));
  if (lookup.by === 'ids') return snapshot.ranked.filter((m) => wanted.has(m.id));
  if (lookup.by === 'names') return snapshot.ranked.filter((m) => wanted.has(m.name.toLowerCase()));
  const hits = snapshot.ranked.filter((m) => wanted.has(m.symbol.toLowerCase()));
  if (lookup.all) return hits;
  const seen = new Set<string>();
  return hits.filter((m) => {
    const s = m.symbol.toLowerCase();
    if (seen.has(s)) return false;
    seen.add(s);
    return true;
  });
}
