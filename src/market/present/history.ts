/**
 * `/coins/{id}/history`: a coin as of 00:00 UTC of a date, in CoinGecko's shape. The figures are those of the last
 * observation before that moment: the close of the coin's daily bar of the day before (its price, its 24h volume,
 * its market cap if supply was verified then), converted with each currency's rate of that moment.
 */
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import type { AssetMarket, Bar } from '../../engine/types.ts';
import { imageUrl, iso } from './common.ts';
import { applyPrecision } from './precision.ts';

/** The bar whose close is the coin's state at 00:00 UTC of `dayMs`: that of the day before. */
export const historyBarDay = (dayMs: number): number => dayMs - 86_400_000;

/** `dd-mm-yyyy` of a UTC day (CoinGecko's `date` format), for echoing. */
export function dmy(dayMs: number): string {
  const d = new Date(dayMs);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}-${two(d.getUTCMonth() + 1)}-${d.getUTCFullYear()}`;
}

/** One figure of `bar` (at its close) in every currency, by the rate of the close's time; null where unknown. */
function perCurrency(
  snapshot: MarketSnapshot,
  currencies: readonly string[],
  usd: number | null,
  at: number,
): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const code of currencies) {
    const r = snapshot.rates.at(code, at);
    out[code] = usd === null || r === null || !(r > 0) ? null : applyPrecision(usd / r, { kind: 'default' });
  }
  return out;
}

/**
 * The body. Without a bar (no observation in the 24 hours before the date) every figure is null and
 * `market_data.observed_at` is null: nothing is guessed from further back.
 */
export function presentCoinHistory(
  snapshot: MarketSnapshot,
  m: AssetMarket,
  bar: Bar | null,
  currencies: readonly string[],
  localization: boolean,
): Record<string, unknown> {
  const at = bar?.closeTs ?? 0;
  const figure = (usd: (b: Bar) => number | null) =>
    perCurrency(snapshot, currencies, bar ? usd(bar) : null, at);
  return {
    id: m.id,
    symbol: m.symbol.toLowerCase(),
    name: m.name,
    ...(localization ? { localization: { en: m.name } } : {}),
    image: { thumb: imageUrl(m.id), small: imageUrl(m.id) },
    market_data: {
      current_price: figure((b) => b.close),
      market_cap: figure((b) => b.marketCapUsd),
      total_volume: figure((b) => b.volumeUsd),
      // Ours: when the observation these figures are was made (before 00:00 UTC of the date).
      observed_at: bar ? iso(bar.closeTs) : null,
    },
    community_data: null,
    developer_data: null,
    public_interest_stats: { alexa_rank: null, bing_matches: null },
  };
}
