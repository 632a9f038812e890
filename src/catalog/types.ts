/** Static reference data: the assets we track, the quote currencies we serve, the curated categories. */

export interface AssetInfo {
  /** Lowercase id, stable, as in `/coins/list` (e.g. `litecoin`). */
  id: string;
  /** Lowercase ticker symbol as CoinGecko writes it (e.g. `ltc`). */
  symbol: string;
  name: string;
  /** Kit coin ticker (uppercase) when the asset is one of the 19 wallet coins, else undefined. */
  kitTicker?: string;
  hashingAlgorithm: string | null;
  blockTimeMinutes: number | null;
  /** ISO date (YYYY-MM-DD) or null. */
  genesisDate: string | null;
  homepage: string | null;
}

export type CurrencyKind = 'fiat' | 'crypto' | 'metal' | 'unit';

export interface CurrencyInfo {
  /** Lowercase code as used in `vs_currencies` (e.g. `usd`, `btc`, `sats`). */
  code: string;
  name: string;
  kind: CurrencyKind;
  /**
   * For crypto and unit currencies: the asset whose aggregate price defines the rate, and how many of that asset
   * one unit is (`sats` → bitcoin × 1e-8). Fiat and metal rates come from FX sources instead.
   */
  asset?: { id: string; scale: number };
}

export interface CategoryInfo {
  /** Lowercase slug, used as `/coins/markets?category=`. */
  id: string;
  name: string;
  description: string;
  /** Asset ids. */
  members: string[];
}
