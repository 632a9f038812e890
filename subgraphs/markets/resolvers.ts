/**
 * Resolvers of the markets subgraph, typed with the generated `Resolvers` (parents are the engine's domain types).
 * Money is converted with the REST API's pure helpers (`Converter`: the current rate for current figures, the rate of
 * the time for past ones; default precision), so the graph and REST agree figure for figure. Coins reached by id go
 * through the request's `coinById` loader, history through `barsByCoin`.
 */
import { DateTime } from '../shared/scalars.ts';
import { DAY_MS } from '../../src/engine/history.ts';
import { searchAssets } from '../../src/engine/search.ts';
import { supplyStatusReason } from '../../src/engine/supply.ts';
import type { AssetMarket, SupplyStatus as SupplyStatusModel } from '../../src/engine/types.ts';
import { COIN_ID } from '../../src/core/params.ts';
import { nextTurn } from '../../src/core/turns.ts';
import { pickResolution } from '../../src/market/chart-params.ts';
import type { ChartInterval as RestChartInterval } from '../../src/market/chart-params.ts';
import { CATEGORY_ORDERS, presentCategories } from '../../src/market/present/categories.ts';
import { pct } from '../../src/market/present/common.ts';
import { MARKET_ORDERS, selectMarkets } from '../../src/market/present/markets.ts';
import type { MarketOrder } from '../../src/market/present/markets.ts';
import type { MarketsContext } from './context.ts';
import { converter, daysArg, DEFAULT_PRECISION, figuresIn, round, snapshotOf } from './convert.ts';
import type { CurrentFigures } from '../../src/market/present/figures.ts';
import { historyResolvers } from './history.ts';
import { venueResolvers } from './venues.ts';
import { marketHealth } from './health.ts';
import { Subscription } from './subscription.ts';
import { coinMining } from './mining.ts';
import { badCoinId, graphqlErrors, invalidArgument, unknownCategory } from './errors.ts';
import { ChartInterval, SupplyStatus } from './generated/resolvers-types.ts';
import type { CoinResolvers, Resolvers } from './generated/resolvers-types.ts';

/** Largest `first` of `coins` (as REST's `per_page`). */
export const MAX_PAGE = 250;
/** Most coins `search` returns. */
export const SEARCH_COINS = 25;

/**
 * A current figure of a coin in the requested currency (null when unverified or the rate is unknown), from the
 * per-snapshot rows shared with the price API.
 */
const current =
  (pick: (f: CurrentFigures) => number | null) =>
  (m: AssetMarket, { currency }: { currency: string }, ctx: MarketsContext): number | null =>
    pick(figuresIn(ctx, currency).of(m));

/** Opaque cursor of the item at `offset` of a connection. */
export const encodeCursor = (offset: number): string => Buffer.from(`offset:${offset}`).toString('base64url');

function decodeCursor(cursor: string): number {
  const m = /^offset:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw invalidArgument('after', 'must be a cursor of this connection (an endCursor or edge cursor)');
  return Number(m[1]);
}

const SUPPLY_STATUS: Readonly<Record<SupplyStatusModel, SupplyStatus>> = {
  verified: SupplyStatus.Verified,
  single_source: SupplyStatus.SingleSource,
  sources_disagree: SupplyStatus.SourcesDisagree,
  no_source: SupplyStatus.NoSource,
};

const INTERVALS: Readonly<Record<ChartInterval, RestChartInterval | undefined>> = {
  [ChartInterval.Auto]: undefined,
  [ChartInterval.FiveMinutes]: '5m',
  [ChartInterval.Hourly]: 'hourly',
  [ChartInterval.Daily]: 'daily',
};

/** Points above which a chart is made in a turn of its own (a 90-day hourly chart has 2,161; a 30-day one 721). */
const LONG_CHART_POINTS = 1_000;

