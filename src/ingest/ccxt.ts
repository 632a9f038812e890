/**
 * Live exchange tickers through ccxt. One source polls every configured venue in parallel; each venue has its own
 * timeout, and a venue that fails or hangs yields no tickers and an entry in the snapshot's `errors`.
 *
 * Config file (JSON), see docs/sources.md:
 * ```json
 * { "venues": [{ "id": "kraken", "timeoutMs": 10000, "symbols": { "LTC/USD": "litecoin", "DOGE/USD": "dogecoin" } }] }
 * ```
 */
import { withTimeout } from '../core/timeout.ts';
import { readFileSync } from 'node:fs';
import { ASSET_BY_ID } from '../catalog/assets.ts';
import type { SourceSnapshot, Ticker, TickerSource, VenueKind } from './types.ts';

export interface CcxtVenueConfig {
  /** A ccxt exchange id (`kraken`, `binance`, `okx`…); also our venue id. */
  id: string;
  /** Default `'cex'`. */
  kind?: VenueKind;
  /** Per-venue request timeout in ms; default 10000. Bounds both ccxt's HTTP timeout and our wait. */
  timeoutMs?: number;
  /**
   * Base URL of the exchange's public REST API instead of ccxt's built-in one (`urls.api.public`): a proxy, or a
   * server replaying recorded answers. Only that API family moves; exchanges that also call other families while
   * loading markets (Binance's futures APIs) still reach those hosts, so use it with single-API exchanges (Kraken).
   */
  url?: string;
  /** ccxt unified symbol (`LTC/USDT`) → our base asset id (`litecoin`). The quote is the symbol's quote, lowercased. */
  symbols: Record<string, string>;
}

export interface CcxtSourceConfig {
  /** Source id; default `ccxt`. */
  id?: string;
  venues: CcxtVenueConfig[];
}

/** A snapshot of the ccxt source: tickers of the venues that answered, plus one `errors` entry per failed venue. */
export type CcxtSnapshot = SourceSnapshot;

/** The part of a ccxt exchange we use. */
export interface CcxtExchangeLike {
  fetchTickers(symbols?: string[]): Promise<Record<string, unknown>>;
}
export interface CcxtExchangeOptions {
  enableRateLimit: boolean;
  /** ccxt's HTTP timeout, ms. */
  timeout: number;
  /** Deep-merged over the exchange's own description: the public (and private) API base of `url`. */
  urls?: { api: { public: string; private: string } };
}
export type CreateExchange = (id: string, options: CcxtExchangeOptions) => CcxtExchangeLike;

export const DEFAULT_TIMEOUT_MS = 10_000;

/** Loads ccxt on first use (it is large), then builds `new ccxt[id](options)`. */
const defaultCreateExchange: CreateExchange = (id, options) => {
  let exchange: Promise<CcxtExchangeLike> | undefined;
  const load = async (): Promise<CcxtExchangeLike> => {
    const ccxt = (await import('ccxt')) as unknown as Record<string, unknown>;
    const Ctor = ccxt[id];
    if (typeof Ctor !== 'function') throw new Error(`unknown ccxt exchange id "${id}"`);
    return new (Ctor as new (o: CcxtExchangeOptions) => CcxtExchangeLike)(options);
  };
  return {
    fetchTickers: async (symbols) => {
      exchange ??= load().catch((err: unknown) => {
        exchange = undefined; // retry on the next poll
        throw err;
      });
      return (await exchange).fetchTickers(symbols);
    },
  };
};

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * Maps one ccxt unified ticker to ours. Bid/ask that are missing or not positive become null (no quote on that
 * side). A missing `baseVolume` is derived from `quoteVolume / last`; if neither exists it stays missing and the
 * validator rejects the ticker, since an unknown volume is not zero. A missing `timestamp` becomes `receivedAt`.
 */
export function mapCcxtTicker(
  raw: unknown,
  venue: { id: string; kind: VenueKind },
  base: string,
  quote: string,
  receivedAt: number,
): Partial<Ticker> {
  const t = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const last = num(t['last']) ?? num(t['close']);
  const side = (v: unknown): number | null => {
    const n = num(v);
    return n !== undefined && n > 0 ? n : null;
  };
  const quoteVolume = num(t['quoteVolume']);
  const baseVolume =
    num(t['baseVolume']) ?? (quoteVolume !== undefined && last ? quoteVolume / last : undefined);
  const ticker: Partial<Ticker> = { venue: venue.id, venueKind: venue.kind, base, quote };
  if (last !== undefined) ticker.last = last;
  ticker.bid = side(t['bid']);
  ticker.ask = side(t['ask']);
  if (baseVolume !== undefined) ticker.baseVolume = baseVolume;
  ticker.ts = num(t['timestamp']) ?? receivedAt;
  return ticker;
}

/** The quote code of a unified symbol: `LTC/USDT` → `usdt`, `BTC/USDT:USDT` → `usdt`. */
export function quoteOfSymbol(symbol: string): string {
  return (symbol.split('/')[1] ?? '').split(':')[0]!.toLowerCase();
}

