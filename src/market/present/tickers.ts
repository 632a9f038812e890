/** `tickers` of `/coins/{id}`: the venues' latest tickers of one coin in CoinGecko's Ticker shape. */
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import type { Ticker } from '../../ingest/types.ts';
import { iso, pct } from './common.ts';

/** CoinGecko returns at most 100 tickers per page. */
export const MAX_TICKERS = 100;

export interface TickerContext {
  snapshot: MarketSnapshot;
  /** Crypto quote codes → the asset that prices them (`EngineConfig.quoteAssets`). */
  quoteAssets: ReadonlyMap<string, { id: string; scale: number }>;
  /** A ticker older than this is stale (the engine's price rule). */
  maxAgeMs: number;
}

/** USD per unit of a ticker's quote: fiat/metal rate, or our aggregate price of the quote asset; null if unknown. */
function quoteUsd(ctx: TickerContext, quote: string): number | null {
  if (quote === 'usd') return 1;
  const qa = ctx.quoteAssets.get(quote);
  if (qa) {
    const p = ctx.snapshot.markets.get(qa.id)?.price.priceUsd ?? null;
    return p === null ? null : p * qa.scale;
  }
  return ctx.snapshot.rates.supports(quote) ? ctx.snapshot.rates.now(quote) : null;
}

const inUnits = (usd: number | null, rate: number | null): number | null =>
  usd === null || rate === null || !(rate > 0) ? null : pct(usd / rate);

/**
 * The coin's tickers, most USD volume first, at most 100. `is_anomaly` is null: the engine's outlier decision is
 * made per aggregation and not kept per ticker. `is_stale` applies the engine's staleness rule at snapshot time.
 */
export function presentTickers(
  ctx: TickerContext,
  coinId: string,
  tickers: Iterable<Ticker>,
): Record<string, unknown>[] {
  const coin = ctx.snapshot.markets.get(coinId);
  const btc = ctx.snapshot.rates.now('btc');
  const eth = ctx.snapshot.rates.now('eth');
  const rows: { usdVolume: number; row: Record<string, unknown> }[] = [];
  for (const t of tickers) {
    if (t.base !== coinId) continue;
    const q = quoteUsd(ctx, t.quote);
    const lastUsd = q === null ? null : t.last * q;
    const volUsd = lastUsd === null ? null : t.baseVolume * lastUsd;
    const target = ctx.quoteAssets.get(t.quote);
    const row: Record<string, unknown> = {
      base: (coin?.symbol ?? t.base).toUpperCase(),
      target: t.quote.toUpperCase(),
      market: { name: t.venue, identifier: t.venue, has_trading_incentive: false },
      last: t.last,
      volume: t.baseVolume,
      converted_last: { btc: inUnits(lastUsd, btc), eth: inUnits(lastUsd, eth), usd: pct(lastUsd) },
      converted_volume: { btc: inUnits(volUsd, btc), eth: inUnits(volUsd, eth), usd: pct(volUsd) },
      trust_score: null,
      bid_ask_spread_percentage:
        t.bid !== null && t.ask !== null && t.ask > 0 && t.ask >= t.bid
          ? pct(((t.ask - t.bid) / t.ask) * 100)
          : null,
      timestamp: iso(t.ts),
      last_traded_at: iso(t.ts),
      last_fetch_at: iso(t.ts),
      is_anomaly: null,
      is_stale: ctx.snapshot.computedAt - t.ts > ctx.maxAgeMs,
      trade_url: null,
      token_info_url: null,
      coin_id: coinId,
      ...(target ? { target_coin_id: target.id } : {}),
      coin_mcap_usd: pct(coin?.marketCapUsd ?? null),
      // Ours: cex or dex.
      venue_kind: t.venueKind,
    };
    rows.push({ usdVolume: volUsd ?? -1, row });
  }
  rows.sort((a, b) => b.usdVolume - a.usdVolume);
  return rows.slice(0, MAX_TICKERS).map((r) => r.row);
}
