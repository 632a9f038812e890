/** OpenAPI schemas of `/ping`, `/simple/price` and `/simple/supported_vs_currencies`. */
import { bool, MAX_AGE, nNum, nInt, object, precisionParam, query, str } from './common.ts';
import type { Json } from './common.ts';

const csv = (description: string): Json => ({ type: 'string', description });
const flag = (description: string): Json => ({ ...bool, default: false, description });

export const pingSchema: Json = {
  summary: 'Health check',
  description: `Answers CoinGecko's text, which clients check. Not cached (max-age ${MAX_AGE.ping}).`,
  tags: ['general'],
  operationId: 'ping',
  response: { 200: object({ gecko_says: { type: 'string', examples: ['(V3) To the Moon!'] } }) },
};

export const lookupParams: Record<string, Json> = {
  ids: csv('Comma-separated coin ids from /coins/list (takes priority over names and symbols)'),
  names: csv('Comma-separated coin names, case-insensitive (used when ids is absent)'),
  symbols: csv('Comma-separated coin symbols, case-insensitive (used when ids and names are absent)'),
  include_tokens: {
    type: 'string',
    enum: ['top', 'all'],
    default: 'top',
    description:
      'With symbols: top = the largest coin per symbol; all = every coin with it (at most 50 symbols)',
  },
};

export const simplePriceSchema: Json = {
  summary: 'Prices of coins in any currencies',
  description:
    `Keyed by coin id, then currency. Unknown ids are absent. Every figure is null when unknown (no eligible ` +
    `ticker, unverified supply for market caps, unknown rate). Cache-Control max-age ${MAX_AGE.simplePrice}.`,
  tags: ['simple'],
  operationId: 'simplePrice',
  querystring: query(
    {
      ...lookupParams,
      vs_currencies: csv('Comma-separated codes from /simple/supported_vs_currencies (at most 200)'),
      include_market_cap: flag('Adds <c>_market_cap (null unless circulating supply is verified)'),
      include_24hr_vol: flag('Adds <c>_24h_vol'),
      include_24hr_change: flag('Adds <c>_24h_change: % change of the price in that currency over 24 h'),
      include_last_updated_at: flag('Adds last_updated_at: UNIX seconds of the newest ticker used'),
      precision: precisionParam,
    },
    ['vs_currencies'],
  ),
  response: {
    200: {
      type: 'object',
      description: 'Coin id → figures',
      additionalProperties: {
        type: 'object',
        description:
          '<c>, <c>_market_cap, <c>_24h_vol, <c>_24h_change for each currency, and last_updated_at',
        properties: { last_updated_at: nInt },
        additionalProperties: nNum,
      },
    },
  },
};

export const supportedVsCurrenciesSchema: Json = {
  summary: 'Supported quote currencies',
  description: `Every code accepted by vs_currency / vs_currencies. Cache-Control max-age ${MAX_AGE.supportedVsCurrencies}.`,
  tags: ['simple'],
  operationId: 'supportedVsCurrencies',
  response: { 200: { type: 'array', items: str } },
};
