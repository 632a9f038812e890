/**
 * The engine's verdict on each ticker of one aggregation, kept with the snapshot so that the tickers served
 * (`/coins/{id}/tickers`, `/exchanges/{id}/tickers`, the graph's `Ticker`) say what the price did with them: used,
 * dropped as an outlier, dropped as stale, or not convertible to USD. Written by `aggregatePrices` when it is given
 * a {@link Judgement}; the rules are those of docs/methodology.md ("Eligible tickers", "Outliers").
 */
import type { Ticker } from '../ingest/types.ts';

/** Why a ticker does or does not count in its asset's price. */
export type Verdict =
  /** Quoted in the asset itself (`bitcoin` in `btc`): never part of any price. */
  | 'ignored'
  /** Older than the staleness limit, timestamped in the future, or not a valid price or volume. */
  | 'stale'
  /** Fresh, but its quote could not be converted to USD. */
  | 'unpriced'
  /** Fresh and converted, but out of line with the other venues (the MAD rule, or the two-ticker rule). */
  | 'outlier'
  /** Part of the aggregate price. */
  | 'used';

/** Verdict codes as stored in a {@link Judgement} (index = code). */
export const VERDICTS: readonly Verdict[] = ['ignored', 'stale', 'unpriced', 'outlier', 'used'];
export const V_IGNORED = 0;
export const V_STALE = 1;
export const V_UNPRICED = 2;
export const V_OUTLIER = 3;
export const V_USED = 4;

/** Per-ticker output of one aggregation, by the ticker's index in the input array. */
export interface Judgement {
  /** A code of {@link VERDICTS} per ticker. */
  verdicts: Uint8Array;
  /** The ticker's price in USD as converted by the aggregation; NaN when it was not converted. */
  usd: Float64Array;
}

/** An empty judgement for `n` tickers (every ticker ignored, no USD price). */
export function newJudgement(n: number): Judgement {
  return { verdicts: new Uint8Array(n), usd: new Float64Array(n).fill(NaN) };
}

/** One ticker of a snapshot with the engine's verdict on it. */
export interface JudgedTicker {
  ticker: Ticker;
  verdict: Verdict;
  /** Its price in USD as the aggregation converted it; null when it was not converted (stale, unpriced, ignored). */
  priceUsd: number | null;
}

/** The tickers of one aggregation with their verdicts, in input order. */
export function judgedTickers(tickers: readonly Ticker[], j: Judgement): JudgedTicker[] {
  return tickers.map((ticker, i) => {
    const usd = j.usd[i]!;
    return {
      ticker,
      verdict: VERDICTS[j.verdicts[i]!] ?? 'ignored',
      priceUsd: Number.isFinite(usd) ? usd : null,
    };
  });
}
