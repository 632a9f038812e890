/**
 * Re-signs the proof of reserves on a schedule: every `everyMs` (default 10 minutes) the report is built from live
 * chain data, signed and stored, and `/api/proof-of-reserves` and the graph serve it from then on. A read that
 * fails stores nothing: the last report stays and ages into `stale` by its figures' time. Failures are counted by
 * reason and logged at most once a minute.
 */
import type { Logger } from '../core/log.ts';
import type { Db } from '../store/db.ts';
import type { AttestationKey } from './attestation.ts';
import type { ChainDataAdapter } from './chain-data.ts';
import type { Deployment } from './model.ts';
import { takeSnapshot } from './snapshots.ts';
import type { StoredSnapshot } from './snapshots.ts';

export interface AttesterHealth {
  /** `live` or `recorded`: where the figures come from. */
  source: 'live' | 'recorded';
  everyMs: number;
  lastAttemptAt: number | null;
  /** When the last report was signed and stored, and its id. */
  lastSnapshotAt: number | null;
  lastSnapshotId: number | null;
  /** The last attempt's error; null after a success. */
  lastError: string | null;
  /** Failed attempts since start. */
  failures: number;
}

export interface ReserveAttesterOptions {
  db: Db;
  deployment: Deployment;
  chain: ChainDataAdapter;
  key: AttestationKey;
  /** Default 600,000 ms. */
  everyMs?: number;
  log: Pick<Logger, 'warn'>;
  now?: () => number;
}

const LOG_EVERY_MS = 60_000;

export class ReserveAttester {
  readonly health: AttesterHealth;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<StoredSnapshot | null> | null = null;
  private lastLog = -Infinity;
  private readonly now: () => number;

  constructor(private readonly opts: ReserveAttesterOptions) {
    this.now = opts.now ?? Date.now;
    this.health = {
      source: opts.chain.source,
      everyMs: opts.everyMs ?? 600_000,
      lastAttemptAt: null,
      lastSnapshotAt: null,
      lastSnapshotId: null,
      lastError: null,
      failures: 0,
    };
  }

  /** One attempt (never two at once): the stored snapshot, or null when the read or the signing failed. */
  attest(): Promise<StoredSnapshot | null> {
    this.running ??= this.attempt().finally(() => (this.running = null));
    return this.running;
  }

  private async attempt(): Promise<StoredSnapshot | null> {
    const t = this.now();
    this.health.lastAttemptAt = t;
    try {
      const snap = await takeSnapshot(this.opts.db, this.opts.deployment, this.opts.chain, this.opts.key, t);
      this.health.lastSnapshotAt = t;
      this.health.lastSnapshotId = snap.id;
      this.health.lastError = null;
      return snap;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.health.lastError = message;
      this.health.failures++;
      if (t - this.lastLog >= LOG_EVERY_MS) {
        this.lastLog = t;
        this.opts.log.warn('proof of reserves not signed', {
          network: this.opts.deployment.network,
          error: message,
        });
      }
      return null;
    }
  }

  /** Attests now and then every `everyMs`. */
  start(): void {
    if (this.timer) return;
    void this.attest();
    this.timer = setInterval(() => void this.attest(), this.health.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
