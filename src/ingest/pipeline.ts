import { createHash } from 'node:crypto';
import type { FxRate, SourceSnapshot, SupplyRecord, Ticker, TickerSource } from './types.ts';
import { validateFx, validateSupply, validateTicker } from './validate.ts';

/** A snapshot after validation: only well-formed records, with a digest that identifies its content. */
export interface PreparedSnapshot {
  source: string;
  ts: number;
  digest: string;
  tickers: Ticker[];
  supply: SupplyRecord[];
  fx: FxRate[];
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
  const tickers: Ticker[] = [];
  const supply: SupplyRecord[] = [];
  const fx: FxRate[] = [];
  let rejected = 0;
  for (const t of Array.isArray(raw.tickers) ? raw.tickers : []) {
    const r = validateTicker(t, knownAssets, now);
    if (r.ok) tickers.push(r.value);
    else {
      reject(r.reason, t);
      rejected++;
    }
  }
  for (const s of Array.isArray(raw.supply) ? raw.supply : []) {
    const r = validateSupply(s, knownAssets, now);
    if (r.ok) supply.push(r.value);
    else {
      reject(r.reason, s);
      rejected++;
    }
  }
  for (const f of Array.isArray(raw.fx) ? raw.fx : []) {
    const r = validateFx(f, now);
    if (r.ok) fx.push(r.value);
    else {
      reject(r.reason, f);
      rejected++;
    }
  }
  const digest = createHash('sha256')
    .update(JSON.stringify([raw.source, raw.ts, tickers, supply, fx]))
    .digest('base64url')
    .slice(0, 22);
  return { source: raw.source, ts: raw.ts, digest, tickers, supply, fx, rejected };
}

/** Outcome of polling one source. */
export interface PollOutcome {
  source: string;
  snapshot: SourceSnapshot | null;
  error: string | null;
  ms: number;
}

/**
 * Polls every source in parallel, each cut off after `timeoutMs`: a source that fails or hangs yields an error and
 * no snapshot, and never delays the others beyond the timeout.
 */
export async function pollAll(sources: readonly TickerSource[], timeoutMs: number): Promise<PollOutcome[]> {
  return Promise.all(
    sources.map(async (src) => {
      const t0 = performance.now();
      const ac = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          ac.abort();
          reject(new Error(`timed out after ${timeoutMs} ms`));
        }, timeoutMs);
      });
      try {
        const snapshot = await Promise.race([src.poll(ac.signal), timeout]);
        return { source: src.id, snapshot, error: null, ms: performance.now() - t0 };
      } catch (err) {
        return {
          source: src.id,
          snapshot: null,
          error: err instanceof Error ? err.message : String(err),
          ms: performance.now() - t0,
        };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}
