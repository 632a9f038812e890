/** The per-process usage recorder: counts in memory, written every few seconds (`usage.ts`). */
import type { Logger } from '../core/log.ts';
import {
  countOf,
  KEY_INDEX,
  MinuteCounts,
  P_CLIENT,
  P_RATE_LIMITED,
  P_REQUESTS,
  P_SERVER,
  P_UNAUTHORIZED,
} from './usage-counts.ts';
import type { UsageBatch } from './usage-counts.ts';
import { pruneUsage, UsageReader, writeUsage } from './usage-store.ts';
import type { Queryable } from '../store/db.ts';
import { costBucket, minuteOf, OPERATION_RETENTION_MS, USAGE_RETENTION_MS } from './usage.ts';
import type { CallerPlan } from './plans.ts';
import type {
  DocumentRef,
  KeyOperationUsage,
  KeyOutcome,
  KeyUsageMinute,
  OperationOutcome,
  OperationRef,
  OperationTotals,
  ServiceStats,
  UsageReads,
  UsageSink,
} from './usage.ts';
import {
  countOperation,
  documentUsageMany,
  operationCountOf,
  operationsOfKeys,
  pruneOperationUsage,
  writeOperationUsage,
} from './usage-operations.ts';
import type { OperationBatch } from './usage-operations.ts';

export interface UsageRecorderOptions {
  /** Clock, UNIX ms; default `Date.now`. */
  now?: () => number;
  /** How long counts wait in memory before they are written; default 5,000 ms. */
  flushIntervalMs?: number;
  /** Rows older than this are deleted; default {@link USAGE_RETENTION_MS}. */
  retentionMs?: number;
  /** Usage per operation older than this is deleted; default {@link OPERATION_RETENTION_MS}. */
  operationRetentionMs?: number;
  /** How often a flush also deletes old rows; default every 10 minutes. */
  pruneIntervalMs?: number;
  /** Where failed writes are reported (at most once a minute); default nowhere. */
  log?: Pick<Logger, 'warn'>;
}

/**
 * One per process: counts in memory ({@link UsageSink}), writes every `flushIntervalMs` while there is something to
 * write (no timer when idle; the timer never keeps the process alive), and reads through the store
 * ({@link UsageReads}, after writing its own pending counts, so a process reads what it has recorded).
 */
export class UsageRecorder implements UsageSink, UsageReads {
  private pending = new Map<number, MinuteCounts>();
  /** Usage per operation since the last flush (per day, not per minute: written by the same flush). */
  private pendingOps: OperationBatch = new Map();
  /** The bucket of the minute recorded last: most calls find their minute here without a Map lookup. */
  private curMinute = Number.NaN;
  private cur: MinuteCounts | null = null;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> = Promise.resolve();
  private lastPrune = Number.NEGATIVE_INFINITY;
  private lastWarn = Number.NEGATIVE_INFINITY;
  private closed = false;
  private readonly now: () => number;
  private readonly flushIntervalMs: number;
  private readonly retentionMs: number;
  private readonly pruneIntervalMs: number;
  private readonly reader: UsageReader;
  /** Counts dropped because their write failed (for tests and diagnostics). */
  dropped = 0;

  constructor(
    private readonly db: Queryable,
    private readonly opts: UsageRecorderOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.flushIntervalMs = opts.flushIntervalMs ?? 5_000;
    this.retentionMs = opts.retentionMs ?? USAGE_RETENTION_MS;
    this.pruneIntervalMs = opts.pruneIntervalMs ?? 600_000;
    this.reader = new UsageReader(db);
  }

  private bucket(): MinuteCounts {
    const m = minuteOf(this.now());
    if (m === this.curMinute && this.cur) return this.cur;
    this.schedule();
    let b = this.pending.get(m);
    if (!b) {
      b = new MinuteCounts();
      this.pending.set(m, b);
    }
    this.curMinute = m;
    this.cur = b;
    return b;
  }

