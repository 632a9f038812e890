/**
 * `/exchanges`, `/exchanges/list`, `/exchanges/{id}`: the venues we aggregate from, in CoinGecko's shapes, with
 * figures from the snapshot's own tickers (volume, pairs, coins) and a trust score from the engine's verdicts
 * (`src/engine/trust.ts`). Facts we hold no source for (year, country, links, logo) keep CoinGecko's empty values
 * (`null` for the year and country, `""` for text), never an invented value.
 */
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import { venueStats } from '../../engine/trust.ts';
import type { VenueStats } from '../../engine/trust.ts';
import { pct } from './common.ts';
import type { TickerContext } from './tickers.ts';
import { MAX_TICKERS, presentTicker, servedTickers, sortTickers, tickersOf } from './tickers.ts';
import { venueName } from './venues.ts';

const memo = new WeakMap<MarketSnapshot, { list: VenueStats[]; byId: Map<string, VenueStats> }>();

/** The snapshot's venues, ranked (computed once per snapshot). */
export function venuesOf(snapshot: MarketSnapshot): { list: VenueStats[]; byId: Map<string, VenueStats> } {
  let v = memo.get(snapshot);
  if (!v) {
    const list = venueStats(snapshot.tickers);
    v = { list, byId: new Map(list.map((s) => [s.id, s])) };
    memo.set(snapshot, v);
  }
  return v;
}

/** A USD figure in BTC at the snapshot's rate; null when either is unknown. */
export function inBtc(snapshot: MarketSnapshot, usd: number | null): number | null {
  const btc = snapshot.rates.now('btc');
  return usd === null || btc === null || !(btc > 0) ? null : pct(usd / btc);
}

/** The fields `/exchanges` and `/exchanges/{id}` share. */
function common(snapshot: MarketSnapshot, s: VenueStats): Record<string, unknown> {
  return {
    name: venueName(s.id),
    year_established: null,
    country: null,
    description: '',
    url: '',
    image: '',
    has_trading_incentive: false,
    trust_score: s.trustScore,
    trust_score_rank: s.trustScoreRank,
    trade_volume_24h_btc: inBtc(snapshot, s.volumeUsd),
    trade_volume_24h_btc_normalized: inBtc(snapshot, s.normalizedVolumeUsd),
  };
}

/** `/exchanges`: one page of venues in trust-score rank order. */
export function presentExchanges(
  snapshot: MarketSnapshot,
  page: number,
  perPage: number,
): Record<string, unknown>[] {
  const start = (page - 1) * perPage;
  return venuesOf(snapshot)
    .list.slice(start, start + perPage)
    .map((s) => ({ id: s.id, ...common(snapshot, s), venue_kind: s.kind }));
}

/** `/exchanges/list`: every venue as `{ id, name }`, by id. */
export function presentExchangeList(snapshot: MarketSnapshot): { id: string; name: string }[] {
  return venuesOf(snapshot)
    .list.map((s) => ({ id: s.id, name: venueName(s.id) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** `/exchanges/{id}`: the venue with its figures and its top 100 tickers by trust score. */
export function presentExchange(
  ctx: TickerContext,
  s: VenueStats,
  notice: string | null,
): Record<string, unknown> {
  const { snapshot } = ctx;
  const tickers = sortTickers(
    servedTickers(ctx, tickersOf(snapshot, 'venue', s.id)),
    'trust_score_desc',
  ).slice(0, MAX_TICKERS);
  return {
    ...common(snapshot, s),
    facebook_url: '',
    reddit_url: '',
    telegram_url: '',
    slack_url: '',
    other_url_1: '',
    other_url_2: '',
    twitter_handle: '',
    centralized: s.kind === 'cex',
    public_notice: notice ?? '',
    alert_notice: '',
    coins: s.coins,
    pairs: s.pairs,
    status_updates: [],
    tickers: tickers.map((t) => presentTicker(snapshot, ctx.quoteAssets, t)),
    // Ours: how the trust score was reached.
    venue_kind: s.kind,
    judged_tickers: s.judged,
    used_tickers: s.used,
  };
}
