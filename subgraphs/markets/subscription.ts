/**
 * `Subscription.prices` and `Subscription.markets` of the markets subgraph. Each field resolves one event from one
 * snapshot with the query resolvers' helpers (`Converter`, `selectMarkets`), so its nulls are the queries' nulls:
 *
 * - executed as an operation (`execute`, which runs a subscription's fields once), it is the current event, computed
 *   from the request's snapshot: how the router produces every event (docs/graph.md, "Subscriptions");
 * - subscribed to (`subscribe`), it yields one event per snapshot the market publishes, starting with the current one.
 */
import type { MarketSnapshot } from '../../src/engine/snapshot.ts';
import type { AssetMarket } from '../../src/engine/types.ts';
import { COIN_ID, CURRENCY_CODE } from '../../src/core/params.ts';
import { Converter } from '../../src/market/present/common.ts';
import { MARKET_ORDERS, selectMarkets } from '../../src/market/present/markets.ts';
import type { MarketOrder } from '../../src/market/present/markets.ts';
import type { MarketsContext } from './context.ts';
import { badCoinId, invalidArgument, unknownCurrency } from './errors.ts';
import type {
  MarketRow,
  PriceUpdate,
  SubscriptionMarketsArgs,
  SubscriptionPricesArgs,
  SubscriptionResolvers,
} from './generated/resolvers-types.ts';

/** The most ids (`prices`) or coins (`markets`) one stream may ask for; a plan may allow fewer (the router). */
export const MAX_STREAM_ITEMS = 250;

function converterOf(snap: MarketSnapshot, currency: string): Converter {
  const code = currency.trim().toLowerCase();
  if (!CURRENCY_CODE.test(code) || !snap.rates.supports(code)) throw unknownCurrency(currency);
  return new Converter(snap.rates, code, snap.computedAt, { kind: 'default' });
}

/** The coins of `ids` the snapshot tracks, in the order of `ids`, each once. */
function coinsOf(snap: MarketSnapshot, ids: readonly string[]): AssetMarket[] {
  if (ids.length < 1 || ids.length > MAX_STREAM_ITEMS)
    throw invalidArgument('ids', `must hold 1 to ${MAX_STREAM_ITEMS} coin ids`);
  for (const id of ids) if (!COIN_ID.test(id)) throw badCoinId();
  const out: AssetMarket[] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    const m = snap.markets.get(id);
    if (!m || seen.has(id)) continue;
    seen.add(id);
    out.push(m);
  }
  return out;
}

/** One `prices` event: every coin of `ids` the engine tracks, in `currency`. */
export function priceUpdates(snap: MarketSnapshot, ids: readonly string[], currency: string): PriceUpdate[] {
  const coins = coinsOf(snap, ids);
  const conv = converterOf(snap, currency);
  return coins.map((m) => ({
    id: m.id,
    symbol: m.symbol.toLowerCase(),
    currency: conv.code,
    price: conv.money(m.price.priceUsd),
    change24h: conv.changePct(m, '24h'),
    confidence: m.price.confidence,
    updatedAt: m.price.lastUpdated,
  }));
}

/** One `markets` event: the first `first` coins in `order`, in `currency`. */
export function marketRows(
  snap: MarketSnapshot,
  first: number,
  order: string,
  currency: string,
): MarketRow[] {
  if (!Number.isInteger(first) || first < 1 || first > MAX_STREAM_ITEMS)
    throw invalidArgument('first', `must be an integer from 1 to ${MAX_STREAM_ITEMS}`);
  const ord = order.toLowerCase() as MarketOrder;
  if (!MARKET_ORDERS.includes(ord))
    throw invalidArgument('order', `must be one of ${MARKET_ORDERS.join(', ')}`);
  const conv = converterOf(snap, currency);
  const rows = selectMarkets(snap, {
    vsCurrency: conv.code,
    order: ord,
    perPage: first,
    page: 1,
    sparkline: false,
    windows: [],
    precision: { kind: 'default' },
  });
  return rows.map((m, i) => ({
    position: i + 1,
    rank: m.rank,
    id: m.id,
    symbol: m.symbol.toLowerCase(),
    name: m.name,
    currency: conv.code,
    price: conv.money(m.price.priceUsd),
    marketCap: conv.money(m.marketCapUsd),
    volume24h: conv.money(m.price.volumeUsd),
    change24h: conv.changePct(m, '24h'),
    confidence: m.price.confidence,
    updatedAt: m.price.lastUpdated,
  }));
}

/** The snapshot an event is computed from: the subscribed stream's (its root value), else the request's. */
const snapshotFor = (root: unknown, ctx: MarketsContext): MarketSnapshot =>
  root && typeof root === 'object' && 'markets' in root ? (root as MarketSnapshot) : ctx.snapshot();

/** Each snapshot the market publishes, the current one first; only the newest is kept for a slow reader. */
function ticks(ctx: MarketsContext): AsyncIterable<MarketSnapshot> {
  const feed = ctx.snapshots;
  if (!feed) throw invalidArgument('subscription', 'is served by the router, over SSE or WebSocket');
  return feed();
}

const subscribe = (_root: unknown, _args: unknown, ctx: MarketsContext) => ticks(ctx);

export const Subscription: SubscriptionResolvers<MarketsContext> = {
  prices: {
    subscribe,
    resolve: (root: unknown, { ids, currency }: SubscriptionPricesArgs, ctx: MarketsContext) =>
      priceUpdates(snapshotFor(root, ctx), ids, currency),
  },
  markets: {
    subscribe,
    resolve: (root: unknown, { first, order, currency }: SubscriptionMarketsArgs, ctx: MarketsContext) =>
      marketRows(snapshotFor(root, ctx), first, order ?? 'MARKET_CAP_DESC', currency ?? 'usd'),
  },
};
