/**
 * Tickers in CoinGecko's Ticker shape (`/coins/{id}`, `/coins/{id}/tickers`, `/exchanges/{id}`,
 * `/exchanges/{id}/tickers`) and the graph's `Ticker`: the venues' markets of the snapshot, each with the engine's
 * verdict on it (`is_stale`, `is_anomaly`, `trust_score`, see `src/engine/trust.ts`).
 */
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import { aggregateOf, TRUST_ORDER, tickerTrust } from '../../engine/trust.ts';
import type { TickerTrust } from '../../engine/trust.ts';
import type { JudgedTicker } from '../../engine/verdicts.ts';
import { iso, pct } from './common.ts';
import { venueName } from './venues.ts';

/** CoinGecko returns at most 100 tickers per page. */
export const MAX_TICKERS = 100;

export interface TickerContext {
  snapshot: MarketSnapshot;
  /** Crypto quote codes → the asset that prices them (`EngineConfig.quoteAssets`). */
  quoteAssets: ReadonlyMap<string, { id: string; scale: number }>;
  /** A ticker older than this is stale (the engine's price rule). */
  maxAgeMs: number;
}

/** Orders of the ticker lists (CoinGecko's names). Nulls sort last in every order; ties by USD volume. */
export const TICKER_ORDERS = [
  'trust_score_desc',
  'trust_score_asc',
  'volume_desc',
  'volume_asc',
  'market_cap_desc',
  'market_cap_asc',
  'base_target',
] as const;
export type TickerOrder = (typeof TICKER_ORDERS)[number];

