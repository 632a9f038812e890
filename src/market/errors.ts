import { errorCatalog } from '../core/errors.ts';

const ID_RULE = 'lowercase letters, digits, "-", "." or "_", at most 100 characters';
const VENUE_RULE = 'lowercase letters, digits, "-" or "_", at most 64 characters';
/** A venue id as sources write them (ccxt ids, demo venues). */
export const VENUE_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * The price API's error catalog (400/404); shared ones live in `src/core/errors.ts` and `src/core/params.ts`. Each
 * message names where the valid values are listed: a REST path, or (`graphMessage`) the graph's query.
 */
export const priceErrors = errorCatalog('market', {
  coinNotFound: {
    status: 404,
    code: 'COIN_NOT_FOUND',
    message: (id: string) => `coin not found: no coin has the id "${id.slice(0, 100)}" (see /coins/list)`,
    graphMessage: (id: string) =>
      `coin not found: no coin has the id "${id.slice(0, 100)}" (the \`coins\` query lists every id)`,
  },
  badCoinId: {
    status: 400,
    code: 'INVALID_COIN_ID',
    message: `id must be a coin id from /coins/list: ${ID_RULE}`,
    graphMessage: `id must be a coin id as the \`coins\` query lists them: ${ID_RULE}`,
  },
  unknownCurrency: {
    status: 400,
    code: 'INVALID_CURRENCY',
    message: (name: string, code: string) =>
      `${name} has an unsupported currency "${code.slice(0, 20)}": use codes from /simple/supported_vs_currencies, e.g. usd, eur, btc`,
    graphMessage: (name: string, code: string) =>
      `${name} has an unsupported currency "${code.slice(0, 20)}": use a code of the \`currencies\` query, e.g. usd, eur, btc`,
  },
  unknownCategory: {
    status: 400,
    code: 'INVALID_CATEGORY',
    message: (id: string) =>
      `category "${id.slice(0, 60)}" does not exist: use a category_id from /coins/categories/list`,
    graphMessage: (id: string) =>
      `category "${id.slice(0, 60)}" does not exist: use an id of the \`categories\` query`,
  },
  exchangeNotFound: {
    status: 404,
    code: 'EXCHANGE_NOT_FOUND',
    message: (id: string) =>
      `exchange not found: no venue has the id "${id.slice(0, 100)}" (see /exchanges/list)`,
    graphMessage: (id: string) =>
      `exchange not found: no venue has the id "${id.slice(0, 100)}" (the \`exchanges\` query lists every id)`,
  },
  badExchangeId: {
    status: 400,
    code: 'INVALID_EXCHANGE_ID',
    message: `id must be an exchange id from /exchanges/list: ${VENUE_RULE}`,
    graphMessage: `id must be an exchange id as the \`exchanges\` query lists them: ${VENUE_RULE}`,
  },
});

/**
 * Errors of the coin images (`/assets/coins/<id>.svg`, `/assets/sparklines/<id>.svg`). Every failure is a 404: an
 * image URL names a file, and a name that is not a coin's file is simply not there (a 400 would tell a probe which
 * spellings we parse). A well-formed `<id>.svg` whose id is not in the catalog is {@link priceErrors}' COIN_NOT_FOUND.
 */
export const assetErrors = errorCatalog('assets', {
  /** Any other file name (another extension, upper case, dots or slashes in the stem, empty). */
  noSuchImage: {
    status: 404,
    code: 'NOT_FOUND',
    message: (dir: 'coins' | 'sparklines', file: string) =>
      `no image "${file.slice(0, 100)}": images are served as /assets/${dir}/<id>.svg with a coin id from /coins/list`,
  },
});
