import { ApiError } from '../core/errors.ts';

const ID_RULE = 'lowercase letters, digits, "-", "." or "_", at most 100 characters';
const VENUE_RULE = 'lowercase letters, digits, "-" or "_", at most 64 characters';
/** A venue id as sources write them (ccxt ids, demo venues). */
export const VENUE_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * The price API's error catalog (400/404); shared ones live in `src/core/errors.ts` and `src/core/params.ts`. Each
 * message names where the valid values are listed: a REST path, or (`graphMessage`) the graph's query.
 */
export const priceErrors = {
  coinNotFound: (id: string) =>
    new ApiError(
      404,
      'COIN_NOT_FOUND',
      `coin not found: no coin has the id "${id.slice(0, 100)}" (see /coins/list)`,
      {},
      `coin not found: no coin has the id "${id.slice(0, 100)}" (the \`coins\` query lists every id)`,
    ),
  badCoinId: () =>
    new ApiError(
      400,
      'INVALID_COIN_ID',
      `id must be a coin id from /coins/list: ${ID_RULE}`,
      {},
      `id must be a coin id as the \`coins\` query lists them: ${ID_RULE}`,
    ),
  unknownCurrency: (name: string, code: string) =>
    new ApiError(
      400,
      'INVALID_CURRENCY',
      `${name} has an unsupported currency "${code.slice(0, 20)}": use codes from /simple/supported_vs_currencies, e.g. usd, eur, btc`,
      {},
      `${name} has an unsupported currency "${code.slice(0, 20)}": use a code of the \`currencies\` query, e.g. usd, eur, btc`,
    ),
  unknownCategory: (id: string) =>
    new ApiError(
      400,
      'INVALID_CATEGORY',
      `category "${id.slice(0, 60)}" does not exist: use a category_id from /coins/categories/list`,
      {},
      `category "${id.slice(0, 60)}" does not exist: use an id of the \`categories\` query`,
    ),
  exchangeNotFound: (id: string) =>
    new ApiError(
      404,
      'EXCHANGE_NOT_FOUND',
      `exchange not found: no venue has the id "${id.slice(0, 100)}" (see /exchanges/list)`,
      {},
      `exchange not found: no venue has the id "${id.slice(0, 100)}" (the \`exchanges\` query lists every id)`,
    ),
  badExchangeId: () =>
    new ApiError(
      400,
      'INVALID_EXCHANGE_ID',
      `id must be an exchange id from /exchanges/list: ${VENUE_RULE}`,
      {},
      `id must be an exchange id as the \`exchanges\` query lists them: ${VENUE_RULE}`,
    ),
};
