/**
 * OpenAPI schemas of `/coins/{id}/history`, `/coins/{id}/ohlc/range`, `/global/market_cap_chart`,
 * `/coins/top_gainers_losers` and `/coins/list/new`.
 */
import { MAX_DAYS } from '../../../market/chart-params.ts';
import { MOVER_DURATIONS, MOVER_WINDOWS, TOP_COINS } from '../../../market/present/movers.ts';
import { CHART_MAX_AGE } from './charts.ts';
import {
  currencyMap,
  ERROR_REF,
  flag,
  int,
  MAX_AGE,
  nInt,
  nNum,
  nStr,
  num,
  object,
  precisionParam,
  query,
  str,
} from './common.ts';
import type { Json } from './common.ts';

const coinParams: Json = object({ id: { ...str, description: 'Coin id from /coins/list, e.g. litecoin' } });
const coinNotFound: Json = { description: 'No coin has this id (COIN_NOT_FOUND)', ...ERROR_REF };
const vsCurrency: Json = { ...str, description: 'Quote currency code from /simple/supported_vs_currencies' };
const point: Json = {
  type: 'array',
  prefixItems: [{ ...num, description: 'UNIX milliseconds' }, nNum],
  minItems: 2,
  maxItems: 2,
};

export const coinHistorySchema: Json = {
  summary: 'A coin as of 00:00 UTC of a date',
  description:
    "The close of the coin's last observation before 00:00 UTC of the date (its daily bar of the day before), " +
    'each currency at its rate of that moment. Without an observation in those 24 hours every figure is null. ' +
    `Cache-Control max-age ${MAX_AGE.history}.`,
  tags: ['coins'],
  operationId: 'coinHistory',
  params: coinParams,
  querystring: query(
    {
      date: {
        ...str,
        description: 'dd-mm-yyyy (CoinGecko) or yyyy-mm-dd, from 01-01-2009 to today (UTC)',
        examples: ['30-12-2025', '2025-12-30'],
      },
      localization: flag('Adds localization ({ en })', true),
    },
    ['date'],
  ),
  response: {
    200: {
      type: 'object',
      required: ['id', 'symbol', 'name', 'image', 'market_data', 'public_interest_stats'],
      properties: {
        id: str,
        symbol: str,
        name: str,
        localization: object({ en: str }),
        image: object({ thumb: str, small: str }),
        market_data: object({
          current_price: currencyMap,
          market_cap: { ...currencyMap, description: 'null while supply was unverified' },
          total_volume: currencyMap,
          observed_at: { ...nStr, description: 'Ours: when the observation was made; null without one' },
        }),
        community_data: { type: 'null' },
        developer_data: { type: 'null' },
        public_interest_stats: object({ alexa_rank: { type: 'null' }, bing_matches: { type: 'null' } }),
      },
    },
    404: coinNotFound,
  },
};

export const ohlcRangeSchema: Json = {
  summary: 'OHLC candles of a coin between two times',
  description:
    'Rows [close time (UNIX ms), open, high, low, close]: daily candles (any span up to 3,650 days) or hourly ' +
    'ones (spans up to 31 days within the last 95); the open candle last when the range reaches now. Each candle ' +
    'is converted with the rate at its start; a candle whose rate is unknown is left out. ' +
    `Cache-Control max-age ${CHART_MAX_AGE.ohlc}, or ${CHART_MAX_AGE.pastRange} when to is more than a day ago.`,
  tags: ['coins'],
  operationId: 'coinOhlcRange',
  params: coinParams,
  querystring: query(
    {
      vs_currency: vsCurrency,
      from: {
        ...str,
        description: 'Start (inclusive): UNIX seconds or an ISO date (2024-05-01, 2024-05-01T12:30); UTC',
        examples: ['2026-11-01', '1793491200'],
      },
      to: { ...str, description: 'End (inclusive), same forms; a future time is clamped to now' },
      interval: { type: 'string', enum: ['daily', 'hourly'] },
      precision: precisionParam,
    },
    ['vs_currency', 'from', 'to', 'interval'],
  ),
  response: {
    200: {
      type: 'array',
      items: {
        type: 'array',
        prefixItems: [{ ...num, description: 'Close time, UNIX milliseconds' }, nNum, nNum, nNum, nNum],
        minItems: 5,
        maxItems: 5,
      },
    },
    404: coinNotFound,
  },
};

export const globalChartSchema: Json = {
  summary: 'Market-wide market cap and volume over time',
  description:
    "At each point the sum of the market caps of the coins verified then, and the same coins' volumes; the " +
    'current /global totals last. Granularity as market_chart (5-minute up to 2 days, hourly up to 95, daily). ' +
    `Cache-Control max-age ${MAX_AGE.globalChart}.`,
  tags: ['global'],
  operationId: 'globalMarketCapChart',
  querystring: query(
    {
      days: {
        ...str,
        description: `Days back from now: 1, 7, 14, 30, 90, 180, 365 (CoinGecko) or any integer up to ${MAX_DAYS}, or max`,
        examples: ['1', '30', 'max'],
      },
      vs_currency: { ...vsCurrency, default: 'usd' },
    },
    ['days'],
  ),
  response: {
    200: object({
      market_cap_chart: object({
        market_cap: { type: 'array', items: point },
        volume: { type: 'array', items: point },
      }),
    }),
  },
};

const moverItem: Json = {
  type: 'object',
  required: ['id', 'symbol', 'name', 'image', 'market_cap_rank'],
  properties: { id: str, symbol: str, name: str, image: str, market_cap_rank: nInt },
  description: 'Plus <c>, <c>_24h_vol, <c>_24h_change and <c>_<window>_change for the currency <c>',
  additionalProperties: nNum,
};

export const moversSchema: Json = {
  summary: 'The 30 largest price rises and falls',
  description:
    'Over coins with a 24h volume of at least 50,000 USD and a market-cap rank within top_coins (all: also ' +
    `unranked), by the price change over duration in the currency. Cache-Control max-age ${MAX_AGE.movers}.`,
  tags: ['coins'],
  operationId: 'coinsTopGainersLosers',
  querystring: query(
    {
      vs_currency: vsCurrency,
      duration: { type: 'string', enum: [...MOVER_DURATIONS], default: '24h' },
      top_coins: { type: 'string', enum: [...TOP_COINS], default: '1000' },
      price_change_percentage: {
        ...str,
        description: `Comma-separated extra windows: ${MOVER_WINDOWS.join(', ')}`,
      },
      precision: precisionParam,
    },
    ['vs_currency'],
  ),
  response: {
    200: object({
      top_gainers: { type: 'array', items: moverItem },
      top_losers: { type: 'array', items: moverItem },
    }),
  },
};

export const newCoinsSchema: Json = {
  summary: 'The 200 coins we began tracking most recently',
  description: `activated_at: our first observation, UNIX seconds. Cache-Control max-age ${MAX_AGE.newCoins}.`,
  tags: ['coins'],
  operationId: 'coinsListNew',
  response: {
    200: { type: 'array', items: object({ id: str, symbol: str, name: str, activated_at: int }) },
  },
};