  private schedule(): void {
    if (this.timer === null && !this.closed) {
      this.timer = setTimeout(() => void this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  key(keyId: string, outcome: KeyOutcome): void {
    const keys = this.bucket().keys;
    let v = keys.get(keyId);
    if (!v) keys.set(keyId, (v = [0, 0, 0]));
    (v[KEY_INDEX[outcome]] as number)++;
  }

  request(plan: CallerPlan, status: number): void {
    const plans = this.bucket().plans;
    let v = plans.get(plan);
    if (!v) plans.set(plan, (v = [0, 0, 0, 0, 0]));
    (v[P_REQUESTS] as number)++;
    const i =
      status === 401
        ? P_UNAUTHORIZED
        : status === 429
          ? P_RATE_LIMITED
          : status >= 500
            ? P_SERVER
            : status >= 400
              ? P_CLIENT
              : -1;
    if (i >= 0) (v[i] as number)++;
  }

  cost(estimated: number): void {
    if (!Number.isFinite(estimated)) return;
    const b = this.bucket();
    (b.costs[costBucket(estimated)] as number)++;
    b.costed = true;
  }

  operation(keyId: string, op: OperationRef, outcome: OperationOutcome, cost: number): void {
    countOperation(this.pendingOps, this.now(), keyId, op, outcome, cost);
    this.schedule();
  }

  /**
   * Writes what is pending now (a flush already under way finishes first). Never rejects: a failed write is logged
   * and its counts dropped (counting them again later could count them twice if the write did land).
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    const ops = this.pendingOps;
    this.pending = new Map();
    this.pendingOps = new Map();
    this.cur = null;
    this.curMinute = Number.NaN;
    this.inFlight = this.inFlight.then(() => this.write(batch, ops)).catch(() => undefined);
    return this.inFlight;
  }

  private async write(batch: UsageBatch, ops: OperationBatch): Promise<void> {
    // Nothing recorded, nothing to do (a process that only reads, or the CLI, never writes nor prunes).
    if (batch.size === 0 && ops.size === 0) return;
    try {
      await writeUsage(this.db, batch);
    } catch (err) {
      this.dropped += countOf(batch);
      this.warn('usage statistics write failed: counts dropped', err);
    }
    try {
      await writeOperationUsage(this.db, ops);
    } catch (err) {
      this.dropped += operationCountOf(ops);
      this.warn('usage per operation write failed: counts dropped', err);
    }
    const now = this.now();
    if (now - this.lastPrune < this.pruneIntervalMs) return;
    this.lastPrune = now;
    try {
      await pruneUsage(this.db, minuteOf(now - this.retentionMs));
      await pruneOperationUsage(this.db, now - (this.opts.operationRetentionMs ?? OPERATION_RETENTION_MS));
    } catch (err) {
      this.warn('usage statistics retention failed', err);
    }
  }

  private warn(msg: string, err: unknown): void {
    const now = Date.now();
    if (now - this.lastWarn < 60_000) return;
    this.lastWarn = now;
    this.opts.log?.warn(msg, {
      error: err instanceof Error ? err.message : String(err),
      dropped: this.dropped,
    });
  }

  /** Writes what is pending and stops scheduling writes (counts recorded later wait for an explicit flush). */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  async keyUsageMany(keyIds: readonly string[], from: number, to: number): Promise<KeyUsageMinute[][]> {
    await this.flush();
    return this.reader.keyUsageMany(keyIds, from, to);
  }

  async keyUsage(keyId: string, from: number, to: number): Promise<KeyUsageMinute[]> {
    await this.flush();
    return this.reader.keyUsage(keyId, from, to);
  }

  /** Usage per operation of each key (as asked) from the UTC day holding `from`, after writing what is pending. */
  async operationsOfKeys(keyIds: readonly string[], from: number): Promise<KeyOperationUsage[][]> {
    await this.flush();
    return operationsOfKeys(this.db, keyIds, from);
  }

  /** Usage of each document of an app version from the UTC day holding `from`, after writing what is pending. */
  async documentUsageMany(refs: readonly DocumentRef[], from: number): Promise<OperationTotals[]> {
    await this.flush();
    return documentUsageMany(this.db, refs, from);
  }

  async serviceStats(from: number, to: number): Promise<ServiceStats> {
    await this.flush();
    return this.reader.serviceStats(from, to);
  }
}
