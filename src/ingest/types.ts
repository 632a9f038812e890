/**
 * Raw inputs of the market engine. Every source (replay, ccxt, on-chain/DEX) produces these records;
 * `validate.ts` checks them before anything is stored or aggregated.
 */

/** Where a market lives: a centralised exchange or an on-chain DEX pool. */
export type VenueKind = 'cex' | 'dex';

/** One market's last trade and 24h volume as reported by one venue. */
export interface Ticker {
  /** Venue id, lowercase, e.g. `binance`, `dogeswap`. */
  venue: string;
  venueKind: VenueKind;
  /** Base asset id from the catalog (lowercase, e.g. `litecoin`): sources map venue symbols to ids. */
  base: string;
  /**
   * Quote code, lowercase: a catalog currency (`usd`, `eur`, `btc`) or a quote asset symbol (`usdt`, `usdc`, `doge`).
   * The engine converts it to USD (see `src/engine/quotes.ts`).
   */
  quote: string;
  /** Last trade price in quote units; > 0. */
  last: number;
  /** Best bid in quote units, when the venue reports one. */
  bid: number | null;
  /** Best ask in quote units, when the venue reports one. */
  ask: number | null;
  /** 24h traded volume in base units; >= 0. */
  baseVolume: number;
  /** Venue timestamp of the quote, UNIX milliseconds. */
  ts: number;
}

/** What a supply figure measures. */
export type SupplyKind = 'circulating' | 'total' | 'max';

/** How a supply source obtains its figure (documented per source in docs/methodology.md). */
export type SupplySourceKind = 'explorer' | 'emission' | 'issuer' | 'node' | 'aggregator';

/** One supply observation of one asset by one source. */
export interface SupplyRecord {
  asset: string;
  kind: SupplyKind;
  /** Units of the asset; >= 0. */
  value: number;
  /** Source id, e.g. `blockbook-ltc`, `emission-schedule`. Distinct ids count as independent sources. */
  source: string;
  sourceKind: SupplySourceKind;
  /** Observation time, UNIX milliseconds. */
  ts: number;
}

/** A fiat or metal rate: how many USD one unit of `currency` is worth at `ts`. */
export interface FxRate {
  /** Lowercase catalog currency code (`eur`, `xau`). */
  currency: string;
  usdPerUnit: number;
  /** UNIX milliseconds. */
  ts: number;
  source: string;
}

/** One poll of a source: everything it saw at one moment. */
export interface SourceSnapshot {
  /** Source id (`replay:demo`, `ccxt:kraken`, `dex:recorded`). */
  source: string;
  /** Snapshot time, UNIX milliseconds (the poll time; tickers carry their own venue time). */
  ts: number;
  tickers: unknown[];
  supply?: unknown[];
  fx?: unknown[];
}

/**
 * A source of market inputs. `poll` returns what the source knows now; a replay source walks its recording.
 * A source that fails or hangs is cut off by the pipeline's timeout and does not stop the others.
 */
export interface TickerSource {
  readonly id: string;
  readonly kind: 'replay' | 'ccxt' | 'dex';
  /** Next snapshot, or `null` when a finite recording is exhausted. */
  poll(signal: AbortSignal): Promise<SourceSnapshot | null>;
  close?(): Promise<void>;
}
