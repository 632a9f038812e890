/**
 * OpenAPI schemas of the venue routes: `/exchanges`, `/exchanges/list`, `/exchanges/{id}`, `/exchanges/{id}/tickers`,
 * `/coins/{id}/tickers` and `/exchange_rates`, with the Ticker shape `/coins/{id}` shares.
 */
import { TICKER_ORDERS } from '../../../market/present/tickers.ts';
import { bool, ERROR_REF, flag, int, MAX_AGE, nInt, nNum, num, object, query, str } from './common.ts';
import type { Json } from './common.ts';

const converted: Json = object({ btc: nNum, eth: nNum, usd: nNum });

/** One ticker (CoinGecko's Ticker, plus ours `venue_kind` and `verdict`). */
export const tickerSchema: Json = {
  type: 'object',
  required: [
    'base',
    'target',
    'market',
    'last',
    'volume',
    'converted_last',
    'converted_volume',
    'trust_score',
    'bid_ask_spread_percentage',
    'timestamp',
    'is_anomaly',
    'is_stale',
    'coin_id',
    'venue_kind',
    'verdict',
  ],
  properties: {
    base: { ...str, description: 'Uppercase symbol of the base coin' },
    target: { ...str, description: 'Uppercase quote code' },
    market: object({ name: str, identifier: str, has_trading_incentive: bool }),
    last: num,
    volume: { ...num, description: '24h volume in base units' },
    cost_to_move_up_usd: { type: 'null', description: 'With depth=true: null (we hold no order books)' },
    cost_to_move_down_usd: { type: 'null', description: 'With depth=true: null (we hold no order books)' },
    converted_last: converted,
    converted_volume: converted,
    trust_score: {
      type: ['string', 'null'],
      enum: ['green', 'yellow', 'red', null],
      description:
        'Ours, from the engine: red = dropped as stale or outlier; green = used and within 1 % of the aggregate ' +
        '(spread ≤ 2 % when quoted); yellow = used otherwise; null = not judged (unconvertible quote)',
    },
    bid_ask_spread_percentage: { ...nNum, description: 'null without a bid and an ask (DEX pools)' },
    timestamp: str,
    last_traded_at: str,
    last_fetch_at: str,
    is_anomaly: {
      type: ['boolean', 'null'],
      description: 'true = dropped as an outlier; null = not judged (stale or unconvertible)',
    },
    is_stale: { ...bool, description: "true = older than the engine's staleness limit (15 min)" },
    trade_url: { type: 'null' },
    token_info_url: { type: 'null' },
    coin_id: str,
    target_coin_id: str,
    coin_mcap_usd: nNum,
    venue_kind: { type: 'string', enum: ['cex', 'dex'], description: 'Ours' },
    verdict: {
      type: 'string',
      enum: ['used', 'outlier', 'stale', 'unpriced', 'ignored'],
      description: "Ours: the engine's decision on this ticker at the last aggregation",
    },
  },
};

const idParam = (what: string): Json =>
  object({
    id: { type: 'string', description: `${what} id, e.g. ${what === 'Coin' ? 'litecoin' : 'kraken'}` },
  });
const exchangeNotFound = { description: 'No venue has this id (EXCHANGE_NOT_FOUND)', ...ERROR_REF };
const coinNotFound = { description: 'No coin has this id (COIN_NOT_FOUND)', ...ERROR_REF };
const page: Json = { ...int, minimum: 1, default: 1, description: '1-based page of 100 tickers' };
const tickerParams = {
  order: {
    type: 'string',
    enum: [...TICKER_ORDERS],
    default: 'trust_score_desc',
    description: 'Nulls last in every order; ties by USD volume',
  },
  page,
  depth: flag('Adds cost_to_move_up_usd / cost_to_move_down_usd as null (no order books)', false),
  include_exchange_logo: flag('Accepted; no effect (we hold no logos)', false),
  dex_pair_format: {
    type: 'string',
    enum: ['contract_address', 'symbol'],
    description: 'Accepted; no effect',
  },
};
const tickerPage: Json = object({ name: str, tickers: { type: 'array', items: tickerSchema } });

