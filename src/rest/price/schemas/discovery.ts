/** OpenAPI schemas of `/global`, `/search` and `/search/trending`. */
import { currencyMap, int, MAX_AGE, nInt, nNum, nStr, num, object, query, str } from './common.ts';
import type { Json } from './common.ts';

export const globalSchema: Json = {
  summary: 'Global totals',
  description:
    `Totals and shares over coins with a verified market cap only; verified_coins says how many. ` +
    `Cache-Control max-age ${MAX_AGE.global}.`,
  tags: ['global'],
  operationId: 'global',
  response: {
    200: object({
      data: object({
        active_cryptocurrencies: { ...int, description: 'Coins with an aggregate price' },
        upcoming_icos: int,
        ongoing_icos: int,
        ended_icos: int,
        markets: { ...int, description: 'Venue listings over all coins' },
        total_market_cap: currencyMap,
        total_volume: { ...currencyMap, description: '24h volume of the verified coins' },
        market_cap_percentage: { type: 'object', description: 'Top 10 by symbol', additionalProperties: num },
        market_cap_change_percentage_24h_usd: nNum,
        volume_change_percentage_24h_usd: nNum,
        updated_at: { ...int, description: 'UNIX seconds' },
        verified_coins: { ...int, description: 'Ours: coins counted in the totals' },
      }),
    }),
  },
};

const searchCoin = object({
  id: str,
  name: str,
  api_symbol: str,
  symbol: str,
  market_cap_rank: nInt,
  thumb: str,
  large: str,
});
const empty: Json = { type: 'array', maxItems: 0 };

export const searchSchema: Json = {
  summary: 'Search coins and categories',
  description: `Coins by id, symbol or name (exact, prefix, substring), at most 25. Cache-Control max-age ${MAX_AGE.search}.`,
  tags: ['search'],
  operationId: 'search',
  querystring: query({ query: { type: 'string', minLength: 1, maxLength: 100 } }, ['query']),
  response: {
    200: object({
      coins: { type: 'array', items: searchCoin },
      exchanges: empty,
      icos: empty,
      categories: { type: 'array', items: object({ id: str, name: str }) },
      nfts: empty,
    }),
  },
};

const trendingItem = object({
  id: str,
  coin_id: int,
  name: str,
  symbol: str,
  market_cap_rank: nInt,
  thumb: str,
  small: str,
  large: str,
  slug: str,
  price_btc: nNum,
  score: int,
  data: object({
    price: nNum,
    price_btc: nStr,
    price_change_percentage_24h: currencyMap,
    market_cap: { ...nStr, examples: ['$1,234,567'] },
    market_cap_btc: nStr,
    total_volume: nStr,
    total_volume_btc: nStr,
    sparkline: str,
    content: { type: 'null' },
  }),
});

export const trendingSchema: Json = {
  summary: 'Trending coins',
  description:
    `Coins whose 24h volume surges against their 7-day average, weighted by the 24h move (at most 15). ` +
    `Cache-Control max-age ${MAX_AGE.trending}.`,
  tags: ['search'],
  operationId: 'trending',
  querystring: query({
    show_max: { type: 'string', description: 'CSV of coins, nfts, categories; accepted' },
  }),
  response: {
    200: object({
      coins: { type: 'array', items: object({ item: trendingItem }) },
      nfts: empty,
      categories: empty,
    }),
  },
};