const Coin: CoinResolvers<MarketsContext> = {
  __resolveReference: (ref, ctx) => ctx.loaders.coinById.load(ref.id),
  symbol: (m) => m.symbol.toLowerCase(),
  price: current((f) => f.price),
  marketCap: current((f) => f.marketCap),
  fullyDilutedValuation: current((f) => f.fdv),
  volume24h: current((f) => f.volume24h),
  high24h: current((f) => f.high24h),
  low24h: current((f) => f.low24h),
  priceChange24h: current((f) => f.priceChange24h),
  marketCapChange24h: current((f) => f.marketCapChange24h),
  marketCapChangePercentage24h: (m) => pct(m.marketCapChangePct24h),
  ath: (m, { currency }, ctx) =>
    m.ath && { value: converter(ctx, currency).extreme(m.ath, m.price.priceUsd).value, date: m.ath.ts },
  atl: (m, { currency }, ctx) =>
    m.atl && { value: converter(ctx, currency).extreme(m.atl, m.price.priceUsd).value, date: m.atl.ts },
  sparkline7d: (m, { currency }, ctx) => {
    const conv = converter(ctx, currency);
    return m.sparkline7d.map((p) => conv.money(p));
  },
  confidence: (m) => m.price.confidence,
  venues: (m) => m.price.venues,
  lastUpdated: (m) => m.price.lastUpdated,
  mining: coinMining,
  chart: async (m, { days, currency, interval }, ctx) => {
    const conv = converter(ctx, currency);
    // The window ends at the snapshot's time: a chart built once per snapshot depends on the snapshot alone (a
    // request answered from charts already built reads nothing else, so the router may keep its answer).
    const now = snapshotOf(ctx).computedAt;
    const n = daysArg(days);
    const span = n * DAY_MS;
    const from = now - span;
    const res = graphqlErrors(() =>
      pickResolution(span, { from, to: now }, now, INTERVALS[interval ?? ChartInterval.Auto]),
    );
    // Built once per snapshot (and shared with the price API); the first build of a request's charts is one batch.
    const s = await ctx.charts.series(
      snapshotOf(ctx),
      { coin: m, code: conv.code, res, spanKey: String(n), from, to: now },
      (r, f, t) => ctx.loaders.barsByCoin.load({ id: m.id, res: r, from: f, to: t }),
    );
    // A long chart's points are made (and completed by the executor) in a turn of the event loop of their own: a
    // request for many long charts would otherwise make them all in one task, with every other request waiting.
    if (s.prices.length > LONG_CHART_POINTS) await nextTurn();
    return {
      points: s.prices.map(([time, p], i) => ({
        time,
        price: round(p),
        marketCap: round(s.market_caps[i]?.[1] ?? null),
        volume: round(s.total_volumes[i]?.[1] ?? null),
      })),
    };
  },
  candles: async (m, { days, currency }, ctx) => {
    const conv = converter(ctx, currency);
    const snap = snapshotOf(ctx);
    const now = snap.computedAt;
    const n = daysArg(days);
    const rows = await ctx.charts.candles(
      snap,
      { coin: m, code: conv.code, days: n, now, today: () => ctx.store.openDailyBar(m.id, now) },
      (r, f, t) => ctx.loaders.barsByCoin.load({ id: m.id, res: r, from: f, to: t }),
    );
    // No candle at all: the coin has no history (null), as a REST /ohlc of it answers [].
    if (rows.length === 0) return null;
    return rows.map(([time, open, high, low, close]) => ({
      time,
      open: round(open),
      high: round(high),
      low: round(low),
      close: round(close),
    }));
  },
};

