/**
 * A coin's current figures in one quote currency, computed once per market snapshot and shared by the price API's
 * market rows and the graph's `Coin` fields: a coin's price in EUR is the same for every request until the next
 * tick, so converting it again per request (per field, in the graph) is work thrown away.
 *
 * Keyed by the snapshot's identity: the first request of a newer snapshot drops every row of the older one (a
 * request still reading the older snapshot computes its figures without keeping them). Bounded: at most
 * {@link MAX_ROWS} rows (about {@link ROW_BYTES} bytes each), then rows are computed and not kept until the next
 * snapshot. Only figures derived from the snapshot live here, with the default precision (a caller asking another
 * precision converts itself).
 */
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import type { AssetMarket } from '../../engine/types.ts';
import { Converter } from './common.ts';
import type { Precision } from './precision.ts';

/** The current figures of one coin in one currency (default precision); null where unknown. */
export interface CurrentFigures {
  price: number | null;
  marketCap: number | null;
  fdv: number | null;
  volume24h: number | null;
  high24h: number | null;
  low24h: number | null;
  priceChange24h: number | null;
  marketCapChange24h: number | null;
}

const DEFAULT: Precision = { kind: 'default' };
/** An upper estimate of one kept row: the object of eight numbers and its map entry. */
export const ROW_BYTES = 160;
/** Rows kept per snapshot: 168 currencies × 80 coins fit (13,440); about 6 MiB at most. */
export const MAX_ROWS = 40_000;

export function currentFigures(m: AssetMarket, conv: Converter): CurrentFigures {
  return {
    price: conv.money(m.price.priceUsd),
    marketCap: conv.money(m.marketCapUsd),
    fdv: conv.money(m.fdvUsd),
    volume24h: conv.money(m.price.volumeUsd),
    high24h: conv.money(m.high24hUsd),
    low24h: conv.money(m.low24hUsd),
    priceChange24h: conv.change24h(m),
    marketCapChange24h: conv.capChange24h(m),
  };
}

/** One currency's rows of one snapshot. */
export class CurrencyFigures {
  private readonly rows = new Map<string, CurrentFigures>();
  readonly conv: Converter;
  constructor(
    snapshot: MarketSnapshot,
    readonly code: string,
    private readonly owner: FiguresCache,
  ) {
    this.conv = new Converter(snapshot.rates, code, snapshot.computedAt, DEFAULT);
  }

  /** `m`'s figures in this currency. */
  of(m: AssetMarket): CurrentFigures {
    let f = this.rows.get(m.id);
    if (!f) {
      f = currentFigures(m, this.conv);
      if (this.owner.take()) this.rows.set(m.id, f);
    }
    return f;
  }
}

export class FiguresCache {
  private snapshot: MarketSnapshot | null = null;
  private readonly byCode = new Map<string, CurrencyFigures>();
  private rows = 0;

  /**
   * The rows of currency `code` (lowercase, supported: the caller checked it) in `snapshot`. A snapshot other than
   * the kept one: a newer one replaces it; a request still on an older one gets rows that are not kept.
   */
  in(snapshot: MarketSnapshot, code: string): CurrencyFigures {
    if (snapshot !== this.snapshot) {
      if (this.snapshot && snapshot.computedAt < this.snapshot.computedAt)
        return new CurrencyFigures(snapshot, code, NONE);
      this.snapshot = snapshot;
      this.byCode.clear();
      this.rows = 0;
    }
    let t = this.byCode.get(code);
    if (!t) this.byCode.set(code, (t = new CurrencyFigures(snapshot, code, this)));
    return t;
  }

  /** Whether one more row may be kept (and counts it). */
  take(): boolean {
    if (this.rows >= MAX_ROWS) return false;
    this.rows++;
    return true;
  }
}

/** The owner of rows that are never kept. */
const NONE = { take: () => false } as unknown as FiguresCache;

/** The process's figures, shared by the price API and the markets subgraph. */
export const figures = new FiguresCache();
