/**
 * Routes `/exchanges`, `/exchanges/list`, `/exchanges/{id}`, `/exchanges/{id}/tickers`, `/coins/{id}/tickers` and
 * `/exchange_rates` (wiring only: the presenters live in `src/market/present/`).
 */
import type { FastifyInstance } from 'fastify';
import { bool, COIN_ID, int, list, oneOf } from '../../core/params.ts';
import type { Query } from '../../core/params.ts';
import { DEFAULT_PRICE_RULES } from '../../engine/price.ts';
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import type { VenueStats } from '../../engine/trust.ts';
import { priceErrors, VENUE_ID } from '../../market/errors.ts';
import { presentExchangeRates } from '../../market/present/exchange-rates.ts';
import {
  presentExchange,
  presentExchangeList,
  presentExchanges,
  venuesOf,
} from '../../market/present/exchanges.ts';
import { presentTickerPage, TICKER_ORDERS } from '../../market/present/tickers.ts';
import type { TickerContext, TickerListQuery } from '../../market/present/tickers.ts';
import { venueName } from '../../market/present/venues.ts';
import type { ResponseCache } from '../cache.ts';
import { MAX_PAGE } from './coins.ts';
import { coinOr404, MAX_LOOKUP, snapshotOr503, versionOf } from './currency.ts';
import type { PriceApiOptions } from './deps.ts';
import { documented, MAX_AGE } from './schemas/common.ts';
import {
  coinTickersSchema,
  exchangeRatesSchema,
  exchangeSchema,
  exchangesListSchema,
  exchangesSchema,
  exchangeTickersSchema,
} from './schemas/exchanges.ts';

type Req = { Params: { id: string }; Querystring: Query };

/** The venue of path parameter `id`: malformed → 400 INVALID_EXCHANGE_ID, unknown → 404 EXCHANGE_NOT_FOUND. */
function venueOr404(snapshot: MarketSnapshot, id: string): VenueStats {
  if (!VENUE_ID.test(id)) throw priceErrors.badExchangeId();
  const v = venuesOf(snapshot).byId.get(id);
  if (!v) throw priceErrors.exchangeNotFound(id);
  return v;
}

/** `order`, `page` and `depth` of a ticker list; `include_exchange_logo` and `dex_pair_format` are accepted. */
function tickerListQuery(q: Query): TickerListQuery {
  bool(q, 'include_exchange_logo');
  oneOf(q, 'dex_pair_format', ['contract_address', 'symbol'] as const);
  return {
    order: oneOf(q, 'order', TICKER_ORDERS, 'trust_score_desc'),
    page: int(q, 'page', 1, 1, MAX_PAGE),
    depth: bool(q, 'depth'),
  };
}

export function registerExchangeRoutes(
  app: FastifyInstance,
  opts: PriceApiOptions,
  cache: ResponseCache,
): void {
  const { engine } = opts;
  const maxAgeMs = engine.priceRules?.maxAgeMs ?? DEFAULT_PRICE_RULES.maxAgeMs;
  const tickerCtx = (snapshot: MarketSnapshot): TickerContext => ({
    snapshot,
    quoteAssets: engine.quoteAssets,
    maxAgeMs,
  });

  app.get('/exchanges', documented(exchangesSchema), async (req, reply) => {
    const q = req.query as Query;
    const snapshot = snapshotOr503(opts);
    const perPage = int(q, 'per_page', 100, 1, 250);
    const page = int(q, 'page', 1, 1, MAX_PAGE);
    return cache.send(
      req,
      reply,
      `exchanges|${perPage}|${page}`,
      versionOf(snapshot),
      MAX_AGE.exchanges,
      () => presentExchanges(snapshot, page, perPage),
    );
  });

  app.get('/exchanges/list', documented(exchangesListSchema), async (req, reply) => {
    const q = req.query as Query;
    const snapshot = snapshotOr503(opts);
    const status = oneOf(q, 'status', ['active', 'inactive'] as const, 'active');
    return cache.send(
      req,
      reply,
      `exchanges_list|${status}`,
      versionOf(snapshot),
      MAX_AGE.exchangesList,
      () => (status === 'inactive' ? [] : presentExchangeList(snapshot)),
    );
  });

  app.get<Req>('/exchanges/:id', documented(exchangeSchema), async (req, reply) => {
    const snapshot = snapshotOr503(opts);
    const venue = venueOr404(snapshot, req.params.id);
    oneOf(req.query, 'dex_pair_format', ['contract_address', 'symbol'] as const);
    const notice = opts.notice();
    return cache.send(
      req,
      reply,
      `exchange|${venue.id}|${notice}`,
      versionOf(snapshot),
      MAX_AGE.exchanges,
      () => presentExchange(tickerCtx(snapshot), venue, notice),
    );
  });

  app.get<Req>('/exchanges/:id/tickers', documented(exchangeTickersSchema), async (req, reply) => {
    const snapshot = snapshotOr503(opts);
    const venue = venueOr404(snapshot, req.params.id);
    const coins = list(req.query, 'coin_ids', {
      max: MAX_LOOKUP,
      item: COIN_ID,
      itemRule: 'coin ids from /coins/list (e.g. litecoin)',
    });
    const tq = tickerListQuery(req.query);
    const only = coins?.length ? new Set(coins) : null;
    const key = `exchange_tickers|${venue.id}|${JSON.stringify([coins ?? [], tq])}`;
    return cache.send(req, reply, key, versionOf(snapshot), MAX_AGE.coinTickers, () =>
      presentTickerPage(
        tickerCtx(snapshot),
        venueName(venue.id),
        { by: 'venue', id: venue.id },
        (j) => only === null || only.has(j.ticker.base),
        tq,
      ),
    );
  });

  app.get<Req>('/coins/:id/tickers', documented(coinTickersSchema), async (req, reply) => {
    const snapshot = snapshotOr503(opts);
    const coin = coinOr404(snapshot, req.params.id);
    const venues = list(req.query, 'exchange_ids', {
      max: MAX_LOOKUP,
      item: VENUE_ID,
      itemRule: 'exchange ids from /exchanges/list',
    });
    const tq = tickerListQuery(req.query);
    const only = venues?.length ? new Set(venues) : null;
    const key = `coin_tickers|${coin.id}|${JSON.stringify([venues ?? [], tq])}`;
    return cache.send(req, reply, key, versionOf(snapshot), MAX_AGE.coinTickers, () =>
      presentTickerPage(
        tickerCtx(snapshot),
        coin.name,
        { by: 'base', id: coin.id },
        (j) => only === null || only.has(j.ticker.venue),
        tq,
      ),
    );
  });

  app.get('/exchange_rates', documented(exchangeRatesSchema), async (req, reply) => {
    const snapshot = snapshotOr503(opts);
    return cache.send(req, reply, 'exchange_rates', versionOf(snapshot), MAX_AGE.exchangeRates, () =>
      presentExchangeRates(snapshot, engine.currencies),
    );
  });
}
