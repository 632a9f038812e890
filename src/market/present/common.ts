/**
 * Pure helpers of the price presenters: image URLs, times, percentages and the conversion of USD figures (and
 * their changes) into any quote currency using the rate now and the rate at the reference time.
 */
import type { Rates } from '../../engine/rates.ts';
import type { AssetMarket, ChangeWindow } from '../../engine/types.ts';
import { applyPrecision } from './precision.ts';
import type { Precision } from './precision.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Length of each change window, for the rate at its start. */
export const WINDOW_MS: Readonly<Record<ChangeWindow, number>> = {
  '1h': HOUR_MS,
  '24h': DAY_MS,
  '7d': 7 * DAY_MS,
  '14d': 14 * DAY_MS,
  '30d': 30 * DAY_MS,
  '60d': 60 * DAY_MS,
  '200d': 200 * DAY_MS,
  '1y': 365 * DAY_MS,
};

const DEFAULT: Precision = { kind: 'default' };

/**
 * Coin image URL (root-relative, on our own server), served by `src/rest/assets/` (the operator's logo or a
 * generated badge). One SVG serves every size (thumb, small, large).
 */
export const imageUrl = (id: string): string => `/assets/coins/${encodeURIComponent(id)}.svg`;
/** Sparkline image URL of `/search/trending` (the coin's 7-day closes, served by `src/rest/assets/`). */
export const sparklineUrl = (id: string): string => `/assets/sparklines/${encodeURIComponent(id)}.svg`;
export const images = (id: string) => ({ thumb: imageUrl(id), small: imageUrl(id), large: imageUrl(id) });

/** ISO-8601 of a UNIX-ms time; null stays null. */
export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
/** UNIX seconds of a UNIX-ms time; null stays null. */
export const unixSeconds = (ms: number | null): number | null => (ms === null ? null : Math.floor(ms / 1000));
/** A percentage or ratio without float noise (12 significant digits); null stays null. */
export const pct = (v: number | null): number | null => applyPrecision(v, DEFAULT);

/**
 * Converts USD figures of one snapshot into currency `code`: the current rate for current figures, the rate at
 * the reference time for past ones (so a change in EUR is the change of the EUR price, not of the USD price).
 */
export class Converter {
  readonly rate: number | null;

  constructor(
    private readonly rates: Rates,
    readonly code: string,
    private readonly now: number,
    private readonly p: Precision,
  ) {
    const r = rates.now(code);
    this.rate = r !== null && r > 0 ? r : null;
  }

  /** USD per unit of the currency at `ts`; null when unknown. */
  rateAt(ts: number): number | null {
    const r = this.code === 'usd' ? 1 : this.rates.at(this.code, ts);
    return r !== null && r > 0 ? r : null;
  }

  /** A current USD figure in this currency, with precision; null figure or rate → null. */
  money(usd: number | null): number | null {
    return usd === null || this.rate === null ? null : applyPrecision(usd / this.rate, this.p);
  }

  /** A current USD figure in this currency without precision (for derived ratios). */
  raw(usd: number | null): number | null {
    return usd === null || this.rate === null ? null : usd / this.rate;
  }

  /** A past USD figure at `ts` in this currency at that time's rate, with precision. */
  moneyAt(usd: number | null, ts: number): number | null {
    const r = this.rateAt(ts);
    return usd === null || r === null ? null : applyPrecision(usd / r, this.p);
  }

  /** The price `window` ago in this currency (raw), from the current USD price and its USD % change. */
  private thenPrice(m: AssetMarket, window: ChangeWindow): number | null {
    const price = m.price.priceUsd;
    const ch = m.changes[window];
    if (price === null || ch === null || !(1 + ch / 100 > 0)) return null;
    const r = this.rateAt(this.now - WINDOW_MS[window]);
    return r === null ? null : price / (1 + ch / 100) / r;
  }

  /** Percent change of the price in this currency over `window`. */
  changePct(m: AssetMarket, window: ChangeWindow): number | null {
    if (this.code === 'usd') return pct(m.changes[window]);
    const now = this.raw(m.price.priceUsd);
    const then = this.thenPrice(m, window);
    return now === null || then === null || then === 0 ? null : pct((now / then - 1) * 100);
  }

  /** Absolute 24h price change in this currency, with precision. */
  change24h(m: AssetMarket): number | null {
    if (this.code === 'usd') return applyPrecision(m.priceChange24hUsd, this.p);
    const now = this.raw(m.price.priceUsd);
    const then = this.thenPrice(m, '24h');
    return now === null || then === null ? null : applyPrecision(now - then, this.p);
  }

  /** Market cap 24h ago in this currency (raw), from the current cap and its USD change. */
  private capThen(m: AssetMarket): number | null {
    if (m.marketCapUsd === null || m.marketCapChange24hUsd === null) return null;
    const r = this.rateAt(this.now - DAY_MS);
    return r === null ? null : (m.marketCapUsd - m.marketCapChange24hUsd) / r;
  }

  /** Absolute 24h market-cap change in this currency, with precision. */
  capChange24h(m: AssetMarket): number | null {
    if (this.code === 'usd') return applyPrecision(m.marketCapChange24hUsd, this.p);
    const now = this.raw(m.marketCapUsd);
    const then = this.capThen(m);
    return now === null || then === null ? null : applyPrecision(now - then, this.p);
  }

  /** Percent 24h market-cap change in this currency. */
  capChangePct24h(m: AssetMarket): number | null {
    if (this.code === 'usd') return pct(m.marketCapChangePct24h);
    const now = this.raw(m.marketCapUsd);
    const then = this.capThen(m);
    return now === null || then === null || then <= 0 ? null : pct((now / then - 1) * 100);
  }

  /**
   * An extreme (ATH/ATL) in this currency at the rate of its own time (converting at today's rate would invent a
   * price that never traded), with the current price's % distance from it; all null when that rate is unknown.
   */
  extreme(
    e: { priceUsd: number; ts: number } | null,
    priceUsd: number | null,
  ): { value: number | null; changePct: number | null; date: string | null } {
    const r = e === null ? null : this.rateAt(e.ts);
    if (e === null || r === null) return { value: null, changePct: null, date: null };
    const then = e.priceUsd / r;
    const now = this.raw(priceUsd);
    return {
      value: applyPrecision(then, this.p),
      changePct: now === null || then === 0 ? null : pct((now / then - 1) * 100),
      date: iso(e.ts),
    };
  }
}
