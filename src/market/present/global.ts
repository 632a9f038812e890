/** `/global`: market-wide totals over coins with a verified market cap, in every supported currency. */
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import { Converter, pct, unixSeconds } from './common.ts';

const DEFAULT = { kind: 'default' } as const;

/**
 * `{ data: {...} }` as CoinGecko, plus `verified_coins`: the number of coins the totals and shares are computed
 * over. ICO counts are 0 (we track no ICOs). `volume_change_percentage_24h_usd` is null: the engine does not keep
 * the total volume of 24 h ago.
 */
export function presentGlobal(
  snapshot: MarketSnapshot,
  currencies: readonly string[],
): { data: Record<string, unknown> } {
  const g = snapshot.global;
  const cap: Record<string, number | null> = {};
  const vol: Record<string, number | null> = {};
  for (const code of currencies) {
    const c = new Converter(snapshot.rates, code, snapshot.computedAt, DEFAULT);
    cap[code] = c.money(g.totalMarketCapUsd);
    vol[code] = c.money(g.totalVolumeUsd);
  }
  return {
    data: {
      active_cryptocurrencies: g.activeCryptocurrencies,
      upcoming_icos: 0,
      ongoing_icos: 0,
      ended_icos: 0,
      markets: g.markets,
      total_market_cap: cap,
      total_volume: vol,
      market_cap_percentage: Object.fromEntries(
        Object.entries(g.marketCapPercentage).map(([sym, v]) => [sym, pct(v)]),
      ),
      market_cap_change_percentage_24h_usd: pct(g.marketCapChangePercentage24hUsd),
      volume_change_percentage_24h_usd: null,
      updated_at: unixSeconds(g.updatedAt),
      verified_coins: g.verifiedCoins,
    },
  };
}
