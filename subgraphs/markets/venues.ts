/**
 * Resolvers of the venue side of the markets subgraph: `Ticker`, `Exchange`, `ExchangeRate`, `Coin.tickers` and the
 * root fields `exchanges`, `exchange`, `exchangeRates`. The same presenters as REST (`/coins/{id}/tickers`,
 * `/exchanges*`, `/exchange_rates`): the snapshot's tickers with the engine's verdicts, the venues' figures and
 * trust scores, the BTC rates.
 */
import { DEFAULT_PRICE_RULES } from '../../src/engine/price.ts';
import type { MarketSnapshot } from '../../src/engine/snapshot.ts';
import type { VenueStats } from '../../src/engine/trust.ts';
import type { JudgedTicker } from '../../src/engine/verdicts.ts';
import { VENUE_ID } from '../../src/market/errors.ts';
import { priceErrors } from '../../src/market/errors.ts';
import { pct } from '../../src/market/present/common.ts';
import { btcRates } from '../../src/market/present/exchange-rates.ts';
import { venuesOf } from '../../src/market/present/exchanges.ts';
import { MAX_TICKERS, servedTickers, sortTickers, tickersOf } from '../../src/market/present/tickers.ts';
import type { ServedTicker, TickerContext, TickerOrder } from '../../src/market/present/tickers.ts';
import { venueName } from '../../src/market/present/venues.ts';
import type { MarketsContext } from './context.ts';
import { converter, firstArg, snapshotOf } from './convert.ts';
import { fromApiError } from './errors.ts';
import { CurrencyType, TickerVerdict, TrustScore, VenueKind } from './generated/resolvers-types.ts';
import type { Resolvers, TickerOrder as GraphTickerOrder } from './generated/resolvers-types.ts';

const VERDICT = {
  used: TickerVerdict.Used,
  outlier: TickerVerdict.Outlier,
  stale: TickerVerdict.Stale,
  unpriced: TickerVerdict.Unpriced,
  ignored: TickerVerdict.Ignored,
} as const;
const TRUST = { green: TrustScore.Green, yellow: TrustScore.Yellow, red: TrustScore.Red } as const;
const KIND = { cex: VenueKind.Cex, dex: VenueKind.Dex } as const;
const TYPE = {
  fiat: CurrencyType.Fiat,
  crypto: CurrencyType.Crypto,
  commodity: CurrencyType.Commodity,
} as const;

const tickerContext = (ctx: MarketsContext, snapshot: MarketSnapshot): TickerContext => ({
  snapshot,
  quoteAssets: ctx.engine.quoteAssets,
  maxAgeMs: ctx.engine.priceRules?.maxAgeMs ?? DEFAULT_PRICE_RULES.maxAgeMs,
});

/** A page of tickers of a coin or a venue, with an optional filter, in the order asked. */
function tickerList(
  ctx: MarketsContext,
  of: { by: 'base' | 'venue'; id: string },
  args: { first?: number | null; order?: GraphTickerOrder | null },
  keep?: (j: JudgedTicker) => boolean,
): ServedTicker[] {
  const snap = snapshotOf(ctx);
  const first = firstArg(args.first, MAX_TICKERS, MAX_TICKERS);
  const order = (args.order ?? 'TRUST_SCORE_DESC').toLowerCase() as TickerOrder;
  const rows = servedTickers(tickerContext(ctx, snap), tickersOf(snap, of.by, of.id), keep);
  return sortTickers(rows, order).slice(0, first);
}

/** The venue of a ticker in the request's snapshot (always there: the venue is made from its tickers). */
function venueOfTicker(ctx: MarketsContext, venue: string): VenueStats {
  const v = venuesOf(snapshotOf(ctx)).byId.get(venue);
  if (!v) throw fromApiError(priceErrors.exchangeNotFound(venue));
  return v;
}

export const venueResolvers: Required<
  Pick<Resolvers<MarketsContext>, 'Ticker' | 'Exchange' | 'ExchangeRate'>
> & {
  Query: Pick<NonNullable<Resolvers<MarketsContext>['Query']>, 'exchanges' | 'exchange' | 'exchangeRates'>;
  Coin: Pick<NonNullable<Resolvers<MarketsContext>['Coin']>, 'tickers'>;
} = {
  Query: {
    exchanges: (_root, _args, ctx) => venuesOf(snapshotOf(ctx)).list,
    exchange: (_root, { id }, ctx) => {
      if (!VENUE_ID.test(id)) throw fromApiError(priceErrors.badExchangeId());
      return venuesOf(snapshotOf(ctx)).byId.get(id) ?? null;
    },
    exchangeRates: (_root, _args, ctx) => btcRates(snapshotOf(ctx), ctx.engine.currencies),
  },
  Coin: {
    tickers: (m, { first, order, exchangeIds }, ctx) => {
      const only = exchangeIds?.length ? new Set(exchangeIds) : null;
      return tickerList(ctx, { by: 'base', id: m.id }, { first, order }, (j) =>
        only === null ? true : only.has(j.ticker.venue),
      );
    },
  },
  Exchange: {
    name: (s) => venueName(s.id),
    kind: (s) => KIND[s.kind],
    volume24h: (s, { currency }, ctx) => converter(ctx, currency).money(s.volumeUsd),
    normalizedVolume24h: (s, { currency }, ctx) => converter(ctx, currency).money(s.normalizedVolumeUsd),
    judgedTickers: (s) => s.judged,
    usedTickers: (s) => s.used,
    tickers: (s, { first, order, coinIds }, ctx) => {
      const only = coinIds?.length ? new Set(coinIds) : null;
      return tickerList(ctx, { by: 'venue', id: s.id }, { first, order }, (j) =>
        only === null ? true : only.has(j.ticker.base),
      );
    },
  },
  Ticker: {
    coin: (t, _args, ctx) => ctx.loaders.coinById.load(t.judged.ticker.base),
    target: (t) => t.judged.ticker.quote.toUpperCase(),
    targetCoin: (t, _args, ctx) => {
      const qa = ctx.engine.quoteAssets.get(t.judged.ticker.quote);
      return qa ? ctx.loaders.coin.load(qa.id) : null;
    },
    exchange: (t, _args, ctx) => venueOfTicker(ctx, t.judged.ticker.venue),
    last: (t) => t.judged.ticker.last,
    volume: (t) => t.judged.ticker.baseVolume,
    convertedLast: (t, { currency }, ctx) => converter(ctx, currency).money(t.lastUsd),
    convertedVolume: (t, { currency }, ctx) => converter(ctx, currency).money(t.volumeUsd),
    bidAskSpreadPercentage: (t) => pct(t.trust.spreadPct),
    timestamp: (t) => t.judged.ticker.ts,
    verdict: (t) => VERDICT[t.judged.verdict],
    trustScore: (t) => (t.trust.trustScore === null ? null : TRUST[t.trust.trustScore]),
    isAnomaly: (t) => t.trust.isAnomaly,
    isStale: (t) => t.trust.isStale,
  },
  ExchangeRate: { type: (r) => TYPE[r.type] },
};
