/**
 * Lists of our schema whose length their field's arguments decide (`estimate.ts`'s `ArgumentSize`): what a stock
 * gateway's `@listSize` cannot say. A chart's points are as many as its span holds at its spacing (90 days hourly:
 * 2,161, where `@listSize` assumes 365), so a query for many long charts is refused by its cost before it is built.
 */
import { chartResolution, DAY_MS, RESOLUTION_MS } from '../../src/engine/history.ts';
import type { Resolution } from '../../src/engine/types.ts';
import type { ArgumentSize } from './estimate.ts';

/** The graph's `ChartInterval` values and the spacing each asks for (`AUTO`: from the span). */
const SPACING: Readonly<Record<string, Resolution | undefined>> = {
  AUTO: undefined,
  FIVE_MINUTES: '5m',
  HOURLY: '1h',
  DAILY: '1d',
};

/** Points of a chart of `days` back from now at `interval`: one per bar of its spacing, and the current value. */
export function chartPoints(days: number, interval: unknown): number {
  const span = days * DAY_MS;
  const res = (typeof interval === 'string' ? SPACING[interval] : undefined) ?? chartResolution(span);
  return Math.floor(span / RESOLUTION_MS[res]) + 1;
}

export const ARGUMENT_SIZES: ReadonlyMap<string, ArgumentSize> = new Map([
  ['Coin.chart', { sizedFields: ['points'], size: (a) => chartPoints(Number(a['days']), a['interval']) }],
  // Daily candles: one per day back from now, and the open day.
  ['Coin.candles', { sizedFields: [], size: (a) => Number(a['days']) + 1 }],
]);
