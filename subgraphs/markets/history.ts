/**
 * Resolvers over history and rankings: `Coin.history`, `Coin.candleRange`, `Coin.listedAt`, `CoinHistory`,
 * `topMovers`, `newCoins` and `globalChart` — the REST routes `/coins/{id}/history`, `/coins/{id}/ohlc/range`,
 * `/coins/top_gainers_losers`, `/coins/list/new` and `/global/market_cap_chart`, through the same parsers, engine
 * functions and presenters.
 */
import { candles } from '../../src/engine/chart.ts';
import { globalChart } from '../../src/engine/global-chart.ts';
import { DAY_MS, HOUR_MS } from '../../src/engine/history.ts';
import { parseRange, pickResolution } from '../../src/market/chart-params.ts';
import { checkRangeSpan, parseHistoryDate } from '../../src/market/history-params.ts';
import { historyBarDay } from '../../src/market/present/history.ts';
import { NEW_COINS, selectMovers, selectNewCoins } from '../../src/market/present/movers.ts';
import type { MoverDuration, TopCoins as RestTopCoins } from '../../src/market/present/movers.ts';
import type { CoinHistoryRow, MarketsContext } from './context.ts';
import { converter, daysArg, firstArg, rateAt, round, snapshotOf } from './convert.ts';
import { graphqlErrors } from './errors.ts';
import { CandleInterval, ChangeDuration, TopCoins } from './generated/resolvers-types.ts';
import type { Resolvers } from './generated/resolvers-types.ts';

const DURATIONS: Readonly<Record<ChangeDuration, MoverDuration>> = {
  [ChangeDuration.H1]: '1h',
  [ChangeDuration.H24]: '24h',
  [ChangeDuration.D7]: '7d',
  [ChangeDuration.D14]: '14d',
  [ChangeDuration.D30]: '30d',
  [ChangeDuration.D60]: '60d',
  [ChangeDuration.Y1]: '1y',
};
const TOP: Readonly<Record<TopCoins, RestTopCoins>> = {
  [TopCoins.Top_300]: '300',
  [TopCoins.Top_500]: '500',
  [TopCoins.Top_1000]: '1000',
  [TopCoins.All]: 'all',
};

/** A figure of a history row's bar in `currency` at the rate of the bar's close. */
function atClose(
  row: CoinHistoryRow,
  usd: number | null | undefined,
  currency: string,
  ctx: MarketsContext,
): number | null {
  if (!row.bar || usd == null) return null;
  const r = converter(ctx, currency).rateAt(row.bar.closeTs);
  return r === null ? null : round(usd / r);
}

type Q = NonNullable<Resolvers<MarketsContext>['Query']>;
type C = NonNullable<Resolvers<MarketsContext>['Coin']>;

export const historyResolvers: Required<
  Pick<Resolvers<MarketsContext>, 'CoinHistory' | 'Mover' | 'NewCoin'>
> & {
  Query: Pick<Q, 'topMovers' | 'newCoins' | 'globalChart'>;
  Coin: Pick<C, 'history' | 'candleRange' | 'listedAt'>;
} = {
  Query: {
    topMovers: (_root, { currency, duration, topCoins }, ctx) => {
      const conv = converter(ctx, currency);
      const { gainers, losers } = selectMovers(
        snapshotOf(ctx),
        conv,
        DURATIONS[duration ?? ChangeDuration.H24],
        TOP[topCoins ?? TopCoins.Top_1000],
      );
      const row = ({ market, change }: (typeof gainers)[number]) => ({
        market,
        change,
        price: conv.money(market.price.priceUsd),
        volume24h: conv.money(market.price.volumeUsd),
      });
      return { gainers: gainers.map(row), losers: losers.map(row) };
    },
    newCoins: (_root, { first }, ctx) =>
      selectNewCoins(snapshotOf(ctx)).slice(0, firstArg(first, NEW_COINS, NEW_COINS)),
    globalChart: async (_root, { days, currency }, ctx) => {
      const conv = converter(ctx, currency);
      const snap = snapshotOf(ctx);
      const now = ctx.now;
      const span = daysArg(days) * DAY_MS;
      const from = now - span;
      const res = pickResolution(span, { from, to: now }, now);
      const bars = await ctx.store.readBarsMany([...snap.markets.keys()], res, from, now);
      const g = snap.global;
      const chart = globalChart(bars.values(), {
        from,
        to: now,
        rate: rateAt(conv),
        latest: { ts: snap.computedAt, marketCapUsd: g.totalMarketCapUsd, volumeUsd: g.totalVolumeUsd },
      });
      return {
        points: chart.market_cap.map(([time, cap], i) => ({
          time,
          marketCap: round(cap),
          volume: round(chart.volume[i]?.[1] ?? null),
        })),
      };
    },
  },
  Coin: {
    history: async (m, { date }, ctx) => {
      const day = graphqlErrors(() => parseHistoryDate({ date }, ctx.now));
      const barDay = historyBarDay(day);
      const [bar] = await ctx.loaders.barsByCoin.load({ id: m.id, res: '1d', from: barDay, to: barDay });
      return { market: m, day, bar: bar ?? null };
    },
    candleRange: async (m, { from, to, interval, currency }, ctx) => {
      const conv = converter(ctx, currency);
      const now = ctx.now;
      const daily = interval === CandleInterval.Daily;
      const window = graphqlErrors(() => {
        const w = parseRange({ from, to }, now);
        checkRangeSpan(w, daily ? 'daily' : 'hourly', now);
        return w;
      });
      const width = daily ? DAY_MS : HOUR_MS;
      const res = daily ? '1d' : '1h';
      const bars =
        window.from <= window.to
          ? await ctx.loaders.barsByCoin.load({
              id: m.id,
              res,
              from: Math.max(0, window.from - width),
              to: window.to - width,
            })
          : [];
      const open = ctx.store.openBar
        ? ctx.store.openBar(m.id, res, now)
        : daily
          ? ctx.store.openDailyBar(m.id, now)
          : null;
      return candles(bars, width, { from: window.from, to: window.to, rate: rateAt(conv), today: open }).map(
        ([time, open, high, low, close]) => ({
          time,
          open: round(open),
          high: round(high),
          low: round(low),
          close: round(close),
        }),
      );
    },
    listedAt: (m, _args, ctx) => snapshotOf(ctx).listedAt.get(m.id) ?? null,
  },
  Mover: { coin: (r) => r.market },
  NewCoin: { coin: (r) => r.market },
  CoinHistory: {
    date: (r) => new Date(r.day).toISOString().slice(0, 10),
    observedAt: (r) => r.bar?.closeTs ?? null,
    price: (r, { currency }, ctx) => atClose(r, r.bar?.close, currency, ctx),
    marketCap: (r, { currency }, ctx) => atClose(r, r.bar?.marketCapUsd, currency, ctx),
    volume: (r, { currency }, ctx) => atClose(r, r.bar?.volumeUsd, currency, ctx),
  },
};
