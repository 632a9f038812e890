import { ApiError } from '../errors.ts';

/** The price API's error catalog (400/404); shared ones live in `src/rest/errors.ts` and `src/rest/params.ts`. */
export const priceErrors = {
  coinNotFound: (id: string) =>
    new ApiError(
      404,
      'COIN_NOT_FOUND',
      `coin not found: no coin has the id "${id.slice(0, 100)}" (see /coins/list)`,
    ),
  badCoinId: () =>
    new ApiError(
      400,
      'INVALID_COIN_ID',
      'id must be a coin id from /coins/list: lowercase letters, digits, "-", "." or "_", at most 100 characters',
    ),
  unknownCurrency: (name: string, code: string) =>
    new ApiError(
      400,
      'INVALID_CURRENCY',
      `${name} has an unsupported currency "${code.slice(0, 20)}": use codes from /simple/supported_vs_currencies, e.g. usd, eur, btc`,
    ),
  unknownCategory: (id: string) =>
    new ApiError(
      400,
      'INVALID_CATEGORY',
      `category "${id.slice(0, 60)}" does not exist: use a category_id from /coins/categories/list`,
    ),
};