/** A ticker source over ccxt. `deps.createExchange` replaces ccxt (tests inject recorded responses). */
export function createCcxtSource(
  config: CcxtSourceConfig,
  deps: { createExchange?: CreateExchange; now?: () => number } = {},
): TickerSource {
  const create = deps.createExchange ?? defaultCreateExchange;
  const now = deps.now ?? Date.now;
  const venues = config.venues.map((v) => {
    const timeoutMs = v.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const exchange = create(v.id, {
      enableRateLimit: true,
      timeout: timeoutMs,
      ...(v.url ? { urls: { api: { public: v.url, private: v.url } } } : {}),
    });
    return { id: v.id, kind: v.kind ?? 'cex', timeoutMs, symbols: Object.entries(v.symbols), exchange };
  });
  return {
    id: config.id ?? 'ccxt',
    kind: 'ccxt',
    supplies: ['tickers'],
    async poll(signal): Promise<CcxtSnapshot> {
      const ts = now();
      const results = await Promise.all(
        venues.map(async (v) => {
          const source = `ccxt:${v.id}`;
          try {
            const symbols = v.symbols.map(([s]) => s);
            const response = await withTimeout(v.exchange.fetchTickers(symbols), v.timeoutMs, { signal });
            const receivedAt = now();
            const tickers: Partial<Ticker>[] = [];
            const missing: string[] = [];
            for (const [symbol, base] of v.symbols) {
              if (response[symbol] === undefined) missing.push(symbol);
              else tickers.push(mapCcxtTicker(response[symbol], v, base, quoteOfSymbol(symbol), receivedAt));
            }
            const errors = missing.length ? [{ source, message: `no ticker for ${missing.join(', ')}` }] : [];
            return { tickers, errors };
          } catch (err) {
            const message = err instanceof Error ? err.message : String(err);
            return { tickers: [], errors: [{ source, message }] };
          }
        }),
      );
      const errors = results.flatMap((r) => r.errors);
      const snapshot: CcxtSnapshot = {
        source: config.id ?? 'ccxt',
        ts,
        tickers: results.flatMap((r) => r.tickers),
      };
      if (errors.length) snapshot.errors = errors;
      return snapshot;
    },
  };
}

export class CcxtConfigError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const VENUE_ID = /^[a-z0-9_]{1,64}$/;
const SYMBOL = /^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+(:[A-Za-z0-9._-]+)?$/;

function onlyKeys(o: Record<string, unknown>, allowed: readonly string[], where: string): void {
  const extra = Object.keys(o).filter((k) => !allowed.includes(k));
  if (extra.length)
    throw new CcxtConfigError(`${where}: unknown field "${extra[0]}" (allowed: ${allowed.join(', ')})`);
}

/** Checks a parsed config file; throws {@link CcxtConfigError} naming the first bad field. */
export function parseCcxtConfig(raw: unknown, where = 'ccxt config'): CcxtSourceConfig {
  const bad = (path: string, rule: string): never => {
    throw new CcxtConfigError(`${where}: ${path}: ${rule}`);
  };
  if (!isObject(raw)) return bad('(root)', 'must be an object {"venues": [...]}');
  onlyKeys(raw, ['id', 'venues'], where);
  const config: CcxtSourceConfig = { venues: [] };
  if (raw['id'] !== undefined) {
    if (typeof raw['id'] !== 'string' || !/^[a-z0-9._:-]{1,64}$/.test(raw['id']))
      bad('id', 'must be a lowercase id');
    config.id = raw['id'] as string;
  }
  const venues = raw['venues'];
  if (!Array.isArray(venues) || venues.length === 0) return bad('venues', 'must be a non-empty array');
  const seen = new Set<string>();
  venues.forEach((v: unknown, i) => {
    const at = `venues[${i}]`;
    if (!isObject(v)) return bad(at, 'must be an object');
    onlyKeys(v, ['id', 'kind', 'timeoutMs', 'url', 'symbols'], `${where}: ${at}`);
    const { id, kind, timeoutMs, url, symbols } = v;
    if (typeof id !== 'string' || !VENUE_ID.test(id))
      return bad(`${at}.id`, 'must be a ccxt exchange id such as "kraken"');
    if (seen.has(id)) bad(`${at}.id`, `duplicate venue "${id}"`);
    seen.add(id);
    const venue: CcxtVenueConfig = { id, symbols: {} };
    if (kind !== undefined)
      venue.kind = kind === 'cex' || kind === 'dex' ? kind : bad(`${at}.kind`, 'must be "cex" or "dex"');
    if (timeoutMs !== undefined) {
      const ok =
        typeof timeoutMs === 'number' && Number.isInteger(timeoutMs) && timeoutMs > 0 && timeoutMs <= 120_000;
      venue.timeoutMs = ok
        ? timeoutMs
        : bad(`${at}.timeoutMs`, 'must be an integer between 1 and 120000 (ms)');
    }
    if (url !== undefined) {
      venue.url =
        typeof url === 'string' && /^https?:\/\/[^\s]+$/.test(url)
          ? url.replace(/\/+$/, '')
          : bad(`${at}.url`, 'must be an http(s) URL such as "http://127.0.0.1:8080"');
    }
    if (!isObject(symbols) || Object.keys(symbols).length === 0) {
      return bad(`${at}.symbols`, 'must be a non-empty object {"LTC/USDT": "litecoin", ...}');
    }
    for (const [symbol, asset] of Object.entries(symbols)) {
      const sp = `${at}.symbols["${symbol}"]`;
      if (!SYMBOL.test(symbol)) bad(sp, 'key must be a ccxt unified symbol such as "LTC/USDT"');
      if (typeof asset !== 'string' || !ASSET_BY_ID.has(asset)) {
        bad(sp, `unknown asset id ${JSON.stringify(asset)} (see src/catalog/assets.ts)`);
      }
      venue.symbols[symbol] = asset as string;
    }
    config.venues.push(venue);
  });
  return config;
}

/** Reads and checks a ccxt config file (synchronously: it runs once at start-up). */
export function loadCcxtConfig(path: string): CcxtSourceConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CcxtConfigError(`${path}: cannot read (${(err as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CcxtConfigError(`${path}: not valid JSON (${(err as Error).message})`);
  }
  return parseCcxtConfig(raw, path);
}