/** A ticker ready to serve: the judged ticker, its trust verdict and its figures converted to USD now. */
export interface ServedTicker {
  judged: JudgedTicker;
  trust: TickerTrust;
  /** Uppercase symbol of the base asset. */
  base: string;
  /** Last price in USD at the snapshot's rates; null when its quote cannot be converted. */
  lastUsd: number | null;
  /** 24h volume in USD; null with `lastUsd`. */
  volumeUsd: number | null;
  /** The base asset's market cap in USD; null when unverified. */
  coinMcapUsd: number | null;
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

const index = new WeakMap<
  MarketSnapshot,
  { byBase: Map<string, JudgedTicker[]>; byVenue: Map<string, JudgedTicker[]> }
>();

/** The snapshot's tickers of coin `id` (`by: 'base'`) or of venue `id` (`by: 'venue'`); indexed once per snapshot. */
export function tickersOf(
  snapshot: MarketSnapshot,
  by: 'base' | 'venue',
  id: string,
): readonly JudgedTicker[] {
  let ix = index.get(snapshot);
  if (!ix) {
    ix = { byBase: new Map(), byVenue: new Map() };
    for (const j of snapshot.tickers) {
      const b = ix.byBase.get(j.ticker.base);
      if (b) b.push(j);
      else ix.byBase.set(j.ticker.base, [j]);
      const v = ix.byVenue.get(j.ticker.venue);
      if (v) v.push(j);
      else ix.byVenue.set(j.ticker.venue, [j]);
    }
    index.set(snapshot, ix);
  }
  return (by === 'base' ? ix.byBase : ix.byVenue).get(id) ?? [];
}

/** The given tickers that pass `keep` (default: all), with their verdicts and USD figures, unordered. */
export function servedTickers(
  ctx: TickerContext,
  tickers: Iterable<JudgedTicker>,
  keep: (j: JudgedTicker) => boolean = () => true,
): ServedTicker[] {
  const { snapshot } = ctx;
  const out: ServedTicker[] = [];
  for (const j of tickers) {
    if (!keep(j)) continue;
    const t = j.ticker;
    const coin = snapshot.markets.get(t.base);
    const q = quoteUsd(ctx, t.quote);
    const lastUsd = q === null ? null : t.last * q;
    out.push({
      judged: j,
      trust: tickerTrust(j, aggregateOf(snapshot.markets, t.base), snapshot.computedAt - t.ts > ctx.maxAgeMs),
      base: (coin?.symbol ?? t.base).toUpperCase(),
      lastUsd,
      volumeUsd: lastUsd === null ? null : t.baseVolume * lastUsd,
      coinMcapUsd: coin?.marketCapUsd ?? null,
    });
  }
  return out;
}

const desc = (x: number | null, y: number | null): number =>
  x === null || y === null ? (x === y ? 0 : x === null ? 1 : -1) : y - x;
const asc = (x: number | null, y: number | null): number =>
  x === null || y === null ? (x === y ? 0 : x === null ? 1 : -1) : x - y;
const text = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const trustRank = (s: ServedTicker): number => TRUST_ORDER[s.trust.trustScore ?? 'null'];
/** Last tie-breakers: USD volume desc, then venue, base and quote (a total, repeatable order). */
const tie = (a: ServedTicker, b: ServedTicker): number =>
  desc(a.volumeUsd, b.volumeUsd) ||
  text(a.judged.ticker.venue, b.judged.ticker.venue) ||
  text(a.judged.ticker.base, b.judged.ticker.base) ||
  text(a.judged.ticker.quote, b.judged.ticker.quote);

const COMPARE: Readonly<Record<TickerOrder, (a: ServedTicker, b: ServedTicker) => number>> = {
  trust_score_desc: (a, b) => trustRank(a) - trustRank(b) || tie(a, b),
  // Red first, then yellow, then green; unjudged (null) last as in every order.
  trust_score_asc: (a, b) =>
    (a.trust.trustScore === null ? 9 : -trustRank(a)) - (b.trust.trustScore === null ? 9 : -trustRank(b)) ||
    tie(a, b),
  volume_desc: (a, b) => desc(a.volumeUsd, b.volumeUsd) || tie(a, b),
  volume_asc: (a, b) => asc(a.volumeUsd, b.volumeUsd) || tie(a, b),
  market_cap_desc: (a, b) => desc(a.coinMcapUsd, b.coinMcapUsd) || tie(a, b),
  market_cap_asc: (a, b) => asc(a.coinMcapUsd, b.coinMcapUsd) || tie(a, b),
  base_target: (a, b) =>
    text(a.base, b.base) || text(a.judged.ticker.quote, b.judged.ticker.quote) || tie(a, b),
};

/** Sorts tickers in place by `order`. */
export function sortTickers(rows: ServedTicker[], order: TickerOrder): ServedTicker[] {
  return rows.sort(COMPARE[order]);
}

const inUnits = (usd: number | null, rate: number | null): number | null =>
  usd === null || rate === null || !(rate > 0) ? null : pct(usd / rate);

/**
 * One ticker in CoinGecko's shape, plus ours `venue_kind`. `depth` adds `cost_to_move_up_usd` and
 * `cost_to_move_down_usd` as null: we hold no order books.
 */
export function presentTicker(
  snapshot: MarketSnapshot,
  quoteAssets: TickerContext['quoteAssets'],
  s: ServedTicker,
  depth = false,
): Record<string, unknown> {
  const t = s.judged.ticker;
  const btc = snapshot.rates.now('btc');
  const eth = snapshot.rates.now('eth');
  const target = quoteAssets.get(t.quote);
  return {
    base: s.base,
    target: t.quote.toUpperCase(),
    market: { name: venueName(t.venue), identifier: t.venue, has_trading_incentive: false },
    last: t.last,
    volume: t.baseVolume,
    ...(depth ? { cost_to_move_up_usd: null, cost_to_move_down_usd: null } : {}),
    converted_last: { btc: inUnits(s.lastUsd, btc), eth: inUnits(s.lastUsd, eth), usd: pct(s.lastUsd) },
    converted_volume: {
      btc: inUnits(s.volumeUsd, btc),
      eth: inUnits(s.volumeUsd, eth),
      usd: pct(s.volumeUsd),
    },
    trust_score: s.trust.trustScore,
    bid_ask_spread_percentage: pct(s.trust.spreadPct),
    timestamp: iso(t.ts),
    last_traded_at: iso(t.ts),
    last_fetch_at: iso(t.ts),
    is_anomaly: s.trust.isAnomaly,
    is_stale: s.trust.isStale,
    trade_url: null,
    token_info_url: null,
    coin_id: t.base,
    ...(target ? { target_coin_id: target.id } : {}),
    coin_mcap_usd: pct(s.coinMcapUsd),
    // Ours: cex or dex, and the engine's verdict behind the three fields above.
    venue_kind: t.venueKind,
    verdict: s.judged.verdict,
  };
}

/** `tickers` of `/coins/{id}`: the coin's tickers, most USD volume first, at most 100. */
export function presentTickers(ctx: TickerContext, coinId: string): Record<string, unknown>[] {
  const rows = sortTickers(servedTickers(ctx, tickersOf(ctx.snapshot, 'base', coinId)), 'volume_desc');
  return rows.slice(0, MAX_TICKERS).map((s) => presentTicker(ctx.snapshot, ctx.quoteAssets, s));
}

/** The query of a paged ticker list. */
export interface TickerListQuery {
  order: TickerOrder;
  /** 1-based page of {@link MAX_TICKERS}. */
  page: number;
  depth: boolean;
}

/** One page of tickers in CoinGecko's `{ name, tickers }` body. */
export function presentTickerPage(
  ctx: TickerContext,
  name: string,
  of: { by: 'base' | 'venue'; id: string },
  keep: (j: JudgedTicker) => boolean,
  q: TickerListQuery,
): { name: string; tickers: Record<string, unknown>[] } {
  const rows = sortTickers(servedTickers(ctx, tickersOf(ctx.snapshot, of.by, of.id), keep), q.order);
  const start = (q.page - 1) * MAX_TICKERS;
  return {
    name,
    tickers: rows
      .slice(start, start + MAX_TICKERS)
      .map((s) => presentTicker(ctx.snapshot, ctx.quoteAssets, s, q.depth)),
  };
}
