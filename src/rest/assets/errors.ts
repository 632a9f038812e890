import { ApiError } from '../../core/errors.ts';
import { priceErrors } from '../../market/errors.ts';

/**
 * Errors of the image routes. Every failure is a 404: an image URL names a file, and a name that is not a coin's
 * file is simply not there (a 400 would tell a probe which spellings we parse).
 */
export const assetErrors = {
  /** A well-formed `<id>.svg` whose id is not in the catalog: the price API's own COIN_NOT_FOUND. */
  coinNotFound: (id: string) => priceErrors.coinNotFound(id),
  /** Any other file name (another extension, upper case, dots or slashes in the stem, empty). */
  noSuchImage: (dir: 'coins' | 'sparklines', file: string) =>
    new ApiError(
      404,
      'NOT_FOUND',
      `no image "${file.slice(0, 100)}": images are served as /assets/${dir}/<id>.svg with a coin id from /coins/list`,
    ),
};