const exchangeFields = {
  name: str,
  year_established: { type: 'null', description: 'We hold no source for it' },
  country: { type: 'null', description: 'We hold no source for it' },
  description: str,
  url: str,
  image: str,
  has_trading_incentive: bool,
  trust_score: {
    ...nInt,
    minimum: 0,
    maximum: 10,
    description: 'Ours: round(10 × used ÷ judged tickers); null when none was judged',
  },
  trust_score_rank: nInt,
  trade_volume_24h_btc: { ...nNum, description: 'Fresh, converted tickers (used and outliers), in BTC' },
  trade_volume_24h_btc_normalized: { ...nNum, description: 'Tickers used in a price only, in BTC' },
};

export const exchangesSchema: Json = {
  summary: 'The venues we aggregate from',
  description: `Ranked by our trust score, then volume. Cache-Control max-age ${MAX_AGE.exchanges}.`,
  tags: ['exchanges'],
  operationId: 'exchanges',
  querystring: query({
    per_page: { ...int, minimum: 1, maximum: 250, default: 100 },
    page: { ...int, minimum: 1, default: 1 },
  }),
  response: {
    200: {
      type: 'array',
      items: object({ id: str, ...exchangeFields, venue_kind: { type: 'string', enum: ['cex', 'dex'] } }),
    },
  },
};

export const exchangesListSchema: Json = {
  summary: 'Every venue: id and name',
  description: `By id. Cache-Control max-age ${MAX_AGE.exchangesList}.`,
  tags: ['exchanges'],
  operationId: 'exchangesList',
  querystring: query({
    status: { type: 'string', enum: ['active', 'inactive'], default: 'active', description: 'inactive: []' },
  }),
  response: { 200: { type: 'array', items: object({ id: str, name: str }) } },
};

export const exchangeSchema: Json = {
  summary: 'One venue with its top 100 tickers',
  description: `Cache-Control max-age ${MAX_AGE.exchanges}.`,
  tags: ['exchanges'],
  operationId: 'exchange',
  params: idParam('Exchange'),
  querystring: query({ dex_pair_format: tickerParams.dex_pair_format }),
  response: {
    200: object({
      ...exchangeFields,
      facebook_url: str,
      reddit_url: str,
      telegram_url: str,
      slack_url: str,
      other_url_1: str,
      other_url_2: str,
      twitter_handle: str,
      centralized: bool,
      public_notice: { ...str, description: 'The demo-data notice while we serve generated data, else ""' },
      alert_notice: str,
      coins: int,
      pairs: int,
      status_updates: { type: 'array', maxItems: 0 },
      tickers: { type: 'array', items: tickerSchema },
      venue_kind: { type: 'string', enum: ['cex', 'dex'] },
      judged_tickers: int,
      used_tickers: int,
    }),
    404: exchangeNotFound,
  },
};

export const exchangeTickersSchema: Json = {
  summary: "A venue's tickers",
  description: `100 a page. Cache-Control max-age ${MAX_AGE.coinTickers}.`,
  tags: ['exchanges'],
  operationId: 'exchangeTickers',
  params: idParam('Exchange'),
  querystring: query({
    coin_ids: { ...str, description: 'Comma-separated coin ids: only these base coins' },
    ...tickerParams,
  }),
  response: { 200: tickerPage, 404: exchangeNotFound },
};

export const coinTickersSchema: Json = {
  summary: "A coin's tickers on the venues we aggregate",
  description: `100 a page. Cache-Control max-age ${MAX_AGE.coinTickers}.`,
  tags: ['coins'],
  operationId: 'coinTickers',
  params: idParam('Coin'),
  querystring: query({
    exchange_ids: { ...str, description: 'Comma-separated exchange ids: only these venues' },
    ...tickerParams,
  }),
  response: { 200: tickerPage, 404: coinNotFound },
};

export const exchangeRatesSchema: Json = {
  summary: 'How much of each currency one bitcoin buys',
  description:
    'From our bitcoin price and FX rates; value null when a rate is unknown. ' +
    `Cache-Control max-age ${MAX_AGE.exchangeRates}.`,
  tags: ['exchange_rates'],
  operationId: 'exchangeRates',
  response: {
    200: object({
      rates: {
        type: 'object',
        description: 'Keyed by every code of /simple/supported_vs_currencies',
        additionalProperties: object({
          name: str,
          unit: str,
          value: nNum,
          type: { type: 'string', enum: ['fiat', 'crypto', 'commodity'] },
        }),
      },
    }),
  },
};
