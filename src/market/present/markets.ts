/** `/coins/markets`: selection, ordering, paging and the CoinGecko market row. */
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import type { AssetMarket, ChangeWindow } from '../../engine/types.ts';
import type { Precision } from './precision.ts';
import { Converter, imageUrl, iso } from './common.ts';
import type { CoinLookup } from './lookup.ts';
import { lookupCoins } from './lookup.ts';
import { currentFigures, figures } from './figures.ts';
import type { CurrencyFigures } from './figures.ts';

export const MARKET_ORDERS = [
  'market_cap_desc',
  'market_cap_asc',
  'volume_desc',
  'volume_asc',
  'id_asc',
  'id_desc',
  'gainers',
  'losers',
] as const;
export type MarketOrder = (typeof MARKET_ORDERS)[number];

/** Windows of `price_change_percentage` (CoinGecko's list; 60d is only in /coins/{id}). */
export const MARKET_WINDOWS = [
  '1h',
  '24h',
  '7d',
  '14d',
  '30d',
  '200d',
  '1y',
] as const satisfies readonly ChangeWindow[];
export type MarketWindow = (typeof MARKET_WINDOWS)[number];

export interface MarketsQuery {
  vsCurrency: string;
  /** A category id (takes priority over the lookup, as at CoinGecko); already checked to exist. */
  category?: string;
  lookup?: CoinLookup;
  order: MarketOrder;
  perPage: number;
  page: number;
  sparkline: boolean;
  windows: readonly MarketWindow[];
  precision: Precision;
}

const byId = (a: AssetMarket, b: AssetMarket): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Compares by a nullable number; nulls always last whatever the direction; ties by id. */
function by(get: (m: AssetMarket) => number | null, dir: 1 | -1) {
  return (a: AssetMarket, b: AssetMarket): number => {
    const x = get(a);
    const y = get(b);
    if (x === null || y === null) return x === y ? byId(a, b) : x === null ? 1 : -1;
    return (x - y) * dir || byId(a, b);
  };
}

const COMPARE: Record<MarketOrder, (a: AssetMarket, b: AssetMarket) => number> = {
  // Rank order (market cap desc), then the coins without a market cap (unranked) by volume, as in `ranked`.
  market_cap_desc: (a, b) =>
    a.rank === null && b.rank === null ? by((m) => m.price.volumeUsd, -1)(a, b) : by((m) => m.rank, 1)(a, b),
  market_cap_asc: by((m) => m.marketCapUsd, 1),
  volume_desc: by((m) => m.price.volumeUsd, -1),
  volume_asc: by((m) => m.price.volumeUsd, 1),
  id_asc: byId,
  id_desc: (a, b) => byId(b, a),
  // The 24h change in USD: converting to another currency scales every coin's (1 + change) by the same factor,
  // so the order is the same in every currency.
  gainers: by((m) => m.changes['24h'], -1),
  losers: by((m) => m.changes['24h'], 1),
};

/** The selected, ordered page of coins. */
export function selectMarkets(
  snapshot: MarketSnapshot,
  q: MarketsQuery,
  members?: ReadonlySet<string>,
): AssetMarket[] {
  let rows: AssetMarket[];
  if (members) rows = snapshot.ranked.filter((m) => members.has(m.id));
  else if (q.lookup) rows = lookupCoins(snapshot, q.lookup);
  else rows = [...snapshot.ranked];
  rows.sort(COMPARE[q.order]);
  const start = (q.page - 1) * q.perPage;
  return rows.slice(start, start + q.perPage);
}

/** One row of `/coins/markets` in `conv`'s currency, CoinGecko's field order. */
export function presentMarketRow(
  m: AssetMarket,
  conv: Converter,
  q: MarketsQuery,
  rows?: CurrencyFigures,
): Record<string, unknown> {
  const ath = conv.extreme(m.ath, m.price.priceUsd);
  const atl = conv.extreme(m.atl, m.price.priceUsd);
  const f = rows ? rows.of(m) : currentFigures(m, conv);
  const row: Record<string, unknown> = {
    id: m.id,
    symbol: m.symbol.toLowerCase(),
    name: m.name,
    image: imageUrl(m.id),
    current_price: f.price,
    market_cap: f.marketCap,
    market_cap_rank: m.rank,
    fully_diluted_valuation: f.fdv,
    total_volume: f.volume24h,
    high_24h: f.high24h,
    low_24h: f.low24h,
    price_change_24h: f.priceChange24h,
    price_change_percentage_24h: conv.changePct(m, '24h'),
    market_cap_change_24h: f.marketCapChange24h,
    market_cap_change_percentage_24h: conv.capChangePct24h(m),
    circulating_supply: m.supply.circulating,
    total_supply: m.supply.total,
    max_supply: m.supply.max,
    ath: ath.value,
    ath_change_percentage: ath.changePct,
    ath_date: ath.date,
    atl: atl.value,
    atl_change_percentage: atl.changePct,
    atl_date: atl.date,
    roi: null,
    last_updated: iso(m.price.lastUpdated),
  };
  if (q.sparkline) row['sparkline_in_7d'] = { price: m.sparkline7d.map((p) => conv.money(p)) };
  for (const w of q.windows) row[`price_change_percentage_${w}_in_currency`] = conv.changePct(m, w);
  return row;
}

/** The whole `/coins/markets` answer. */
export function presentMarkets(
  snapshot: MarketSnapshot,
  q: MarketsQuery,
  members?: ReadonlySet<string>,
): Record<string, unknown>[] {
  const conv = new Converter(snapshot.rates, q.vsCurrency, snapshot.computedAt, q.precision);
  // The default precision's figures are the graph's too: from the per-snapshot rows (`figures.ts`).
  const rows = q.precision.kind === 'default' ? figures.in(snapshot, q.vsCurrency) : undefined;
  return selectMarkets(snapshot, q, members).map((m) => presentMarketRow(m, conv, q, rows));
}
