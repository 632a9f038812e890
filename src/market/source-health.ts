/**
 * Per-source health of the ingestion: when each source last answered, the newest data it delivered, its last error
 * and every failure counted by reason, for `/healthz`, the graph's `marketHealth` and `coinwallet sources check`.
 * Failures are logged at most once a minute per source (with the number kept quiet since), so a source that fails
 * every tick cannot flood the log.
 */
import type { Logger } from '../core/log.ts';
import type { PollOutcome, PreparedSnapshot } from '../ingest/pipeline.ts';
import type { SourceSupply, TickerSource } from '../ingest/types.ts';

export interface SourceHealth {
  /** The source's kind (`node`, `explorer`, `fx`, `ccxt`, …); null for a source only seen in ingested data. */
  kind: string | null;
  /** What it feeds (`tickers`, `supply`, `fx`, `mining`, `balances`, `token-supply`). */
  supplies: readonly SourceSupply[];
  /** When it was last polled, UNIX ms. */
  lastPollAt: number | null;
  /** When it last answered with a snapshot (the snapshot's time), UNIX ms. */
  lastSnapshotTs: number | null;
  /** Time of the newest record it delivered (a ticker's, a supply reading's, a rate's), UNIX ms. */
  dataAsOf: number | null;
  /** The last poll's error, null after a poll that answered whole. */
  lastError: string | null;
  /** Stable reason of `lastError` (`timeout`, `unreachable`, `not_json`, `rate_limited`, `partial`, …). */
  lastReason: string | null;
  /** Duration of the last poll. */
  lastMs: number | null;
  /** Failed polls (and failed parts of polls) since start, by reason. */
  failures: Record<string, number>;
}

/** A failure is logged at most this often per source. */
export const LOG_EVERY_MS = 60_000;

export class SourceHealthBook {
  readonly entries = new Map<string, SourceHealth>();
  private readonly lastLogged = new Map<string, { at: number; quiet: number }>();

  constructor(
    private readonly log: Pick<Logger, 'warn'>,
    sources: readonly TickerSource[] = [],
  ) {
    for (const s of sources) this.entry(s.id, s.kind, s.supplies ?? ['tickers']);
  }

  /** Records one poll's outcome: its error (whole or of some parts), or success and the newest record time. */
  record(o: PollOutcome, now: number): void {
    const h = this.entry(o.source);
    h.lastPollAt = now;
    h.lastMs = Math.round(o.ms);
    const parts = o.snapshot?.errors ?? [];
    if (o.error !== null) {
      h.lastError = o.error;
      h.lastReason = o.reason ?? 'failed';
    } else if (parts.length > 0) {
      h.lastError = parts.map((p) => `${p.source}: ${p.message}`).join('; ');
      h.lastReason = 'partial';
    } else {
      h.lastError = null;
      h.lastReason = null;
    }
    if (o.error !== null) this.fail(o.source, h, h.lastReason as string, o.error, now);
    for (const p of parts) this.fail(o.source, h, p.reason ?? 'partial', `${p.source}: ${p.message}`, now);
    if (o.snapshot) h.lastSnapshotTs = o.snapshot.ts;
  }

  /** Notes the newest time of the records a source delivered that passed validation. */
  delivered(source: string, p: Pick<PreparedSnapshot, 'tickers' | 'supply' | 'fx' | 'mining'>): void {
    const h = this.entry(source);
    for (const t of [
      ...p.tickers.map((r) => r.ts),
      ...p.supply.map((r) => r.ts),
      ...p.fx.map((r) => r.ts),
      ...p.mining.map((r) => r.observedAt),
    ]) {
      if (h.dataAsOf === null || t > h.dataAsOf) h.dataAsOf = t;
    }
  }

  private fail(source: string, h: SourceHealth, reason: string, message: string, now: number): void {
    h.failures[reason] = (h.failures[reason] ?? 0) + 1;
    const l = this.lastLogged.get(source);
    if (l && now - l.at < LOG_EVERY_MS) {
      l.quiet++;
      return;
    }
    this.log.warn('source failed', {
      source,
      reason,
      error: message,
      ...(l && l.quiet > 0 ? { suppressedSinceLastLog: l.quiet } : {}),
    });
    this.lastLogged.set(source, { at: now, quiet: 0 });
  }

  private entry(
    id: string,
    kind: string | null = null,
    supplies: readonly SourceSupply[] = [],
  ): SourceHealth {
    let h = this.entries.get(id);
    if (!h) {
      h = {
        kind,
        supplies,
        lastPollAt: null,
        lastSnapshotTs: null,
        dataAsOf: null,
        lastError: null,
        lastReason: null,
        lastMs: null,
        failures: {},
      };
      this.entries.set(id, h);
    }
    return h;
  }
}
