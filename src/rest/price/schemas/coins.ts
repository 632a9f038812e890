/** OpenAPI schemas of `/coins/list`, `/coins/markets` and the category routes (`/coins/{id}`: `coin.ts`). */
import { CATEGORY_ORDERS } from '../../../market/present/categories.ts';
import { MARKET_ORDERS, MARKET_WINDOWS } from '../../../market/present/markets.ts';
import {
  flag,
  int,
  MAX_AGE,
  nInt,
  nNum,
  nStr,
  object,
  precisionParam,
  query,
  str,
  strArray,
} from './common.ts';
import type { Json } from './common.ts';
import { lookupParams } from './simple.ts';

export const coinsListSchema: Json = {
  summary: 'Every tracked coin',
  description: `All coins with id, symbol and name, by id. Cache-Control max-age ${MAX_AGE.coinsList}.`,
  tags: ['coins'],
  operationId: 'coinsList',
  querystring: query({
    include_platform: flag('Adds platforms: {} (we track no token contracts)', false),
    status: {
      type: 'string',
      enum: ['active', 'inactive'],
      default: 'active',
      description: 'inactive: always []',
    },
  }),
  response: {
    200: {
      type: 'array',
      items: object({ id: str, symbol: str, name: str, platforms: { type: 'object' } }, [
        'id',
        'symbol',
        'name',
      ]),
    },
  },
};

const marketRow: Json = object(
  {
    id: str,
    symbol: str,
    name: str,
    image: { type: 'string', description: 'Root-relative URL /assets/coins/<id>.svg' },
    current_price: nNum,
    market_cap: { ...nNum, description: 'null unless circulating supply is verified by 2 sources' },
    market_cap_rank: { ...nInt, description: 'null when market_cap is null' },
    fully_diluted_valuation: { ...nNum, description: 'price × max supply; null when max supply is unknown' },
    total_volume: nNum,
    high_24h: nNum,
    low_24h: nNum,
    price_change_24h: nNum,
    price_change_percentage_24h: nNum,
    market_cap_change_24h: nNum,
    market_cap_change_percentage_24h: nNum,
    circulating_supply: nNum,
    total_supply: nNum,
    max_supply: nNum,
    ath: nNum,
    ath_change_percentage: nNum,
    ath_date: nStr,
    atl: nNum,
    atl_change_percentage: nNum,
    atl_date: nStr,
    roi: { type: 'null' },
    last_updated: nStr,
    sparkline_in_7d: object({ price: { type: 'array', items: nNum } }),
    ...Object.fromEntries(MARKET_WINDOWS.map((w) => [`price_change_percentage_${w}_in_currency`, nNum])),
  },
  ['id', 'symbol', 'name', 'image', 'current_price', 'market_cap', 'market_cap_rank', 'roi', 'last_updated'],
);

export const marketsSchema: Json = {
  summary: 'Market table',
  description: `Coins with price, market cap, volume, supply, ATH/ATL and changes in one currency; nulls sort last in every order. Cache-Control max-age ${MAX_AGE.markets}.`,
  tags: ['coins'],
  operationId: 'coinsMarkets',
  querystring: query(
    {
      vs_currency: { type: 'string', description: 'A code from /simple/supported_vs_currencies' },
      ...lookupParams,
      category: {
        type: 'string',
        description: 'A category_id from /coins/categories/list (priority over ids)',
      },
      order: {
        type: 'string',
        enum: [...MARKET_ORDERS],
        default: 'market_cap_desc',
        description: 'gainers/losers: by 24h change',
      },
      per_page: { type: 'integer', minimum: 1, maximum: 250, default: 100 },
      page: { type: 'integer', minimum: 1, maximum: 10_000, default: 1 },
      sparkline: flag('Adds sparkline_in_7d.price (hourly, 7 days)', false),
      price_change_percentage: { type: 'string', description: `CSV of ${MARKET_WINDOWS.join(', ')}` },
      locale: { type: 'string', description: 'Accepted and ignored (names are English)' },
      precision: precisionParam,
    },
    ['vs_currency'],
  ),
  response: { 200: { type: 'array', items: marketRow } },
};

export const categoriesListSchema: Json = {
  summary: 'Category ids',
  description: `Use category_id as /coins/markets?category=. Cache-Control max-age ${MAX_AGE.categoriesList}.`,
  tags: ['categories'],
  operationId: 'categoriesList',
  response: { 200: { type: 'array', items: object({ category_id: str, name: str }) } },
};

export const categoriesSchema: Json = {
  summary: 'Categories with market figures',
  description: `Sums over members with verified figures; null when none. Cache-Control max-age ${MAX_AGE.categories}.`,
  tags: ['categories'],
  operationId: 'categories',
  querystring: query({ order: { type: 'string', enum: [...CATEGORY_ORDERS], default: 'market_cap_desc' } }),
  response: {
    200: {
      type: 'array',
      items: object({
        id: str,
        name: str,
        market_cap: nNum,
        market_cap_change_24h: { ...nNum, description: 'Percent' },
        content: str,
        top_3_coins_id: strArray,
        top_3_coins: strArray,
        volume_24h: nNum,
        updated_at: str,
        coins_count: int,
        verified_coins: int,
      }),
    },
  },
};
