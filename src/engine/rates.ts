import type { CurrencyInfo } from '../catalog/types.ts';
import { RESOLUTION_MS, upperBound } from './history.ts';
import type { MarketState } from './state.ts';
import type { AssetHistory, Bar } from './types.ts';

/**
 * Quote-currency rates: how many USD one unit of a currency is worth. Fiat and metals come from FX records; crypto
 * currencies and units (btc, sats, …) from the engine's own aggregate price of their asset.
 */
export class Rates {
  constructor(
    private readonly currencies: ReadonlyMap<string, CurrencyInfo>,
    private readonly state: MarketState,
    private readonly currentUsd: (asset: string) => number | null,
    /** The time "now" means: the snapshot's. */
    private readonly asOf: number,
  ) {}

  /** Whether `code` is a supported quote currency. */
  supports(code: string): boolean {
    return this.currencies.has(code);
  }

  /** Current USD per unit; null when the rate is unknown (for fiat: no source has a fresh rate). */
  now(code: string): number | null {
    if (code === 'usd') return 1;
    const c = this.currencies.get(code);
    if (!c) return null;
    if (c.asset) {
      const p = this.currentUsd(c.asset.id);
      return p === null ? null : p * c.asset.scale;
    }
    return this.state.fxNow(code, this.asOf);
  }

  /** USD per unit at time `ts` (the rate of that day for fiat; the asset's close at that time for crypto). */
  at(code: string, ts: number): number | null {
    if (code === 'usd') return 1;
    const c = this.currencies.get(code);
    if (!c) return null;
    if (c.asset) {
      const h = this.state.histories.get(c.asset.id);
      const p = h ? closeAt(h, ts) : null;
      return p === null ? null : p * c.asset.scale;
    }
    return this.state.fxAt(code, ts);
  }
}

/** The close of the finest bar covering `ts` (the bucket containing it), or null when no bar covers it. */
export function closeAt(h: AssetHistory, ts: number): number | null {
  return (
    coveringClose(h.bars5m, ts, RESOLUTION_MS['5m']) ??
    coveringClose(h.bars1h, ts, RESOLUTION_MS['1h']) ??
    coveringClose(h.bars1d, ts, RESOLUTION_MS['1d'])
  );
}

function coveringClose(bars: readonly Bar[], ts: number, width: number): number | null {
  const b = bars[upperBound(bars, ts) - 1];
  return b && ts < b.ts + width ? b.close : null;
}
