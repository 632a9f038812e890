/**
 * On-chain (DEX) prices from recorded pool states. Each line of the recording (`.jsonl` or `.jsonl.gz`) is one
 * moment: `{"ts": 1718000000000, "pools": [{"dex": "dogeswap", "pair": "pepecoin/dogecoin", "reserveBase": 1e9,
 * "reserveQuote": 2.5e6, "volumeBase24h": 4.2e7}]}`. Each pool becomes one ticker priced at the pool's spot
 * price, `reserveQuote / reserveBase` (constant-product pools), with no bid or ask.
 */
import { QUOTE_ASSETS } from '../catalog/currencies.ts';
import { openLineReader, type LineErrorHandler } from './replay.ts';
import type { SourceSnapshot, Ticker, TickerSource } from './types.ts';

/** Asset id → its quote code (`dogecoin` → `doge`), so pools quoted in an asset get the code the engine prices. */
const QUOTE_CODE_BY_ASSET = new Map<string, string>();
for (const [code, target] of QUOTE_ASSETS) {
  if (target.scale === 1 && !QUOTE_CODE_BY_ASSET.has(target.id)) QUOTE_CODE_BY_ASSET.set(target.id, code);
}

/** A pair's quote side as a ticker quote: an asset id with a quote code becomes the code; anything else is kept. */
export function dexQuoteCode(quote: string): string {
  return QUOTE_ASSETS.has(quote) ? quote : (QUOTE_CODE_BY_ASSET.get(quote) ?? quote);
}

/** One recorded pool. `pair` is `<base asset id>/<quote asset id or quote code>`. */
export interface RecordedPool {
  dex: string;
  pair: string;
  reserveBase: number;
  reserveQuote: number;
  volumeBase24h: number;
}

/**
 * Turns one pool into a ticker, or a reason when the pool cannot be read (not an object, no `dex`, no `base/quote`
 * pair). Numbers are not judged here: a zero reserve or negative volume reaches the validator, which rejects it.
 */
export function poolToTicker(
  pool: unknown,
  ts: number,
): { ok: true; ticker: Partial<Ticker> } | { ok: false; reason: string } {
  if (typeof pool !== 'object' || pool === null) return { ok: false, reason: 'pool: must be an object' };
  const p = pool as Partial<Record<keyof RecordedPool, unknown>>;
  if (typeof p.dex !== 'string' || p.dex === '') return { ok: false, reason: 'pool.dex: must be a string' };
  const [base, quote, ...rest] = typeof p.pair === 'string' ? p.pair.split('/') : [];
  if (!base || !quote || rest.length) return { ok: false, reason: 'pool.pair: must be "<base>/<quote>"' };
  const ticker: Partial<Ticker> = {
    venue: p.dex,
    venueKind: 'dex',
    base,
    quote: dexQuoteCode(quote),
    bid: null,
    ask: null,
    ts,
  };
  if (typeof p.reserveBase === 'number' && typeof p.reserveQuote === 'number') {
    ticker.last = p.reserveQuote / p.reserveBase;
  }
  if (typeof p.volumeBase24h === 'number') ticker.baseVolume = p.volumeBase24h;
  return { ok: true, ticker };
}

export interface RecordedDexSourceOptions {
  /** Recording of pool states: `.jsonl` or `.jsonl.gz`. */
  path: string;
  /** Source id; default `dex:recorded`. */
  id?: string;
  /** Told about every skipped line or pool (`pools[2]: pool.pair: ...`). Default: none. */
  onError?: LineErrorHandler;
}

/** Replays recorded pool states: each `poll` returns the next line's pools as tickers, `null` at end of file. */
export function createRecordedDexSource(opts: RecordedDexSourceOptions): TickerSource {
  const reader = openLineReader(opts.path);
  const id = opts.id ?? 'dex:recorded';
  const report = (lineNo: number, reason: string): void => opts.onError?.(lineNo, reason);
  return {
    id,
    kind: 'dex',
    async poll(signal): Promise<SourceSnapshot | null> {
      signal.throwIfAborted();
      for (let line = await reader.next(); line; line = await reader.next()) {
        let v: unknown;
        try {
          v = JSON.parse(line.text);
        } catch {
          report(line.lineNo, 'not valid JSON');
          continue;
        }
        const o = (typeof v === 'object' && v !== null ? v : {}) as { ts?: unknown; pools?: unknown };
        if (typeof o.ts !== 'number' || !Number.isFinite(o.ts)) {
          report(line.lineNo, 'ts: must be a number');
          continue;
        }
        if (!Array.isArray(o.pools)) {
          report(line.lineNo, 'pools: must be an array');
          continue;
        }
        const tickers: Partial<Ticker>[] = [];
        for (const [i, pool] of o.pools.entries()) {
          const r = poolToTicker(pool, o.ts);
          if (r.ok) tickers.push(r.ticker);
          else report(line.lineNo, `pools[${i}]: ${r.reason}`);
        }
        return { source: id, ts: o.ts, tickers };
      }
      return null;
    },
    close: () => reader.close(),
  };
}
