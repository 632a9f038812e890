import { TimeoutError, withTimeout } from '../core/timeout.ts';
import { snapshotDigest } from './digest.ts';
import { failureOf } from './http.ts';
import type { FxRate, MiningRecord, SourceSnapshot, SupplyRecord, Ticker, TickerSource } from './types.ts';
import { validateFx, validateMining, validateSupply, validateTicker, validTicker } from './validate.ts';
import type { Validation } from './validate.ts';

/** A snapshot after validation: only well-formed records, with a digest that identifies its content (`digest.ts`). */
export interface PreparedSnapshot {
  source: string;
  ts: number;
  digest: string;
  tickers: Ticker[];
  supply: SupplyRecord[];
  fx: FxRate[];
  mining: MiningRecord[];
  rejected: number;
}

/**
 * Validates every record of a snapshot. A malformed record is dropped and counted with its reason; it never reaches
 * an aggregate. A snapshot that is not even an object is rejected whole (returns null).
 */
export function prepareSnapshot(
  raw: SourceSnapshot,
  knownAssets: ReadonlySet<string>,
  reject: (reason: string, record: unknown) => void,
  now: number,
): PreparedSnapshot | null {
  if (typeof raw !== 'object' || raw === null || typeof raw.source !== 'string' || !Number.isFinite(raw.ts)) {
    reject('snapshot: must be an object with a string source and a numeric ts', raw);
    return null;
  }
  let rejected = 0;
  const keep = <T>(records: unknown, check: (x: unknown) => Validation<T>): T[] => {
    const out: T[] = [];
    for (const x of Array.isArray(records) ? records : []) {
      const r = check(x);
      if (r.ok) out.push(r.value);
      else {
        reject(r.reason, x);
        rejected++;
      }
    }
    return out;
  };
  const tickers: Ticker[] = [];
  for (const x of Array.isArray(raw.tickers) ? raw.tickers : []) {
    // The valid ticker without a reason built; the reason only for one that is not.
    const t = validTicker(x, knownAssets, now);
    if (t) tickers.push(t);
    else {
      const r = validateTicker(x, knownAssets, now);
      if (r.ok) tickers.push(r.value);
      else {
        reject(r.reason, x);
        rejected++;
      }
    }
  }
  const supply = keep(raw.supply, (x) => validateSupply(x, knownAssets, now));
  const fx = keep(raw.fx, (x) => validateFx(x, now));
  const mining = keep(raw.mining, (x) => validateMining(x, knownAssets, now));
  // What the adapter could not read itself is counted the same way.
  for (const r of Array.isArray(raw.rejects) ? raw.rejects : []) {
    reject(r.reason, r.record);
    rejected++;
  }
  const digest = snapshotDigest({ source: raw.source, ts: raw.ts, tickers, supply, fx, mining });
  return { source: raw.source, ts: raw.ts, digest, tickers, supply, fx, mining, rejected };
}

/** Outcome of polling one source. */
export interface PollOutcome {
  source: string;
  snapshot: SourceSnapshot | null;
  error: string | null;
  /** Stable reason of `error` (`timeout`, `unreachable`, `not_json`…); null without an error. */
  reason?: string | null;
  ms: number;
}

/**
 * Polls every source in parallel, each cut off after its own `timeoutMs` (the source's, else `timeoutMs`): a source
 * that fails or hangs yields an error and no snapshot, and never delays the others beyond its timeout.
 */
export async function pollAll(
  sources: readonly TickerSource[],
  defaultTimeoutMs: number,
): Promise<PollOutcome[]> {
  return Promise.all(
    sources.map(async (src) => {
      const timeoutMs = src.timeoutMs ?? defaultTimeoutMs;
      const t0 = performance.now();
      try {
        const snapshot = await withTimeout((signal) => src.poll(signal), timeoutMs);
        return { source: src.id, snapshot, error: null, ms: performance.now() - t0 };
      } catch (err) {
        return {
          source: src.id,
          snapshot: null,
          error: err instanceof Error ? err.message : String(err),
          reason: err instanceof TimeoutError ? 'timeout' : failureOf(err),
          ms: performance.now() - t0,
        };
      }
    }),
  );
}