export const resolvers: Resolvers<MarketsContext> = {
  DateTime,
  Query: {
    marketHealth: (_root, _args, ctx) => marketHealth(ctx),
    coins: (_root, { first, after, order, category, ids }, ctx) => {
      const snap = snapshotOf(ctx);
      const size = first ?? 50;
      if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE)
        throw invalidArgument('first', `must be an integer from 1 to ${MAX_PAGE}`);
      const start = after == null ? 0 : decodeCursor(after) + 1;
      let members: ReadonlySet<string> | undefined;
      if (category != null) {
        const cat = ctx.engine.categories.find((c) => c.id === category);
        if (!cat) throw unknownCategory(category);
        members = new Set(cat.members);
      }
      const ord = (order ?? 'MARKET_CAP_DESC').toLowerCase() as MarketOrder;
      if (!MARKET_ORDERS.includes(ord))
        throw invalidArgument('order', `must be one of ${MARKET_ORDERS.join(', ')}`);
      // The REST selection and order (`/coins/markets`), unpaged: the connection pages it by offset.
      const all = selectMarkets(
        snap,
        {
          vsCurrency: 'usd',
          order: ord,
          perPage: Number.MAX_SAFE_INTEGER,
          page: 1,
          sparkline: false,
          windows: [],
          precision: DEFAULT_PRECISION,
          ...(ids ? { lookup: { by: 'ids' as const, values: ids } } : {}),
        },
        members,
      );
      const page = all.slice(start, start + size);
      const edges = page.map((node, i) => ({ cursor: encodeCursor(start + i), node }));
      return {
        edges,
        totalCount: all.length,
        pageInfo: {
          hasNextPage: start + size < all.length,
          hasPreviousPage: start > 0,
          startCursor: edges[0]?.cursor ?? null,
          endCursor: edges[edges.length - 1]?.cursor ?? null,
        },
      };
    },
    coin: (_root, { id }, ctx) => {
      if (!COIN_ID.test(id)) throw badCoinId();
      return ctx.loaders.coin.load(id);
    },
    categories: (_root, { order }, ctx) => {
      const snap = snapshotOf(ctx);
      const ord = (order ?? 'MARKET_CAP_DESC').toLowerCase() as (typeof CATEGORY_ORDERS)[number];
      if (!CATEGORY_ORDERS.includes(ord))
        throw invalidArgument('order', `must be one of ${CATEGORY_ORDERS.join(', ')}`);
      // REST's category order, applied to the domain objects.
      const byId = new Map(snap.categories.map((c) => [c.id, c]));
      return presentCategories(snap.categories, ord).flatMap((row) => byId.get(row['id'] as string) ?? []);
    },
    global: (_root, _args, ctx) => snapshotOf(ctx).global,
    search: (_root, { query }, ctx) => {
      if (query.length < 1 || query.length > 100)
        throw invalidArgument('query', 'must be a text of 1 to 100 characters');
      const snap = snapshotOf(ctx);
      const q = query.trim().toLowerCase();
      return {
        coins: searchAssets(q, snap.ranked, SEARCH_COINS),
        categories:
          q === '' ? [] : snap.categories.filter((c) => c.id.includes(q) || c.name.toLowerCase().includes(q)),
      };
    },
    trending: (_root, _args, ctx) => [...snapshotOf(ctx).trending],
    currencies: (_root, _args, ctx) => ctx.engine.currencies.map((c) => c.code),
    ...venueResolvers.Query,
    ...historyResolvers.Query,
  },
  Subscription,
  Coin: { ...Coin, ...venueResolvers.Coin, ...historyResolvers.Coin },
  Ticker: venueResolvers.Ticker,
  Exchange: venueResolvers.Exchange,
  ExchangeRate: venueResolvers.ExchangeRate,
  CoinHistory: historyResolvers.CoinHistory,
  Mover: historyResolvers.Mover,
  NewCoin: historyResolvers.NewCoin,
  Supply: {
    sourceCount: (s) => s.circulatingSources,
    status: (s) => SUPPLY_STATUS[s.status],
    reason: (s) => supplyStatusReason(s),
    sources: (s) => s.readings,
  },
  SupplyReading: {
    kind: (r) => r.sourceKind,
    observedAt: (r) => r.ts,
  },
  PriceChanges: {
    h1: (c) => pct(c['1h']),
    h24: (c) => pct(c['24h']),
    d7: (c) => pct(c['7d']),
    d14: (c) => pct(c['14d']),
    d30: (c) => pct(c['30d']),
    d60: (c) => pct(c['60d']),
    d200: (c) => pct(c['200d']),
    y1: (c) => pct(c['1y']),
  },
  Category: {
    description: (c) => c.content,
    marketCap: (c, { currency }, ctx) => converter(ctx, currency).money(c.marketCapUsd),
    marketCapChangePercentage24h: (c) => pct(c.marketCapChange24hPct),
    volume24h: (c, { currency }, ctx) => converter(ctx, currency).money(c.volume24hUsd),
    topCoins: async (c, _args, ctx) =>
      (await ctx.loaders.coinById.loadMany(c.top3)).filter((m): m is AssetMarket => !(m instanceof Error)),
  },
  GlobalMarket: {
    totalMarketCap: (g, { currency }, ctx) => converter(ctx, currency).money(g.totalMarketCapUsd),
    totalVolume: (g, { currency }, ctx) => converter(ctx, currency).money(g.totalVolumeUsd),
    marketCapPercentage: (g) =>
      Object.entries(g.marketCapPercentage)
        .map(([symbol, percentage]) => ({ symbol, percentage }))
        .sort((a, b) => b.percentage - a.percentage),
  },
  TrendingCoin: {
    coin: (t, _args, ctx) => ctx.loaders.coinById.load(t.id),
  },
};
