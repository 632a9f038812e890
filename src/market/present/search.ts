/** `/search` and `/search/trending`. */
import type { CategoryInfo } from '../../catalog/types.ts';
import { createSearchIndex, searchAssets } from '../../engine/search.ts';
import type { SearchIndex } from '../../engine/search.ts';
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import type { AssetMarket } from '../../engine/types.ts';
import { applyPrecision } from './precision.ts';
import { Converter, images, pct, sparklineUrl } from './common.ts';

/** Most coins `/search` returns. */
export const SEARCH_COINS = 25;

const indexes = new WeakMap<MarketSnapshot, SearchIndex<AssetMarket>>();

/** The snapshot's search index, built once per snapshot (ranks change with market caps). */
function indexOf(snapshot: MarketSnapshot): SearchIndex<AssetMarket> {
  let idx = indexes.get(snapshot);
  if (!idx) indexes.set(snapshot, (idx = createSearchIndex(snapshot.ranked)));
  return idx;
}

/**
 * Coins matching `query` by id, symbol or name (exact, then prefix, then substring; rank order within each), and
 * categories whose id or name contains it. Symbols are uppercase here, as CoinGecko writes them in search results.
 */
export function presentSearch(snapshot: MarketSnapshot, cats: readonly CategoryInfo[], query: string) {
  const q = query.trim().toLowerCase();
  const coins = searchAssets(q, indexOf(snapshot), SEARCH_COINS).map((m) => {
    const img = images(m.id);
    return {
      id: m.id,
      name: m.name,
      api_symbol: m.id,
      symbol: m.symbol.toUpperCase(),
      market_cap_rank: m.rank,
      thumb: img.thumb,
      large: img.large,
    };
  });
  const categories =
    q === ''
      ? []
      : cats
          .filter((c) => c.id.includes(q) || c.name.toLowerCase().includes(q))
          .map((c) => ({ id: c.id, name: c.name }));
  return { coins, exchanges: [], icos: [], categories, nfts: [] };
}

const DEFAULT = { kind: 'default' } as const;
const usdFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});

/** A positive decimal as a plain string (no exponent), 12 significant digits; null stays null. */
export function decimalString(v: number | null): string | null {
  if (v === null || !Number.isFinite(v)) return null;
  if (v === 0) return '0';
  const digits = Math.min(100, Math.max(0, 11 - Math.floor(Math.log10(Math.abs(v)))));
  const s = v.toFixed(digits);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** `"$1,234,567"` (CoinGecko's trending money strings); null stays null. */
export const dollars = (v: number | null): string | null => (v === null ? null : usdFormat.format(v));

/**
 * `/search/trending`: our trending coins (volume surge weighted by the 24h move; see docs/methodology.md) in
 * CoinGecko's item shape. `coin_id` is the coin's 1-based position in `/coins/list`'s catalog order.
 */
export function presentTrending(
  snapshot: MarketSnapshot,
  catalogIds: readonly string[],
  currencies: readonly string[],
) {
  const btc = new Converter(snapshot.rates, 'btc', snapshot.computedAt, DEFAULT);
  const conv = currencies.map((c) => new Converter(snapshot.rates, c, snapshot.computedAt, DEFAULT));
  const coins = [];
  for (const t of snapshot.trending) {
    const m = snapshot.markets.get(t.id);
    if (!m) continue;
    const img = images(m.id);
    const priceBtc = btc.raw(m.price.priceUsd);
    coins.push({
      item: {
        id: m.id,
        coin_id: catalogIds.indexOf(m.id) + 1,
        name: m.name,
        symbol: m.symbol.toUpperCase(),
        market_cap_rank: m.rank,
        thumb: img.thumb,
        small: img.small,
        large: img.large,
        slug: m.id,
        price_btc: applyPrecision(priceBtc, DEFAULT),
        score: t.score,
        data: {
          price: applyPrecision(m.price.priceUsd, DEFAULT),
          price_btc: decimalString(priceBtc),
          price_change_percentage_24h: Object.fromEntries(
            conv.map((c) => [c.code, pct(c.changePct(m, '24h'))]),
          ),
          market_cap: dollars(m.marketCapUsd),
          market_cap_btc: decimalString(btc.raw(m.marketCapUsd)),
          total_volume: dollars(m.price.volumeUsd),
          total_volume_btc: decimalString(btc.raw(m.price.volumeUsd)),
          sparkline: sparklineUrl(m.id),
          content: null,
        },
      },
    });
  }
  return { coins, nfts: [], categories: [] };
}
