/**
 * The widget's sentences about an estimate (pure, no DOM): what the missing network figures mean, and the summary a
 * screen reader hears once typing pauses.
 */
import type { MiningEstimate, NetworkFigure } from './calc.ts';
import { formatCoins } from './format.ts';

/** The host of the platform the figures come from, as the widget names it (`api.example.com`). */
export const hostOf = (base: string): string => {
  try {
    return new URL(base).host;
  } catch {
    return base;
  }
};

/** What a missing network figure means for the estimate, in words. */
export function missingNotes(missing: readonly NetworkFigure[], symbol: string, currency: string): string[] {
  const notes: string[] = [];
  const what: string[] = [];
  if (missing.includes('networkHashrate'))
    what.push('the network hashrate is unknown (it needs the difficulty and the block time)');
  if (missing.includes('blockTimeSeconds')) what.push('the block time is unknown');
  if (missing.includes('blockReward')) what.push('the block reward is unknown');
  if (what.length > 0)
    notes.push(
      `${what.join('; ').replace(/^./, (c) => c.toUpperCase())}, so expected coins, revenue and profit can't be estimated.`,
    );
  else if (missing.includes('price'))
    notes.push(
      `There is no ${currency.toUpperCase()} price for ${symbol} right now, so revenue and profit can't be computed.`,
    );
  return notes;
}

/** The per-day result in one sentence; empty until there is an estimate for a known coin. */
export function summaryText(s: {
  est: MiningEstimate | null;
  /** The coin's name; null when the platform does not track it (or nothing has loaded). */
  coinName: string | null;
  /** Whether the platform knows the coin's network figures. */
  mined: boolean;
  notes: readonly string[];
  symbol: string;
  money: (v: number | null | undefined) => string;
  locale: string;
}): string {
  const { est, money } = s;
  if (!est || s.coinName === null) return '';
  if (!s.mined)
    return `No network figures are known for ${s.coinName}; electricity costs ${money(est.electricityPerDay)} per day.`;
  if (est.coinsPerDay === null) return s.notes.join(' ');
  const parts = [`${formatCoins(est.coinsPerDay, s.locale)} ${s.symbol}`];
  if (est.revenuePerDay !== null) parts.push(`revenue ${money(est.revenuePerDay)}`);
  parts.push(`electricity ${money(est.electricityPerDay)}`);
  if (est.profitPerDay !== null) parts.push(`profit ${money(est.profitPerDay)}`);
  return `Per day: ${parts.join(', ')}.`;
}
