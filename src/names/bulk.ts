/**
 * The body of a bulk resolution (`POST /api/resolve`): `{ "names": [{ "name": "alice.coin", "asset": "LTC" }, …] }`,
 * at most {@link MAX_BULK_NAMES} pairs. The shape is checked strictly (a 400 for the whole request names the item and
 * field); the names and tickers themselves are checked per item by the name service, so one malformed name is one
 * item's 400, not the request's.
 */
import { parseBody } from '../accounts/body.ts';
import { accountErrors } from '../accounts/errors.ts';
import { ApiError } from '../core/errors.ts';
import { nameErrors } from './errors.ts';

/** Most pairs one bulk request may hold (as one `resolveNames` call of the graph). */
export const MAX_BULK_NAMES = 100;

/** Longest name and ticker accepted in an item (as the single-resolution path). */
const ITEM = {
  name: { type: 'string', required: true, max: 100 },
  asset: { type: 'string', required: true, max: 20 },
} as const;

export function parseBulkBody(body: unknown): { name: string; asset: string }[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw accountErrors.invalidBody('body', 'must be a JSON object {"names": [{"name", "asset"}, …]}');
  for (const field of Object.keys(body))
    if (field !== 'names') throw accountErrors.unknownField(field, ['names']);
  const names = (body as { names?: unknown }).names;
  if (!Array.isArray(names))
    throw accountErrors.invalidBody('names', 'is required: an array of {name, asset} pairs');
  if (names.length > MAX_BULK_NAMES) throw nameErrors.batchTooLarge(MAX_BULK_NAMES);
  return names.map((item: unknown, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      throw accountErrors.invalidBody(
        `names[${i}]`,
        'must be an object {"name": "alice.coin", "asset": "LTC"}',
      );
    try {
      return parseBody(item, ITEM);
    } catch (err) {
      if (err instanceof ApiError) throw err.within(`names[${i}].`);
      throw err;
    }
  });
}
