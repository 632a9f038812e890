/**
 * Money and argument helpers shared by the markets resolvers: the request's snapshot, a converter into a requested
 * currency (the REST presenters' `Converter`, default precision), the historical rate of a converter and `days`.
 */
import type { RateAt } from '../../src/engine/chart.ts';
import type { MarketSnapshot } from '../../src/engine/snapshot.ts';
import { CURRENCY_CODE } from '../../src/core/params.ts';
import { MAX_DAYS } from '../../src/market/chart-params.ts';
import { Converter } from '../../src/market/present/common.ts';
import { figures } from '../../src/market/present/figures.ts';
import type { CurrencyFigures } from '../../src/market/present/figures.ts';
import { applyPrecision } from '../../src/market/present/precision.ts';
import type { Precision } from '../../src/market/present/precision.ts';
import type { MarketsContext } from './context.ts';
import { invalidArgument, unknownCurrency } from './errors.ts';

export const DEFAULT_PRECISION: Precision = { kind: 'default' };

/** The current snapshot; before the first tick → NOT_READY. */
export function snapshotOf(ctx: MarketsContext): MarketSnapshot {
  return ctx.snapshot();
}

/** A converter into `currency` (any code of `currencies`, case-insensitive); unsupported → INVALID_CURRENCY. */
export function converter(ctx: MarketsContext, currency: string): Converter {
  const snap = snapshotOf(ctx);
  const code = currency.trim().toLowerCase();
  if (!CURRENCY_CODE.test(code) || !snap.rates.supports(code)) throw unknownCurrency(currency);
  return new Converter(snap.rates, code, snap.computedAt, DEFAULT_PRECISION);
}

/**
 * The current figures of coins in `currency` (validated as by {@link converter}), computed once per snapshot and
 * shared with the price API (`src/market/present/figures.ts`).
 */
export function figuresIn(ctx: MarketsContext, currency: string): CurrencyFigures {
  const snap = snapshotOf(ctx);
  const code = currency.trim().toLowerCase();
  if (!CURRENCY_CODE.test(code) || !snap.rates.supports(code)) throw unknownCurrency(currency);
  return figures.in(snap, code);
}

/** The historical conversion rate of a converter's currency; null when unknown. */
export const rateAt =
  (conv: Converter): RateAt =>
  (ts) =>
    conv.rateAt(ts);

/** A figure with the default precision (12 significant digits). */
export const round = (v: number | null): number | null => applyPrecision(v, DEFAULT_PRECISION);

/** `days` of the chart fields: an integer from 1 to 3,650. */
export function daysArg(days: number): number {
  if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS)
    throw invalidArgument('days', `must be an integer number of days from 1 to ${MAX_DAYS}`);
  return days;
}

/** `first` of a list field: an integer from 1 to `max`. */
export function firstArg(first: number | null | undefined, def: number, max: number): number {
  const n = first ?? def;
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw invalidArgument('first', `must be an integer from 1 to ${max}`);
  return n;
}
