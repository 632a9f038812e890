/**
 * Aggregate USD price per asset from raw venue tickers. Pure: same tickers, `now`, quotes and rules give the same
 * result. The method is documented for API users in docs/methodology.md ("Price").
 */
import type { Ticker } from '../ingest/types.ts';
import type { AssetContext } from './priceAsset.ts';
import { aggregateAsset, emptyAggregate, reserveAssetBuffers } from './priceAsset.ts';
import type { QuoteResolver } from './quotes.ts';
import { QuoteSlots } from './quotes.ts';
import type { PriceAggregate, PriceRules } from './types.ts';
import type { Judgement } from './verdicts.ts';
import { V_IGNORED, V_STALE, V_UNPRICED } from './verdicts.ts';

export type { QuoteResolver } from './quotes.ts';
export { PAIR_MAX_SPREAD } from './priceAsset.ts';

/** Default {@link PriceRules}: 15 minutes, 5 MADs, MAD floor 0.2 % of the median. */
export const DEFAULT_PRICE_RULES: Readonly<PriceRules> = Object.freeze({
  maxAgeMs: 15 * 60_000,
  madK: 5,
  madFloor: 0.002,
});

/** A ticker timestamped more than this far in the future (venue clock skew) is invalid and counted as stale. */
export const MAX_FUTURE_SKEW_MS = 60_000;
/** Quote-conversion passes (pass 1: fiat quotes only; each further pass adds tickers quoted in newly priced assets). */
export const MAX_PASSES = 4;

/**
 * Aggregates tickers into one {@link PriceAggregate} per base asset (every base that has a ticker appears, with a
 * null price when nothing is eligible).
 *
 * 1. Ignored: self-quoted tickers (the quote is the base asset itself). Stale (`now - ts > maxAgeMs`, or `ts` more
 *    than 60 s in the future) and invalid (`last` not > 0, `baseVolume` not >= 0) tickers count as `droppedStale`.
 * 2. Conversion: USD price = `last` × USD per quote unit. Fiat/metal quotes use `quotes.fiatUsd`; crypto quotes use
 *    the aggregate price of the quote asset × its scale. Pass 1 prices assets from fiat-quoted tickers only; each
 *    further pass also converts tickers quoted in assets priced so far (at their price as of the previous pass) and
 *    recomputes every asset whose set of convertible tickers grew; the others keep their result. Passes stop when
 *    no new asset was priced, or after {@link MAX_PASSES}. Tickers never convertible count as `droppedUnpriced`.
 * 3. Outliers (`droppedOutlier`): with 3+ tickers, those with `|p - m| > madK × max(MAD, madFloor × m)` (m the
 *    median, MAD the median absolute deviation). With 2 tickers further apart than 10 %, the one with less base
 *    volume (on a tie: the older, then the higher-priced one) is dropped.
 * 4. Price: weighted median (lower convention) of the remaining USD prices, weights = base volume; all volumes 0 →
 *    plain median. `volumeUsd` = Σ base volume × price; `venues` = distinct venues; `lastUpdated` = newest `ts`.
 *
 * @param now UNIX milliseconds the ages are measured from
 * @param quotes converts quote codes (fiat rates, quote assets); each distinct code is resolved once per call
 * @param rules any subset of {@link PriceRules}, the rest from {@link DEFAULT_PRICE_RULES}; default `DEFAULT_PRICE_RULES`
 * @param judge when given (sized for `tickers`), receives every ticker's verdict (`src/engine/verdicts.ts`) and the
 *   USD price it was judged at; default none
 */
export function aggregatePrices(
  tickers: readonly Ticker[],
  now: number,
  quotes: QuoteResolver,
  rules: Partial<PriceRules> = DEFAULT_PRICE_RULES,
  judge?: Judgement,
): Map<string, PriceAggregate> {
  if (judge && (judge.verdicts.length !== tickers.length || judge.usd.length !== tickers.length))
    throw new RangeError('aggregatePrices: the judgement must have one slot per ticker');
  return run(tickers, now, new QuoteSlots(quotes), { ...DEFAULT_PRICE_RULES, ...rules }, judge);
}

