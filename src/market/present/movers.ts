/**
 * `/coins/top_gainers_losers` and `/coins/list/new` in CoinGecko's shapes, from the snapshot: the coins whose price
 * moved most over a window (in the requested currency), and the coins we began tracking most recently.
 */
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import type { AssetMarket, ChangeWindow } from '../../engine/types.ts';
import type { Precision } from './precision.ts';
import { Converter, imageUrl, unixSeconds } from './common.ts';

/** CoinGecko lists 30 gainers and 30 losers. */
export const MOVERS = 30;
/** CoinGecko's floor: only coins with at least this 24h volume in USD are listed. */
export const MOVERS_MIN_VOLUME_USD = 50_000;
/** `duration` values (CoinGecko's). */
export const MOVER_DURATIONS = [
  '1h',
  '24h',
  '7d',
  '14d',
  '30d',
  '60d',
  '1y',
] as const satisfies readonly ChangeWindow[];
export type MoverDuration = (typeof MOVER_DURATIONS)[number];
/** `price_change_percentage` values of this endpoint (CoinGecko's). */
export const MOVER_WINDOWS = [
  '1h',
  '24h',
  '7d',
  '14d',
  '30d',
  '60d',
  '200d',
  '1y',
] as const satisfies readonly ChangeWindow[];
/** `top_coins`: the market-cap rank a coin must reach, or every coin (`all`, also those without a rank). */
export const TOP_COINS = ['300', '500', '1000', 'all'] as const;
export type TopCoins = (typeof TOP_COINS)[number];
/** CoinGecko lists the 200 newest coins. */
export const NEW_COINS = 200;

export interface MoversQuery {
  vsCurrency: string;
  duration: MoverDuration;
  topCoins: TopCoins;
  windows: readonly ChangeWindow[];
  precision: Precision;
}

/** A coin that moved, with its change over the duration in the requested currency. */
export interface Mover {
  market: AssetMarket;
  change: number;
}

/**
 * The largest rises (`gainers`, change > 0) and falls (`losers`, change < 0) over `duration`, at most 30 each, among
 * coins with a price, a 24h volume of at least 50,000 USD, a known change in the currency and (unless `all`) a
 * market-cap rank within `topCoins`. Ties by id.
 */
export function selectMovers(
  snapshot: MarketSnapshot,
  conv: Converter,
  duration: MoverDuration,
  topCoins: TopCoins,
): { gainers: Mover[]; losers: Mover[] } {
  const maxRank = topCoins === 'all' ? Infinity : Number(topCoins);
  const all: Mover[] = [];
  for (const m of snapshot.ranked) {
    if (m.price.priceUsd === null || (m.price.volumeUsd ?? 0) < MOVERS_MIN_VOLUME_USD) continue;
    if (topCoins !== 'all' && (m.rank === null || m.rank > maxRank)) continue;
    const change = conv.changePct(m, duration);
    if (change !== null && change !== 0) all.push({ market: m, change });
  }
  const byId = (a: Mover, b: Mover) => (a.market.id < b.market.id ? -1 : a.market.id > b.market.id ? 1 : 0);
  const gainers = all.filter((x) => x.change > 0).sort((a, b) => b.change - a.change || byId(a, b));
  const losers = all.filter((x) => x.change < 0).sort((a, b) => a.change - b.change || byId(a, b));
  return { gainers: gainers.slice(0, MOVERS), losers: losers.slice(0, MOVERS) };
}

/** `/coins/top_gainers_losers`: `{ top_gainers, top_losers }`, keys named by the currency as CoinGecko does. */
export function presentMovers(
  snapshot: MarketSnapshot,
  q: MoversQuery,
): { top_gainers: Record<string, unknown>[]; top_losers: Record<string, unknown>[] } {
  const conv = new Converter(snapshot.rates, q.vsCurrency, snapshot.computedAt, q.precision);
  const { gainers, losers } = selectMovers(snapshot, conv, q.duration, q.topCoins);
  const c = q.vsCurrency;
  const windows = [...new Set<ChangeWindow>(['24h', q.duration, ...q.windows])];
  const row = ({ market: m }: Mover): Record<string, unknown> => {
    const out: Record<string, unknown> = {
      id: m.id,
      symbol: m.symbol.toLowerCase(),
      name: m.name,
      image: imageUrl(m.id),
      market_cap_rank: m.rank,
      [c]: conv.money(m.price.priceUsd),
      [`${c}_24h_vol`]: conv.money(m.price.volumeUsd),
    };
    for (const w of windows) out[`${c}_${w}_change`] = conv.changePct(m, w);
    return out;
  };
  return { top_gainers: gainers.map(row), top_losers: losers.map(row) };
}

/** A coin and when we first observed it (UNIX ms). */
export interface NewCoin {
  market: AssetMarket;
  listedAt: number;
}

/** The 200 coins first observed most recently, newest first (ties by id); coins without history are left out. */
export function selectNewCoins(snapshot: MarketSnapshot): NewCoin[] {
  const out: NewCoin[] = [];
  for (const [id, listedAt] of snapshot.listedAt) {
    const market = snapshot.markets.get(id);
    if (market) out.push({ market, listedAt });
  }
  out.sort((a, b) => b.listedAt - a.listedAt || (a.market.id < b.market.id ? -1 : 1));
  return out.slice(0, NEW_COINS);
}

/** `/coins/list/new`: `[{ id, symbol, name, activated_at }]`, `activated_at` in UNIX seconds. */
export function presentNewCoins(snapshot: MarketSnapshot): Record<string, unknown>[] {
  return selectNewCoins(snapshot).map(({ market: m, listedAt }) => ({
    id: m.id,
    symbol: m.symbol.toLowerCase(),
    name: m.name,
    activated_at: unixSeconds(listedAt),
  }));
}
