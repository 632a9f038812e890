/** OpenAPI schema of `/coins/{id}`. */
import {
  bool,
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
  strArray,
} from './common.ts';
import type { Json } from './common.ts';
import { tickerSchema } from './exchanges.ts';

const idParam: Json = object({
  id: { type: 'string', description: 'Coin id from /coins/list, e.g. litecoin' },
});
const notFound = { 404: { description: 'No coin has this id (COIN_NOT_FOUND)', ...ERROR_REF } };

export const coinSchema: Json = {
  summary: 'One coin in full',
  description:
    `Identity, categories, links, market_data with a map per supported currency, tickers, and our extras ` +
    `market_data.confidence, supply_verified, circulating_supply_sources. Cache-Control max-age ${MAX_AGE.coin}.`,
  tags: ['coins'],
  operationId: 'coin',
  params: idParam,
  querystring: query({
    localization: flag('Adds localization ({ en })', true),
    tickers: flag('Adds tickers (our venues, at most 100)', true),
    market_data: flag('Adds market_data', true),
    community_data: flag('Accepted; no effect (as CoinGecko today)', true),
    developer_data: flag('Accepted; no effect', true),
    sparkline: flag('Adds market_data.sparkline_7d.price (USD)', false),
    include_categories_details: flag('Adds categories_details [{ id, name }]', false),
    dex_pair_format: {
      type: 'string',
      enum: ['contract_address', 'symbol'],
      description: 'Accepted; no effect',
    },
    precision: precisionParam,
  }),
  response: {
    200: {
      type: 'object',
      required: [
        'id',
        'symbol',
        'name',
        'categories',
        'public_notice',
        'image',
        'market_cap_rank',
        'last_updated',
      ],
      properties: {
        id: str,
        symbol: str,
        name: str,
        web_slug: str,
        asset_platform_id: { type: 'null' },
        platforms: { type: 'object' },
        block_time_in_minutes: nNum,
        hashing_algorithm: nStr,
        categories: strArray,
        public_notice: { ...nStr, description: 'The demo-data notice while we serve generated data' },
        additional_notices: strArray,
        description: object({ en: str }),
        links: { type: 'object' },
        image: object({ thumb: str, small: str, large: str }),
        genesis_date: nStr,
        market_cap_rank: nInt,
        market_data: {
          type: 'object',
          properties: {
            current_price: currencyMap,
            market_cap: currencyMap,
            fully_diluted_valuation: currencyMap,
            total_volume: currencyMap,
            ath: currencyMap,
            ath_date: { type: 'object', additionalProperties: nStr },
            market_cap_rank: nInt,
            circulating_supply: nNum,
            total_supply: nNum,
            max_supply: nNum,
            max_supply_infinite: bool,
            confidence: {
              ...nNum,
              minimum: 0,
              maximum: 1,
              description: 'Ours: trust in the aggregate price',
            },
            venues: int,
            supply_verified: {
              ...bool,
              description: 'Ours: circulating supply agreed by ≥ 2 sources within 1 %',
            },
            supply_status: {
              type: 'string',
              enum: ['verified', 'single_source', 'sources_disagree', 'no_source'],
              description: 'Ours: why the circulating supply (and so the market cap) is verified or null',
            },
            supply_status_reason: { ...nStr, description: 'Ours: the reason in words; null when verified' },
            circulating_supply_sources: {
              type: 'array',
              description:
                "Ours: each source's latest circulating figure and whether it is among the agreeing ones",
              items: {
                type: 'object',
                required: ['source', 'kind', 'circulating_supply', 'observed_at', 'agrees'],
                properties: {
                  source: str,
                  kind: { type: 'string', enum: ['explorer', 'emission', 'issuer', 'node', 'aggregator'] },
                  circulating_supply: num,
                  observed_at: str,
                  agrees: bool,
                },
              },
            },
            last_updated: nStr,
          },
        },
        tickers: { type: 'array', items: tickerSchema },
        last_updated: nStr,
      },
    },
    ...notFound,
  },
};
