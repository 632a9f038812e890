/**
 * What the live FX feeds (ECB, open.er-api.com) share: their config entry, the poll schedule (at most one fetch per
 * `everyMs`, later when the feed says when it next changes), the rate-limit back-off, and the catalog filter.
 * Each feed only parses its answer (`ecb.ts`, `er-api.ts`).
 */
import { BackoffGate, failureOf, preview, redact, SourceError } from '../http.ts';
import type { HttpResponse } from '../http.ts';
import type { FxRate, SourceSnapshot, TickerSource } from '../types.ts';
import { FX_CURRENCIES } from '../validate.ts';

/** One FX feed of the config. */
export interface FxSourceConfig {
  /** Source id, e.g. `ecb` or `open-er-api`; goes into every `FxRate.source`. */
  id: string;
  /** The feed's URL, e.g. `https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml`. */
  url: string;
  /** Budget of one poll (its HTTP request), ms; default per feed (`ECB_DEFAULTS`, `ER_API_DEFAULTS`). */
  timeoutMs: number;
  /** Fetch at most this often, ms; polls in between return a snapshot with no records. Default per feed. */
  everyMs: number;
  /** How long one of this source's rates may be used, ms (read by the engine, from its `ts`). Default per feed. */
  maxAgeMs: number;
}

/** Defaults of a feed's optional config fields. */
export interface FxDefaults {
  everyMs: number;
  maxAgeMs: number;
  timeoutMs: number;
}

export type FxReject = NonNullable<SourceSnapshot['rejects']>[number];

/** What a feed reads from one 2xx answer; it throws a `SourceError` when the answer cannot be used at all. */
export interface FxRead {
  fx: FxRate[];
  rejects: FxReject[];
  /** No fetch before this time (UNIX ms), when the feed says when its data next changes. */
  notBefore?: number;
}

export interface FxFeed {
  /** `Accept` header of the request. */
  accept: string;
  /** Least pause after a rate-limit answer, ms, even when `Retry-After` says less; default none. */
  rateLimitPauseMs?: number;
  read(res: HttpResponse, where: string, source: string): FxRead;
}

/** The catalog code of a feed's currency code (`JPY` → `jpy`); null for USD itself and codes we do not serve. */
export function catalogCode(code: string): string | null {
  const c = code.toLowerCase();
  return c !== 'usd' && FX_CURRENCIES.has(c) ? c : null;
}

export function createFxSource(cfg: FxSourceConfig, feed: FxFeed, now: () => number): TickerSource {
  const where = redact(cfg.url);
  const gate = new BackoffGate(cfg.id, now);
  let dueAt = -Infinity;
  let holdUntil = -Infinity;

  return {
    id: cfg.id,
    kind: 'fx',
    supplies: ['fx'],
    timeoutMs: cfg.timeoutMs,

    async poll(signal): Promise<SourceSnapshot> {
      const t = now();
      if (t < dueAt) return { source: cfg.id, ts: t, tickers: [] };
      if (t < holdUntil)
        throw new SourceError(
          'backing_off',
          `${cfg.id}: rate limited, no request before ${new Date(holdUntil).toISOString()}`,
        );
      let res: HttpResponse;
      try {
        res = await gate.request({
          url: cfg.url,
          headers: { accept: feed.accept },
          timeoutMs: cfg.timeoutMs,
          signal,
        });
      } catch (err) {
        // The feed's own pause after a rate-limit answer (open.er-api blocks an IP for 20 minutes).
        if (failureOf(err) === 'rate_limited' && feed.rateLimitPauseMs !== undefined)
          holdUntil = now() + feed.rateLimitPauseMs;
        throw err;
      }
      if (res.status < 200 || res.status > 299)
        throw new SourceError(
          'http_error',
          `${where}: HTTP ${res.status}, expected 200: ${preview(res.text)}`,
        );
      const read = feed.read(res, where, cfg.id);
      // Only a usable answer moves the schedule: a failed fetch is tried again on the next poll.
      dueAt = Math.max(t + cfg.everyMs, read.notBefore ?? -Infinity);
      const snapshot: SourceSnapshot = { source: cfg.id, ts: t, tickers: [], fx: read.fx };
      if (read.rejects.length > 0) snapshot.rejects = read.rejects;
      return snapshot;
    },
  };
}
