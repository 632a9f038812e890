/**
 * In-memory copies of reads of rarely written rows (the latest proof-of-reserves snapshot, name resolutions), exact
 * on the embedded store and off on a PostgreSQL server.
 *
 * Why exact: PGlite is one connection in this process, and it runs a query only when no transaction is open (its
 * transaction mutex), so every write to the store goes through this process's repository functions. Each of them
 * calls {@link changed} for its domain once the statement has run, which drops every cached read of the domain —
 * reads still in flight too, so a read that ran before the write is never served after it. A read issued after a
 * write's {@link changed} misses and queues behind the write's transaction, so it sees the committed row. (A
 * rolled-back write only costs a miss.)
 *
 * On PostgreSQL several processes write the same tables, so nothing is cached: {@link cachedRead} reads every time.
 * Reads inside a transaction are never cached (they may see the transaction's own writes).
 */
import { LRUCache } from 'lru-cache';
import type { Db, Queryable } from './db.ts';

/** Where a store keeps its cached reads: on the `Db` and on each of its transactions (set by the implementations). */
const STATE = Symbol('coinwallet.store.readCache');
/** Marks a transaction's `Queryable`. */
const IN_TRANSACTION = Symbol('coinwallet.store.inTransaction');

/** Cached reads are domains of related tables: writing any of them invalidates every read of the domain. */
export type CacheDomain = 'names' | 'bridge_snapshots';

/** A domain's cached reads: key → the read's promise (in flight or settled). */
type Domain = LRUCache<string, Promise<unknown>>;

type State = Map<CacheDomain, Domain>;
type WithState = Queryable & { [STATE]?: State; [IN_TRANSACTION]?: true };

/** Lookups answered from memory (`hit`) or read (`miss`) since start, per domain, in this process (metrics). */
const lookups: Record<CacheDomain, { hit: number; miss: number }> = {
  names: { hit: 0, miss: 0 },
  bridge_snapshots: { hit: 0, miss: 0 },
};

/** The read cache's hits and misses since start, per domain (where it applies: the embedded store). */
export function readCacheLookups(): Readonly<Record<CacheDomain, { hit: number; miss: number }>> {
  return lookups;
}

/** Distinct keys kept per domain and store; when full the least recently used go first. */
const MAX_ENTRIES = 10_000;

/** Gives a new store its (empty) read cache; the store implementations call it once. */
export function withReadCache<D extends Db>(db: D): D {
  Object.defineProperty(db, STATE, { value: new Map(), enumerable: true });
  return db;
}

/** Marks `tx` as a transaction of `db`: writes made through it invalidate `db`'s cached reads, reads are not cached. */
export function transactionOf<Q extends Queryable>(db: Db, tx: Q): Q {
  Object.defineProperty(tx, STATE, { value: (db as WithState)[STATE], enumerable: true });
  Object.defineProperty(tx, IN_TRANSACTION, { value: true, enumerable: true });
  return tx;
}

function domainOf(state: State, name: CacheDomain): Domain {
  let d = state.get(name);
  if (!d) {
    d = new LRUCache({ max: MAX_ENTRIES });
    state.set(name, d);
  }
  return d;
}

/** Records that rows of `domain` were written through `q` (the store or one of its transactions). */
export function changed(q: Queryable, domain: CacheDomain): void {
  (q as WithState)[STATE]?.get(domain)?.clear();
}

/**
 * `read()`'s result for `key` in `domain`: from memory when nothing in the domain was written since it was read
 * (embedded store only), else read now. Concurrent misses of one key share one read. Callers must not mutate the
 * value: it is shared.
 */
export function cachedRead<T>(
  q: Queryable,
  domain: CacheDomain,
  key: string,
  read: () => Promise<T>,
): Promise<T> {
  const state = (q as WithState)[STATE];
  if (!state || (q as Partial<Db>).kind !== 'pglite' || (q as WithState)[IN_TRANSACTION]) return read();
  const d = domainOf(state, domain);
  const hit = d.get(key);
  if (hit) {
    lookups[domain].hit++;
    return hit as Promise<T>;
  }
  lookups[domain].miss++;
  const value = read();
  d.set(key, value);
  value.catch(() => {
    if (d.get(key) === value) d.delete(key);
  });
  return value;
}
