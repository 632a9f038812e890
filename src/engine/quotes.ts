/**
 * Quote conversion for the price engine: turns a ticker's quote code into USD per quote unit. Fiat and metal codes
 * use FX rates; crypto codes (usdt, btc, sats…) use the engine's own aggregate price of the quote asset × scale.
 * See `aggregatePrices` in `price.ts` for the multi-pass order in which quote assets get their prices.
 */

/** Converts quote codes to USD. Built by the caller from the catalog currencies, the FX rates and the asset ids. */
export interface QuoteResolver {
  /** USD per unit for fiat/metal quote codes (from FX), or null. */
  fiatUsd(code: string): number | null;
  /** For crypto quote codes (btc, eth, usdt, usdc, doge, bits, sats...): the asset id and scale (units of that asset per 1 quote unit), or null. */
  quoteAsset(code: string): { id: string; scale: number } | null;
}

const usable = (x: number | null | undefined): x is number => x != null && x > 0 && x < Infinity;

/**
 * The distinct quote codes of one aggregation run, each resolved once through the {@link QuoteResolver} into a
 * numbered slot. A code that is both fiat and a quote asset is treated as fiat. Non-positive or non-finite rates
 * and scales make a code unconvertible.
 */
export class QuoteSlots {
  private readonly index = new Map<string, number>();
  private readonly fiat: number[] = [];
  private readonly assets: (string | null)[] = [];
  private readonly scales: number[] = [];
  /** Base group of each slot's quote asset (-1: fiat, unknown, or not a base in this run); set by `link`. */
  private groups = new Int32Array(0);
  /** Per base group: 1 when it is some slot's quote asset; set by `link`. */
  private quoted = new Uint8Array(0);
  /** USD per quote unit of each slot for the current pass; NaN when not convertible (yet). Set by `update`. */
  rate = new Float64Array(0);

  constructor(private readonly resolver: QuoteResolver) {}

  /** Slot number of `code`, resolving it on first sight. */
  slot(code: string): number {
    let q = this.index.get(code);
    if (q !== undefined) return q;
    q = this.fiat.length;
    this.index.set(code, q);
    const fiat = this.resolver.fiatUsd(code);
    const asset = usable(fiat) ? null : this.resolver.quoteAsset(code);
    const ok = asset !== null && usable(asset.scale);
    this.fiat.push(usable(fiat) ? fiat : NaN);
    this.assets.push(ok ? asset.id : null);
    this.scales.push(ok ? asset.scale : NaN);
    return q;
  }

  /** The asset id a slot is quoted in, or null for fiat and unconvertible codes. */
  assetOf(q: number): string | null {
    return this.assets[q] ?? null;
  }

  /** Maps each slot's quote asset to its base group; call once all `groupCount` bases are known. */
  link(groupOf: ReadonlyMap<string, number>, groupCount: number): void {
    const n = this.fiat.length;
    this.groups = new Int32Array(n);
    this.rate = new Float64Array(n);
    this.quoted = new Uint8Array(groupCount);
    for (let q = 0; q < n; q++) {
      const g = groupOf.get(this.assets[q] ?? '') ?? -1;
      this.groups[q] = g;
      if (g >= 0) this.quoted[g] = 1;
    }
  }

  /** Whether base group `g` is the quote asset of some slot (its price converts other tickers). */
  isQuoteAsset(g: number): boolean {
    return this.quoted[g] === 1;
  }

  /** Recomputes every slot's rate from the asset prices of the previous pass (NaN = not priced), by base group. */
  update(prices: Float64Array): void {
    for (let q = 0; q < this.rate.length; q++) {
      const g = this.groups[q]!;
      this.rate[q] = this.fiat[q]! > 0 ? this.fiat[q]! : g >= 0 ? prices[g]! * this.scales[q]! : NaN;
    }
  }
}
