import type { FxRate, SupplyRecord, Ticker } from '../ingest/types.ts';
import { emptyHistory } from './history.ts';
import type { AssetHistory } from './types.ts';

const DAY_MS = 86_400_000;

/** Daily FX series of one currency: parallel arrays sorted by day. */
export interface FxSeries {
  days: number[];
  rates: number[];
}

/**
 * Everything the engine aggregates from, held in memory: the latest ticker per market, the latest supply record per
 * (asset, kind, source), FX rates by day and each asset's history windows. Loaded from the store at start and kept
 * current by the ingestion pipeline, so no request path queries SQL for current figures.
 */
export class MarketState {
  readonly tickers = new Map<string, Ticker>();
  readonly supply = new Map<string, Map<string, SupplyRecord>>();
  readonly fx = new Map<string, FxRate>();
  readonly fxDaily = new Map<string, FxSeries>();
  readonly histories = new Map<string, AssetHistory>();

  /** Keeps the newer ticker per (venue, base, quote). Returns true when it changed the state. */
  applyTicker(t: Ticker): boolean {
    const key = `${t.venue}|${t.base}|${t.quote}`;
    const prev = this.tickers.get(key);
    if (prev && prev.ts >= t.ts) return false;
    this.tickers.set(key, t);
    return true;
  }

  applySupply(r: SupplyRecord): void {
    let m = this.supply.get(r.asset);
    if (!m) this.supply.set(r.asset, (m = new Map()));
    const key = `${r.kind}|${r.source}`;
    const prev = m.get(key);
    if (!prev || r.ts > prev.ts) m.set(key, r);
  }

  applyFx(r: FxRate): void {
    const prev = this.fx.get(r.currency);
    if (!prev || r.ts >= prev.ts) this.fx.set(r.currency, r);
    let s = this.fxDaily.get(r.currency);
    if (!s) this.fxDaily.set(r.currency, (s = { days: [], rates: [] }));
    const day = Math.floor(r.ts / DAY_MS) * DAY_MS;
    const i = upperBound(s.days, day) - 1;
    if (i >= 0 && s.days[i] === day) s.rates[i] = r.usdPerUnit;
    else {
      s.days.splice(i + 1, 0, day);
      s.rates.splice(i + 1, 0, r.usdPerUnit);
    }
  }

  history(asset: string): AssetHistory {
    let h = this.histories.get(asset);
    if (!h) this.histories.set(asset, (h = emptyHistory()));
    return h;
  }

  supplyOf(asset: string): SupplyRecord[] {
    const m = this.supply.get(asset);
    return m ? [...m.values()] : [];
  }

  /** USD per unit of a fiat/metal currency on the day of `ts` (the latest day at or before it), or null. */
  fxAt(code: string, ts: number): number | null {
    const s = this.fxDaily.get(code);
    if (!s) return null;
    const i = upperBound(s.days, ts) - 1;
    // Before the first recorded day there is no rate: unknown, not extrapolated.
    return i >= 0 ? (s.rates[i] ?? null) : null;
  }
}

/** First index whose value is > x in an ascending array. */
export function upperBound(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((xs[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