function run(
  tickers: readonly Ticker[],
  now: number,
  quotes: QuoteSlots,
  rules: PriceRules,
  judge: Judgement | undefined,
): Map<string, PriceAggregate> {
  const T = tickers.length;
  // Per ticker: base group (-1 when not eligible) and quote slot; `order`: eligible ticker indices grouped by base.
  const [group, slot, order] = [new Int32Array(T), new Int32Array(T), new Int32Array(T)];
  const groupOf = new Map<string, number>();
  const bases: string[] = [];
  const stale: number[] = [];
  const fresh: number[] = [];
  let lastBase = '';
  let b = -1; // group of lastBase
  for (let t = 0; t < T; t++) {
    const tk = tickers[t]!;
    // Sources list a base's tickers together, so the previous lookup usually answers.
    if (tk.base !== lastBase || b < 0) {
      lastBase = tk.base;
      b = groupOf.get(tk.base) ?? -1;
      if (b < 0) {
        b = bases.push(tk.base) - 1;
        groupOf.set(tk.base, b);
        stale.push(0);
        fresh.push(0);
      }
    }
    const q = quotes.slot(tk.quote);
    group[t] = -1;
    if (judge) judge.verdicts[t] = V_IGNORED;
    if (tk.quote === tk.base || quotes.assetOf(q) === tk.base) continue; // self-quote: ignored
    const age = now - tk.ts;
    const valid = tk.last > 0 && tk.last < Infinity && tk.baseVolume >= 0 && tk.baseVolume < Infinity;
    if (!(age <= rules.maxAgeMs) || age < -MAX_FUTURE_SKEW_MS || !valid) {
      stale[b]!++;
      if (judge) judge.verdicts[t] = V_STALE;
      continue;
    }
    if (judge) judge.verdicts[t] = V_UNPRICED; // until an aggregation of its asset converts it
    group[t] = b;
    slot[t] = q;
    fresh[b]!++;
  }

  // Counting sort by base: the eligible tickers of group g are order[start[g] .. start[g + 1] - 1].
  const G = bases.length;
  const start = new Int32Array(G + 1);
  for (let g = 0; g < G; g++) start[g + 1] = start[g]! + fresh[g]!;
  const next = start.slice(0, G);
  for (let t = 0; t < T; t++) if (group[t]! >= 0) order[next[group[t]!]!++] = t;
  let largest = 0;
  for (let g = 0; g < G; g++) largest = Math.max(largest, fresh[g]!);
  reserveAssetBuffers(largest);
  quotes.link(groupOf, G);

  const priced = new Float64Array(G).fill(NaN);
  const inputs = new Int32Array(G);
  const grewIn = new Int8Array(G); // last pass (1-based) in which the asset's convertible tickers grew; 0: never
  const rates: Float64Array[] = [];
  const results = new Array<PriceAggregate | undefined>(G);
  const ctx: AssetContext = { tickers, now, rules, rate: quotes.rate, start, order, slot, judge };
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    quotes.update(priced); // rates from the previous pass only, before this pass changes `priced`
    rates.push((ctx.rate = quotes.rate.slice()));
    let newlyPriced = 0;
    for (let g = 0; g < G; g++) {
      let convertible = 0;
      for (let k = start[g]!; k < start[g + 1]!; k++) if (ctx.rate[slot[order[k]!]!]! > 0) convertible++;
      if (convertible <= inputs[g]!) continue; // nothing new to convert: keep the earlier result
      inputs[g] = convertible;
      grewIn[g] = pass;
      // Only quote assets' prices feed later passes; the others are computed once, after the last pass.
      if (!quotes.isQuoteAsset(g)) continue;
      const agg = aggregateAsset(ctx, g, bases[g]!, stale[g]!);
      results[g] = agg;
      if (agg.priceUsd !== null && Number.isNaN(priced[g]!)) newlyPriced++;
      priced[g] = agg.priceUsd ?? NaN;
    }
    if (newlyPriced === 0) break; // no new quote asset: the next pass could not convert anything new
  }
  for (let g = 0; g < G; g++) {
    if (results[g] !== undefined || grewIn[g] === 0) continue;
    ctx.rate = rates[grewIn[g]! - 1]!; // the same rates as if it had been computed in that pass
    results[g] = aggregateAsset(ctx, g, bases[g]!, stale[g]!);
  }

  const out = new Map<string, PriceAggregate>();
  for (let g = 0; g < G; g++)
    out.set(bases[g]!, results[g] ?? emptyAggregate(bases[g]!, stale[g]!, fresh[g]!, 0));
  return out;
}
