/** Routes `/coins/list`, `/coins/markets`, `/coins/{id}`, `/coins/categories` and `/coins/categories/list`. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_PRICE_RULES } from '../../engine/price.ts';
import type { ResponseCache } from '../cache.ts';
import { bool, int, list, oneOf, single } from '../../core/params.ts';
import type { Query } from '../../core/params.ts';
import { coinOr404, parseLookup, parseVsCurrency, snapshotOr503, versionOf } from './currency.ts';
import type { PriceApiOptions } from './deps.ts';
import { priceErrors } from '../../market/errors.ts';
import { parsePrecision } from '../../market/present/precision.ts';
import { CATEGORY_ORDERS, presentCategories, presentCategoryList } from '../../market/present/categories.ts';
import { presentCoin } from '../../market/present/coin.ts';
import { MARKET_ORDERS, MARKET_WINDOWS, presentMarkets } from '../../market/present/markets.ts';
import type { MarketsQuery, MarketWindow } from '../../market/present/markets.ts';
import { documented, MAX_AGE } from './schemas/common.ts';
import { coinSchema } from './schemas/coin.ts';
import { categoriesListSchema, categoriesSchema, coinsListSchema, marketsSchema } from './schemas/coins.ts';

/** Highest `page` of `/coins/markets` (far beyond our catalog; bounds the work a request can ask for). */
export const MAX_PAGE = 10_000;
const CATEGORY_ID = /^[a-z0-9][a-z0-9-]{0,99}$/;

export function registerCoinRoutes(app: FastifyInstance, opts: PriceApiOptions, cache: ResponseCache): void {
  const { engine } = opts;
  const assets = new Map(engine.assets.map((a) => [a.id, a]));
  const members = new Map(engine.categories.map((c) => [c.id, new Set(c.members)]));
  const currencies = engine.currencies.map((c) => c.code);

  app.get('/coins/list', documented(coinsListSchema), async (req, reply) => {
    const q = req.query as Query;
    const platforms = bool(q, 'include_platform');
    const status = oneOf(q, 'status', ['active', 'inactive'] as const, 'active');
    // Catalog data: no snapshot needed, cached for good (version 0).
    return cache.send(req, reply, `list|${platforms}|${status}`, 0, MAX_AGE.coinsList, () =>
      status === 'inactive'
        ? []
        : [...engine.assets]
            .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
            .map((a) => ({
              id: a.id,
              symbol: a.symbol.toLowerCase(),
              name: a.name,
              ...(platforms ? { platforms: {} } : {}),
            })),
    );
  });

  app.get('/coins/markets', documented(marketsSchema), async (req, reply) => {
    const q = req.query as Query;
    const snapshot = snapshotOr503(opts);
    const vsCurrency = parseVsCurrency(q, snapshot.rates);
    const category = single(q, 'category');
    let catMembers: ReadonlySet<string> | undefined;
    if (category !== undefined && category !== '') {
      catMembers = CATEGORY_ID.test(category) ? members.get(category) : undefined;
      if (!catMembers) throw priceErrors.unknownCategory(category);
    }
    const lookup = parseLookup(q);
    single(q, 'locale');
    const mq: MarketsQuery = {
      vsCurrency,
      ...(catMembers && category ? { category } : {}),
      ...(lookup ? { lookup } : {}),
      order: oneOf(q, 'order', MARKET_ORDERS, 'market_cap_desc'),
      perPage: int(q, 'per_page', 100, 1, 250),
      page: int(q, 'page', 1, 1, MAX_PAGE),
      sparkline: bool(q, 'sparkline'),
      windows: (list(q, 'price_change_percentage', {
        max: MARKET_WINDOWS.length,
        item: new RegExp(`^(${MARKET_WINDOWS.join('|')})$`),
        itemRule: MARKET_WINDOWS.join(', '),
      }) ?? []) as MarketWindow[],
      precision: parsePrecision(q),
    };
    const key = `markets|${JSON.stringify(mq)}`;
    return cache.send(
      req,
      reply,
      key,
      versionOf(snapshot),
      MAX_AGE.markets,
      () => presentMarkets(snapshot, mq, catMembers),
      mq.precision.kind === 'full',
    );
  });

  const maxAgeMs = engine.priceRules?.maxAgeMs ?? DEFAULT_PRICE_RULES.maxAgeMs;
  const coinHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    const q = req.query as Query;
    const snapshot = snapshotOr503(opts);
    const coin = coinOr404(snapshot, (req.params as { id: string }).id);
    const cq = {
      localization: bool(q, 'localization', true),
      tickers: bool(q, 'tickers', true),
      marketData: bool(q, 'market_data', true),
      sparkline: bool(q, 'sparkline'),
      categoriesDetails: bool(q, 'include_categories_details'),
    };
    bool(q, 'community_data', true);
    bool(q, 'developer_data', true);
    oneOf(q, 'dex_pair_format', ['contract_address', 'symbol'] as const);
    const precision = parsePrecision(q);
    const notice = opts.notice();
    const key = `coin|${coin.id}|${JSON.stringify([cq, precision, notice])}`;
    return cache.send(
      req,
      reply,
      key,
      versionOf(snapshot),
      MAX_AGE.coin,
      () =>
        presentCoin(
          {
            snapshot,
            quoteAssets: engine.quoteAssets,
            maxAgeMs,
            info: assets.get(coin.id),
            categories: engine.categories,
            currencies,
            notice,
          },
          coin,
          cq,
          precision,
        ),
      precision.kind === 'full',
    );
  };
  app.get('/coins/:id', documented(coinSchema), coinHandler);
  // pycoingecko's get_coin_by_id requests `coins/<id>/` (trailing slash); same answer, left out of OpenAPI.
  app.get('/coins/:id/', { ...documented(coinSchema), schema: { hide: true } }, coinHandler);

  app.get('/coins/categories/list', documented(categoriesListSchema), async (req, reply) =>
    cache.send(req, reply, 'categories_list', 0, MAX_AGE.categoriesList, () =>
      presentCategoryList(engine.categories),
    ),
  );

  app.get('/coins/categories', documented(categoriesSchema), async (req, reply) => {
    const q = req.query as Query;
    const snapshot = snapshotOr503(opts);
    const order = oneOf(q, 'order', CATEGORY_ORDERS, 'market_cap_desc');
    return cache.send(req, reply, `categories|${order}`, versionOf(snapshot), MAX_AGE.categories, () =>
      presentCategories(snapshot.categories, order),
    );
  });
}
