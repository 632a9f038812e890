/**
 * Parameter helpers shared by every price route (ours and the chart routes): quote currencies, money conversion,
 * the coin-id path parameter and the "no snapshot yet" guard.
 */
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import type { Rates } from '../../engine/rates.ts';
import type { AssetMarket } from '../../engine/types.ts';
import { commonErrors } from '../errors.ts';
import { COIN_ID, CURRENCY_CODE, list, missingParam, oneOf, required } from '../../core/params.ts';
import type { Query } from '../../core/params.ts';
import type { PriceApiOptions } from './deps.ts';
import { priceErrors } from '../../market/errors.ts';
import { applyPrecision } from '../../market/present/precision.ts';
import type { CoinLookup } from '../../market/present/lookup.ts';
import type { Precision } from '../../market/present/precision.ts';

/** Most currencies one `vs_currencies` may name (more than we support, so a full list always fits). */
export const MAX_VS_CURRENCIES = 200;

/** One required quote currency (`vs_currency`), lowercased; unsupported → 400 INVALID_CURRENCY. */
export function parseVsCurrency(q: Query, rates: Rates, name = 'vs_currency'): string {
  const raw = required(q, name, 'a currency code from /simple/supported_vs_currencies, e.g. usd');
  const code = raw.trim().toLowerCase();
  if (!CURRENCY_CODE.test(code) || !rates.supports(code)) throw priceErrors.unknownCurrency(name, raw);
  return code;
}

/** The required `vs_currencies` list (CSV, at most 200, duplicates dropped); any unsupported code → 400. */
export function parseVsCurrencies(q: Query, rates: Rates): string[] {
  const expected = 'a comma-separated list of codes from /simple/supported_vs_currencies, e.g. usd,eur';
  required(q, 'vs_currencies', expected);
  const codes =
    list(q, 'vs_currencies', {
      max: MAX_VS_CURRENCIES,
      item: /^[^,]{1,20}$/,
      itemRule: 'currency codes of at most 20 characters',
    }) ?? [];
  for (const c of codes)
    if (!CURRENCY_CODE.test(c) || !rates.supports(c)) throw priceErrors.unknownCurrency('vs_currencies', c);
  if (codes.length === 0) throw missingParam('vs_currencies', expected);
  return codes;
}

/**
 * A USD figure in a currency worth `rate` USD per unit, with precision applied. Null figure or unknown rate → null
 * (never 0).
 */
export function money(usd: number | null, rate: number | null, p: Precision): number | null {
  if (usd === null || rate === null || !(rate > 0)) return null;
  return applyPrecision(usd / rate, p);
}

/** The market of coin `id` (a path parameter): malformed → 400 INVALID_COIN_ID, unknown → 404 COIN_NOT_FOUND. */
export function coinOr404(snapshot: MarketSnapshot, id: string): AssetMarket {
  if (!COIN_ID.test(id)) throw priceErrors.badCoinId();
  const m = snapshot.markets.get(id);
  if (!m) throw priceErrors.coinNotFound(id);
  return m;
}

/** The current snapshot; before the engine's first tick → 503 NOT_READY. */
export function snapshotOr503(opts: PriceApiOptions): MarketSnapshot {
  const s = opts.market.snapshot;
  if (!s) throw commonErrors.notReady();
  return s;
}

const versions = new WeakMap<MarketSnapshot, number>();
let lastVersion = 0;

/**
 * The ResponseCache version of a snapshot: a distinct number per snapshot object (not `computedAt`, which two
 * ticks at the same clock reading would share), so a cached body never outlives the tick that produced it.
 */
export function versionOf(snapshot: MarketSnapshot): number {
  let v = versions.get(snapshot);
  if (v === undefined) versions.set(snapshot, (v = ++lastVersion));
  return v;
}

/** Most values one `ids`, `names` or `symbols` list may hold (`symbols` with `include_tokens=all`: 50, as CoinGecko). */
export const MAX_LOOKUP = 500;
// Control characters are already refused by `single`.
const NAME = /^[^,]{1,100}$/;
const SYMBOL = /^[a-z0-9._$-]{1,30}$/;

/**
 * The coin lookup of a request: `ids`, else `names`, else `symbols` (CoinGecko's priority); an empty list counts as
 * absent. Returns undefined when none is given.
 */
export function parseLookup(q: Query): CoinLookup | undefined {
  const ids = list(q, 'ids', {
    max: MAX_LOOKUP,
    item: COIN_ID,
    itemRule: 'coin ids from /coins/list (e.g. bitcoin)',
  });
  const names = list(q, 'names', {
    max: MAX_LOOKUP,
    item: NAME,
    itemRule: 'coin names of at most 100 characters',
  });
  const all = oneOf(q, 'include_tokens', ['top', 'all'] as const, 'top') === 'all';
  const symbols = list(q, 'symbols', {
    max: all ? 50 : MAX_LOOKUP,
    item: SYMBOL,
    itemRule: 'coin symbols (letters, digits, ".", "_", "-", "$"; at most 30 characters)',
  });
  if (ids?.length) return { by: 'ids', values: ids };
  if (names?.length) return { by: 'names', values: names };
  if (symbols?.length) return { by: 'symbols', values: symbols, all };
  return undefined;
}
