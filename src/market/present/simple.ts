/** `/simple/price`: snapshot → `{ <id>: { <c>, <c>_market_cap, <c>_24h_vol, <c>_24h_change, last_updated_at } }`. */
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import type { AssetMarket } from '../../engine/types.ts';
import type { Precision } from './precision.ts';
import { Converter, unixSeconds } from './common.ts';

/** Which optional figures to include (CoinGecko's `include_*` flags, all default false). */
export interface SimplePriceFlags {
  marketCap: boolean;
  vol24h: boolean;
  change24h: boolean;
  lastUpdatedAt: boolean;
}

/**
 * Prices of `coins` in each of `currencies`. A figure that is unknown (no eligible ticker, unverified supply,
 * unknown rate) is `null`, never 0 and never left out, so a client can tell "unknown" from "not asked for".
 */
export function presentSimplePrice(
  snapshot: MarketSnapshot,
  coins: readonly AssetMarket[],
  currencies: readonly string[],
  flags: SimplePriceFlags,
  precision: Precision,
): Record<string, Record<string, number | null>> {
  const conv = currencies.map((c) => new Converter(snapshot.rates, c, snapshot.computedAt, precision));
  const out: Record<string, Record<string, number | null>> = {};
  for (const m of coins) {
    const row: Record<string, number | null> = {};
    for (const c of conv) {
      row[c.code] = c.money(m.price.priceUsd);
      if (flags.marketCap) row[`${c.code}_market_cap`] = c.money(m.marketCapUsd);
      if (flags.vol24h) row[`${c.code}_24h_vol`] = c.money(m.price.volumeUsd);
      if (flags.change24h) row[`${c.code}_24h_change`] = c.changePct(m, '24h');
    }
    if (flags.lastUpdatedAt) row['last_updated_at'] = unixSeconds(m.price.lastUpdated);
    out[m.id] = row;
  }
  return out;
}
