/**
 * OpenAPI schemas of `/coins/{id}/market_chart`, `/coins/{id}/market_chart/range` and `/coins/{id}/ohlc`.
 * Documentation only (see `documented` in `common.ts`): the parameters are checked by `chart-params.ts`.
 */
import { MAX_DAYS } from '../../../market/chart-params.ts';
import { ERROR_REF, nNum, num, object, precisionParam, query, str } from './common.ts';
import type { Json } from './common.ts';

/**
 * Cache-Control max-age of the chart routes, seconds. Charts: 30 s, CoinGecko's refresh of the last point. A range
 * that ended more than a day ago no longer changes with each tick: 10 minutes. OHLC: CoinGecko caches 15 minutes,
 * but our last candle is the open day and moves with every engine tick (60 s by default), so 60 s. Every cached
 * body also dies with its snapshot.
 */
export const CHART_MAX_AGE = { chart: 30, pastRange: 600, ohlc: 60 } as const;

const coinParams: Json = object({ id: { ...str, description: 'Coin id from /coins/list, e.g. litecoin' } });
const vsCurrency: Json = {
  ...str,
  description: 'Quote currency code from /simple/supported_vs_currencies, e.g. usd',
};
const interval: Json = {
  type: 'string',
  enum: ['', '5m', 'hourly', 'daily'],
  description:
    'Empty: automatic (by span). 5m: spans up to 2 days within the last 2 days. hourly: spans up to 95 days ' +
    'within the last 95 days. daily: any span. Anything else is a 400.',
};

/** `[UNIX ms, value | null]`: null when the USD figure or the rate of that time is unknown (never 0). */
const point: Json = {
  type: 'array',
  prefixItems: [{ ...num, description: 'UNIX milliseconds' }, nNum],
  minItems: 2,
  maxItems: 2,
};
const seriesBody: Json = {
  ...object({
    prices: { type: 'array', items: point },
    market_caps: { type: 'array', items: point, description: 'null while circulating supply was unverified' },
    total_volumes: { type: 'array', items: point, description: '24-hour volume at the point' },
  }),
  description: 'Three series with the same timestamps; the last point is "now" when the window ends now',
};
const coinNotFound: Json = { description: 'No coin has this id (COIN_NOT_FOUND)', ...ERROR_REF };

const GRANULARITY =
  'Granularity by span: 5-minute points up to 2 days, hourly up to 95 days, daily beyond (points at 00:00 UTC). ' +
  'Each point is a bar stamped with its bucket start and holds its closing figures, converted with the rate of ' +
  "the point's own time.";

export const marketChartSchema: Json = {
  summary: 'Price, market cap and volume series of a coin, ending now',
  description:
    `${GRANULARITY} A final point stamped with the latest engine tick is appended. ` +
    `Cache-Control max-age ${CHART_MAX_AGE.chart}.`,
  tags: ['coins'],
  operationId: 'coinMarketChart',
  params: coinParams,
  querystring: query(
    {
      vs_currency: vsCurrency,
      days: {
        ...str,
        description: `Span ending now: a number of days from 0.01 to ${MAX_DAYS} with at most 2 decimals (0.5 = 12 hours), or max (all history, daily)`,
        examples: ['1', '0.5', '30', 'max'],
      },
      interval,
      precision: precisionParam,
    },
    ['vs_currency', 'days'],
  ),
  response: { 200: seriesBody, 404: coinNotFound },
};

export const marketChartRangeSchema: Json = {
  summary: 'Price, market cap and volume series of a coin between two times',
  description:
    `${GRANULARITY} The span is to − from after clamping a future to to now; a window that starts before the ` +
    'finer data is kept gets the next coarser granularity. The "now" point is appended when the window reaches now. ' +
    `Cache-Control max-age ${CHART_MAX_AGE.chart}, or ${CHART_MAX_AGE.pastRange} when to is more than a day ago.`,
  tags: ['coins'],
  operationId: 'coinMarketChartRange',
  params: coinParams,
  querystring: query(
    {
      vs_currency: vsCurrency,
      from: {
        ...str,
        description:
          'Start (inclusive): UNIX seconds (integer or decimal) or ISO date (2024-05-01, 2024-05-01T12:30, full ISO; UTC unless an offset is given); on or after 2009-01-01',
        examples: ['1714521600', '2024-05-01'],
      },
      to: {
        ...str,
        description: 'End (inclusive), same forms; must be after from; a future time is clamped to now',
        examples: ['1717200000', '2024-06-01T00:00Z'],
      },
      interval,
      precision: precisionParam,
    },
    ['vs_currency', 'from', 'to'],
  ),
  response: { 200: seriesBody, 404: coinNotFound },
};

export const ohlcSchema: Json = {
  summary: 'Daily OHLC candles of a coin',
  description:
    'Rows [close time (UNIX ms, end of the UTC day), open, high, low, close]. Candles are always daily; the last ' +
    "one is the open day so far. Each day is converted with that day's rate; a day whose rate is unknown is left " +
    `out. Cache-Control max-age ${CHART_MAX_AGE.ohlc} (the open day moves with every tick).`,
  tags: ['coins'],
  operationId: 'coinOhlc',
  params: coinParams,
  querystring: query(
    {
      vs_currency: vsCurrency,
      days: {
        ...str,
        description: `Days back from now: 1, 7, 14, 30, 90, 180, 365 (CoinGecko) or any integer from 1 to ${MAX_DAYS}, or max`,
        examples: ['1', '30', 'max'],
      },
      interval: { type: 'string', enum: ['', 'daily'], description: 'Only daily (the default) is served' },
      precision: precisionParam,
    },
    ['vs_currency', 'days'],
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
