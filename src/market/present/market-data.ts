/** `market_data` of `/coins/{id}`: per-currency maps for every supported currency, USD scalars, and our extras. */
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import { supplyStatusReason } from '../../engine/supply.ts';
import type { AssetMarket, ChangeWindow } from '../../engine/types.ts';
import type { Precision } from './precision.ts';
import { Converter, iso, pct } from './common.ts';

const WINDOWS: readonly ChangeWindow[] = ['1h', '24h', '7d', '14d', '30d', '60d', '200d', '1y'];

/** The `*_in_currency` maps, in CoinGecko's order. */
const IN_CURRENCY = [
  'price_change_24h_in_currency',
  ...WINDOWS.map((w) => `price_change_percentage_${w}_in_currency`),
  'market_cap_change_24h_in_currency',
  'market_cap_change_percentage_24h_in_currency',
];

type Maps = Record<string, Record<string, number | string | null>>;

/**
 * Builds `market_data`. Maps are keyed by every code in `currencies`; a value is null when the USD figure is
 * unknown or the currency's rate is (ATH/ATL: the rate at the extreme's time, see {@link Converter.extreme}).
 */
export function presentMarketData(
  snapshot: MarketSnapshot,
  m: AssetMarket,
  currencies: readonly string[],
  precision: Precision,
  sparkline: boolean,
): Record<string, unknown> {
  const names = [
    'current_price',
    'ath',
    'ath_change_percentage',
    'ath_date',
    'atl',
    'atl_change_percentage',
    'atl_date',
    'market_cap',
    'fully_diluted_valuation',
    'total_volume',
    'high_24h',
    'low_24h',
    ...IN_CURRENCY,
  ];
  const maps: Maps = Object.fromEntries(names.map((n) => [n, {}]));
  const set = (name: string, code: string, v: number | string | null): void => {
    (maps[name] as Record<string, number | string | null>)[code] = v;
  };
  for (const code of currencies) {
    const c = new Converter(snapshot.rates, code, snapshot.computedAt, precision);
    const ath = c.extreme(m.ath, m.price.priceUsd);
    const atl = c.extreme(m.atl, m.price.priceUsd);
    set('current_price', code, c.money(m.price.priceUsd));
    set('ath', code, ath.value);
    set('ath_change_percentage', code, ath.changePct);
    set('ath_date', code, ath.date);
    set('atl', code, atl.value);
    set('atl_change_percentage', code, atl.changePct);
    set('atl_date', code, atl.date);
    set('market_cap', code, c.money(m.marketCapUsd));
    set('fully_diluted_valuation', code, c.money(m.fdvUsd));
    set('total_volume', code, c.money(m.price.volumeUsd));
    set('high_24h', code, c.money(m.high24hUsd));
    set('low_24h', code, c.money(m.low24hUsd));
    set('price_change_24h_in_currency', code, c.change24h(m));
    for (const w of WINDOWS) set(`price_change_percentage_${w}_in_currency`, code, c.changePct(m, w));
    set('market_cap_change_24h_in_currency', code, c.capChange24h(m));
    set('market_cap_change_percentage_24h_in_currency', code, c.capChangePct24h(m));
  }
  const usd = new Converter(snapshot.rates, 'usd', snapshot.computedAt, precision);
  const s = m.supply;
  const out: Record<string, unknown> = {
    current_price: maps['current_price'],
    total_value_locked: null,
    mcap_to_tvl_ratio: null,
    fdv_to_tvl_ratio: null,
    roi: null,
    ath: maps['ath'],
    ath_change_percentage: maps['ath_change_percentage'],
    ath_date: maps['ath_date'],
    atl: maps['atl'],
    atl_change_percentage: maps['atl_change_percentage'],
    atl_date: maps['atl_date'],
    market_cap: maps['market_cap'],
    market_cap_rank: m.rank,
    market_cap_rank_with_rehypothecated: null,
    fully_diluted_valuation: maps['fully_diluted_valuation'],
    market_cap_fdv_ratio:
      m.marketCapUsd !== null && m.fdvUsd !== null && m.fdvUsd > 0 ? pct(m.marketCapUsd / m.fdvUsd) : null,
    total_volume: maps['total_volume'],
    high_24h: maps['high_24h'],
    low_24h: maps['low_24h'],
    price_change_24h: usd.change24h(m),
    ...Object.fromEntries(
      WINDOWS.filter((w) => w !== '1h').map((w) => [`price_change_percentage_${w}`, pct(m.changes[w])]),
    ),
    market_cap_change_24h: usd.capChange24h(m),
    market_cap_change_percentage_24h: pct(m.marketCapChangePct24h),
    ...Object.fromEntries(IN_CURRENCY.map((n) => [n, maps[n]])),
    total_supply: s.total,
    max_supply: s.max,
    max_supply_infinite: s.maxInfinite,
    circulating_supply: s.circulating,
    outstanding_supply: null,
    outstanding_token_value_usd: null,
    last_updated: iso(m.price.lastUpdated),
    // Our extras: how much to trust the price and the supply behind the market cap.
    confidence: m.price.confidence,
    venues: m.price.venues,
    supply_verified: s.verified,
    supply_status: s.status,
    supply_status_reason: supplyStatusReason(s),
    circulating_supply_sources: s.readings.map((r) => ({
      source: r.source,
      kind: r.sourceKind,
      circulating_supply: r.value,
      observed_at: iso(r.ts),
      agrees: r.agrees,
    })),
    supply_updated_at: iso(s.updatedAt),
  };
  if (sparkline) out['sparkline_7d'] = { price: m.sparkline7d.map((p) => usd.money(p)) };
  return out;
}
