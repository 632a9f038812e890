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

/**
 * One observation of a proof-of-work chain's network figures by one source (a row of `mining_figures`). A figure
 * the source does not know is null, never a guess.
 */
export interface MiningRecord {
  /** Coin id (catalog). */
  asset: string;
  /** Lowercase proof-of-work algorithm the figures are for, e.g. `scrypt`. */
  algorithm: string;
  /** Network difficulty (Bitcoin's convention: difficulty 1 ≈ 2^32 hashes per block); null when unknown. */
  difficulty: number | null;
  /** Coins paid per block (subsidy, without fees); null when unknown. */
  blockReward: number | null;
  /** Seconds between blocks (of this algorithm, for multi-algorithm chains); null when unknown. */
  blockTimeSeconds: number | null;
  /** Height of the chain's tip when observed; null when the source does not say. */
  height: number | null;
  /** Network hashrate in hashes per second as the source reports it (a node's `getnetworkhashps`); null if none. */
  networkHashps: number | null;
  /** Time of the tip block, UNIX ms; null when unknown. */
  tipTime: number | null;
  /** Where the figures come from: `demo` (the seeded demo generator), a node (`node:ltc`), an explorer. */
  source: string;
  /** When they were observed, UNIX ms. */
  observedAt: number;
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
  /** Chain figures (`MiningRecord`s), from coin nodes. */
  mining?: unknown[];
  /**
   * Records the adapter itself could not read from the answer (a field of the wrong type, a figure out of range),
   * with a stable reason: counted and logged like validation rejects, never stored.
   */
  rejects?: { reason: string; record: unknown }[];
  /** Parts that failed while the rest answered (a ccxt venue, a node's supply read): reported per part in health. */
  errors?: { source: string; message: string; reason?: string }[];
}

/** What a source feeds: the engine's inputs, and chain reads for the bridge's proof of reserves. */
export type SourceSupply = 'tickers' | 'supply' | 'fx' | 'mining' | 'balances' | 'token-supply';

/**
 * A source of market inputs. `poll` returns what the source knows now; a replay source walks its recording.
 * A source that fails or hangs is cut off by the pipeline's timeout and does not stop the others.
 */
export interface TickerSource {
  readonly id: string;
  readonly kind: 'replay' | 'ccxt' | 'dex' | 'node' | 'explorer' | 'fx' | 'solana';
  /** What its snapshots carry (for `coinwallet sources check` and `/healthz`); unset: tickers. */
  readonly supplies?: readonly SourceSupply[];
  /** This source's poll timeout in ms; unset: the pipeline's (`SOURCE_TIMEOUT_MS`). */
  readonly timeoutMs?: number;
  /** Next snapshot, or `null` when a finite recording is exhausted. */
  poll(signal: AbortSignal): Promise<SourceSnapshot | null>;
  close?(): Promise<void>;
}

/** One address's confirmed balance in base units, at a block (its height and time, UNIX ms). */
export interface AddressBalance {
  address: string;
  units: bigint;
  height: number;
  blockTime: number;
}

/** A source that reads the confirmed balances of addresses (a coin node, a Blockbook explorer). */
export interface BalanceReader {
  readonly id: string;
  /** Balances of `addresses`, in order, all at one block. Rejects with a `SourceError` when it cannot say. */
  balances(addresses: readonly string[]): Promise<AddressBalance[]>;
}

/** A token's total supply in base units at a Solana slot (and that slot's block time, UNIX ms). */
export interface TokenSupply {
  units: bigint;
  decimals: number;
  slot: number;
  blockTime: number;
}

/** A source that reads an SPL token's supply (a Solana JSON-RPC endpoint). */
export interface TokenSupplyReader {
  readonly id: string;
  tokenSupply(mint: string): Promise<TokenSupply>;
}
