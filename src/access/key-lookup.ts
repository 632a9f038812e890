/**
 * The request gate's side of API keys: a presented key looked up by its hash (cached per revision, so a revocation
 * applies to the very next request) and its last use noted in batches. Issuing, reviewing and revoking keys is the
 * accounts domain's (`src/accounts/keys.ts`), which calls {@link KeyLookup.invalidate} after every change.
 */
import type { Db } from '../store/db.ts';
import { isStoreUnavailable, storeErrors } from '../core/store-outage.ts';
import * as repo from './key-repo.ts';
import type { ApiKeyRecord } from './key-repo.ts';
import { LastUsedBatcher } from './last-used.ts';
import { LookupCache } from './lookup-cache.ts';
import { LocalRevision } from './revision.ts';
import type { KeyRevision } from './revision.ts';
import { hashKey, isWellFormedKey, safeEqual } from './secrets.ts';

export interface KeyLookupOptions {
  /** Server-side secret keys are hashed with (see `resolvePepper`). */
  pepper: string;
  /** Invalidates the lookup cache on every key write; default {@link LocalRevision} (one process). */
  revision?: KeyRevision;
  /** Clock in ms; default `Date.now`. */
  now?: () => number;
  /** How often last-use times are written; default 10,000 ms. */
  touchIntervalMs?: number;
  /** Most lookups kept in the cache; default 10,000. */
  cacheSize?: number;
  /** Age after which a cached lookup is read again even at the same revision; default 60,000 ms. */
  cacheMaxAgeMs?: number;
}

export class KeyLookup {
  private readonly now: () => number;
  private readonly cache: LookupCache;
  private readonly lastUsed: LastUsedBatcher;

  constructor(
    private readonly db: Db,
    private readonly opts: KeyLookupOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.cache = new LookupCache(opts.revision ?? new LocalRevision(), {
      maxEntries: opts.cacheSize ?? 10_000,
      maxAgeMs: opts.cacheMaxAgeMs ?? 60_000,
      now: this.now,
    });
    this.lastUsed = new LastUsedBatcher(
      (uses) => repo.updateLastUsed(db, uses),
      opts.touchIntervalMs ?? 10_000,
    );
  }

  /**
   * The key with this value, or null when there is none (or it is not even shaped like one of ours). Whatever its
   * state: the caller decides what a pending, rejected or revoked key means. Never logs the value. Rejects with 503
   * `STORE_UNAVAILABLE` (an `ApiError`) when the store does not answer and the cache cannot (a key not seen
   * before): an outage is never an unknown key.
   */
  async lookup(rawKey: string): Promise<ApiKeyRecord | null> {
    if (!isWellFormedKey(rawKey)) return null;
    // Cached by the key as presented: a key seen before costs no HMAC (see LookupCache on why that is no weaker).
    try {
      return await this.cache.read(rawKey, () => this.load(rawKey));
    } catch (e) {
      throw isStoreUnavailable(e) ? storeErrors.unavailable() : e;
    }
  }

  private async load(rawKey: string): Promise<ApiKeyRecord | null> {
    const hash = hashKey(rawKey, this.opts.pepper);
    const k = await repo.selectByHash(this.db, hash);
    return k && safeEqual(k.keyHash, hash) ? Object.freeze(repo.publicRecord(k)) : null;
  }

  /** Notes that the key was used now; written in batches (see `touchIntervalMs`), never once per request. */
  touch(id: string): void {
    this.lastUsed.touch(id, this.now());
  }

  /** Writes pending last-use times now (call on shutdown). */
  flush(): Promise<void> {
    return this.lastUsed.flush();
  }

  /** After every committed key write: every process sees it from its next lookup on. Never throws. */
  invalidate(): Promise<void> {
    return this.cache.invalidate();
  }
}
