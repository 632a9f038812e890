import { LRUCache } from 'lru-cache';
import type { ApiKeyRecord } from './key-repo.ts';
import type { KeyRevision } from './revision.ts';
import { isStoreUnavailable } from '../core/store-outage.ts';

interface Entry {
  rev: number;
  at: number;
  record: ApiKeyRecord | null;
}

export interface LookupCacheOptions {
  /** Most entries kept; the least recently used go first. */
  maxEntries: number;
  /** Age after which an entry is read again even at the same revision (backstop for a bump that never landed). */
  maxAgeMs: number;
  now: () => number;
  /** Pause between retries of a failed bump; default 1,000 ms. */
  retryMs?: number;
}

/**
 * Key as presented → lookup result (a record, or null for an unknown key), each tagged with the revision it was read
 * at and served only while the revision is unchanged. Keyed by the key itself, so that a key seen before costs no
 * HMAC (7 % of a keyed price request): this process's memory holds recent keys for as long as they stay in the cache,
 * which exposes nothing new — whoever can read this memory reads the pepper and every key of every request too; the
 * store still holds hashes only, and nothing here is written or logged. Failures of the revision store are misses: a failed `current()` reads
 * the database; a failed `bump()` is retried in the background while this process bypasses its own cache, and
 * `maxAgeMs` bounds how long another process could still serve the old entry. While the store does not answer, an
 * entry past `maxAgeMs` at the current revision is served rather than failing the request (no key was written since,
 * or the revision would have moved); a key never seen, or seen before a write, still fails.
 */
export class LookupCache {
  private readonly entries: LRUCache<string, Entry>;
  private bumpPending = false;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly revision: KeyRevision,
    private readonly opts: LookupCacheOptions,
  ) {
    this.entries = new LRUCache({ max: opts.maxEntries });
  }

  /** The cached result for `key`, or `load()`'s, cached at the revision read before it. */
  async read(key: string, load: () => Promise<ApiKeyRecord | null>): Promise<ApiKeyRecord | null> {
    if (this.revision.noCache || this.bumpPending) return load();
    // Read before the database: a write committed after this point bumps past `rev`, so the entry stored below
    // can never outlive it.
    const rev = await this.revision.current().catch(() => null);
    if (rev === null) return load();
    const at = this.opts.now();
    const e = this.entries.get(key);
    if (e && e.rev === rev && at - e.at < this.opts.maxAgeMs) return e.record;
    let record: ApiKeyRecord | null;
    try {
      record = await load();
    } catch (err) {
      // Only aged (no key write since it was read): while the store is down it is still the newest answer there is.
      if (e && e.rev === rev && isStoreUnavailable(err)) return e.record;
      throw err;
    }
    this.entries.set(key, { rev, at, record });
    return record;
  }

  /** Call after every committed key write. Never throws: a failed bump is retried until it lands. */
  async invalidate(): Promise<void> {
    this.entries.clear();
    try {
      await this.revision.bump();
    } catch {
      this.bumpPending = true;
      this.scheduleRetry();
    }
  }

  /** True while a bump has not reached the revision store. */
  get stale(): boolean {
    return this.bumpPending;
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.revision.bump().then(
        () => {
          this.bumpPending = false;
          this.entries.clear();
        },
        () => this.scheduleRetry(),
      );
    }, this.opts.retryMs ?? 1_000);
    this.retryTimer.unref();
  }
}
