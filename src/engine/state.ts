import type { FxRate, SupplyRecord, Ticker } from '../ingest/types.ts';
import { emptyHistory } from './history.ts';
import type { AssetHistory } from './types.ts';

const DAY_MS = 86_400_000;

/**
 * How long an FX rate of a source without its own window may be used: 5.5 days. The longest gap between two daily
 * publications is the Easter break of the ECB (Thursday afternoon to Tuesday afternoon, 5 days), plus half a day
 * for a late one. Live FX sources set their own windows (docs/sources.md).
 */
export const DEFAULT_FX_MAX_AGE_MS = 132 * 3_600_000;

/** Daily FX series of one currency: parallel arrays sorted by day; `expires[i]` = when that day's rate goes stale. */
export interface FxSeries {
  days: number[];
  rates: number[];
  expires: number[];
}

/**
 * Everything the engine aggregates from, held in memory: the latest ticker per market, the latest supply record per
 * (asset, kind, source), FX rates by day and each asset's history windows. Loaded from the store at start and kept
 * current by the ingestion pipeline, so no request path queries SQL for current figures.
 */
export class MarketState {
  readonly tickers = new Map<string, Ticker>();
  readonly supply = new Map<string, Map<string, SupplyRecord>>();
  /** The newest rate of each currency from each source. */
  readonly fx = new Map<string, Map<string, FxRate>>();
  readonly fxDaily = new Map<string, FxSeries>();
  readonly histories = new Map<string, AssetHistory>();
  private readonly supplyChanges = new Map<string, number>();

  /** @param fxMaxAgeMs how long a rate of `source` may be used (default {@link DEFAULT_FX_MAX_AGE_MS} for all). */
  constructor(private readonly fxMaxAgeMs: (source: string) => number = () => DEFAULT_FX_MAX_AGE_MS) {}

  /** Keeps the newer ticker per (venue, base, quote). Returns true when it changed the state. */
  applyTicker(t: Ticker): boolean {
    const key = marketKey(t);
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
    if (!prev || r.ts > prev.ts) {
      m.set(key, r);
      this.supplyChanges.set(r.asset, (this.supplyChanges.get(r.asset) ?? 0) + 1);
    }
  }

  /** How many times the supply records of `asset` changed: equal counts mean the same records. */
  supplyVersion(asset: string): number {
    return this.supplyChanges.get(asset) ?? 0;
  }

  applyFx(r: FxRate): void {
    let bySource = this.fx.get(r.currency);
    if (!bySource) this.fx.set(r.currency, (bySource = new Map()));
    const prev = bySource.get(r.source);
    if (!prev || r.ts >= prev.ts) bySource.set(r.source, r);
    let s = this.fxDaily.get(r.currency);
    if (!s) this.fxDaily.set(r.currency, (s = { days: [], rates: [], expires: [] }));
    const day = Math.floor(r.ts / DAY_MS) * DAY_MS;
    const expires = r.ts + this.fxMaxAgeMs(r.source);
    const i = upperBound(s.days, day) - 1;
    if (i >= 0 && s.days[i] === day) {
      s.rates[i] = r.usdPerUnit;
      s.expires[i] = expires;
    } else {
      s.days.splice(i + 1, 0, day);
      s.rates.splice(i + 1, 0, r.usdPerUnit);
      s.expires.splice(i + 1, 0, expires);
    }
  }

  /**
   * `applyFx` of one currency's rates given as columns, oldest first (one object made per source, for its newest rate,
   * instead of one per rate): the same state.
   */
  applyFxColumns(
    currency: string,
    usdPerUnit: readonly number[],
    ts: readonly number[],
    sources: readonly string[],
  ): void {
    const newest = new Map<string, number>();
    let s = this.fxDaily.get(currency);
    if (!s) this.fxDaily.set(currency, (s = { days: [], rates: [], expires: [] }));
    for (let k = 0; k < ts.length; k++) {
      const t = ts[k] as number;
      const source = sources[k] as string;
      const prev = newest.get(source);
      if (prev === undefined || t >= (ts[prev] as number)) newest.set(source, k);
      const day = Math.floor(t / DAY_MS) * DAY_MS;
      const expires = t + this.fxMaxAgeMs(source);
      const i = upperBound(s.days, day) - 1;
      if (i >= 0 && s.days[i] === day) {
        s.rates[i] = usdPerUnit[k] as number;
        s.expires[i] = expires;
      } else {
        s.days.splice(i + 1, 0, day);
        s.rates.splice(i + 1, 0, usdPerUnit[k] as number);
        s.expires.splice(i + 1, 0, expires);
      }
    }
    let bySource = this.fx.get(currency);
    for (const [source, k] of newest) {
      if (!bySource) this.fx.set(currency, (bySource = new Map()));
      const prev = bySource.get(source);
      const r = { currency, usdPerUnit: usdPerUnit[k] as number, ts: ts[k] as number, source };
      if (!prev || r.ts >= prev.ts) bySource.set(source, r);
    }
  }

  /**
   * USD per unit of a fiat/metal currency at `now`: the newest rate among the sources whose rate is still fresh
   * (no older than its source's window); null when no source has a fresh one. A stale rate is never carried on.
   */
  fxNow(code: string, now: number): number | null {
    let best: FxRate | null = null;
    for (const r of this.fx.get(code)?.values() ?? []) {
      if (now - r.ts > this.fxMaxAgeMs(r.source) || r.ts > now + DAY_MS) continue;
      if (best === null || r.ts > best.ts) best = r;
    }
    return best?.usdPerUnit ?? null;
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

  /**
   * USD per unit of a fiat/metal currency at `ts`: the rate of the latest day at or before it, while that rate was
   * still fresh at `ts` (its source's window); null otherwise.
   */
  fxAt(code: string, ts: number): number | null {
    const s = this.fxDaily.get(code);
    if (!s) return null;
    const i = upperBound(s.days, ts) - 1;
    // Before the first recorded day there is no rate, and after a rate's window none either: unknown, not carried.
    return i >= 0 && ts <= (s.expires[i] as number) ? (s.rates[i] ?? null) : null;
  }
}

/** `venue|base|quote` keys already made, by venue, base and quote (markets repeat in every snapshot). */
const marketKeys = new Map<string, Map<string, Map<string, string>>>();
let marketKeyCount = 0;

/** The key of a ticker's market, `venue|base|quote`: one string per market, made once. */
export function marketKey(t: Pick<Ticker, 'venue' | 'base' | 'quote'>): string {
  let byBase = marketKeys.get(t.venue);
  if (!byBase) marketKeys.set(t.venue, (byBase = new Map()));
  let byQuote = byBase.get(t.base);
  if (!byQuote) byBase.set(t.base, (byQuote = new Map()));
  let key = byQuote.get(t.quote);
  if (key === undefined) {
    // A bound on a cache of pure values: dropping it only costs making keys again.
    if (++marketKeyCount > 100_000) {
      marketKeys.clear();
      marketKeyCount = 0;
    }
    key = `${t.venue}|${t.base}|${t.quote}`;
    byQuote.set(t.quote, key);
  }
  return key;
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
