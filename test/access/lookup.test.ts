import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiKeyService } from '../../src/accounts/keys.ts';
import { LocalRevision, NoCacheRevision } from '../../src/access/revision.ts';
import type { KeyRevision } from '../../src/access/revision.ts';
import type { Db } from '../../src/store/db.ts';
import { openDb } from '../../src/store/open.ts';

const PEPPER = 'test-pepper-0123456789abcdef';
let db: Db;

beforeAll(async () => {
  db = await openDb({});
});
afterAll(async () => {
  await db.close();
});

/** The database, counting lookups by key hash. */
function counting(inner: Db): Db & { lookups: number } {
  const d = Object.create(inner) as Db & { lookups: number };
  d.lookups = 0;
  d.query = (sql, params) => {
    if (sql.includes('WHERE key_hash')) d.lookups++;
    return inner.query(sql, params);
  };
  return d;
}

/** Stands in for the Redis counter: one value shared by several services ("processes"). */
function sharedRevision(): { make: () => KeyRevision; fail: boolean } {
  let rev = 0;
  const state = {
    fail: false,
    make: (): KeyRevision => ({
      current: () => (state.fail ? Promise.reject(new Error('redis down')) : Promise.resolve(rev)),
      bump: () => {
        rev++;
        return Promise.resolve();
      },
    }),
  };
  return state;
}

describe('lookup', () => {
  it('finds a key by value whatever its state, and nothing for other values', async () => {
    const keys = new ApiKeyService(db, { pepper: PEPPER });
    const { key, record } = await keys.create({ plan: 'pro', description: 'lookup' });
    expect(await keys.lookup(key)).toEqual(record);
    expect(await keys.lookup(key.slice(0, -1) + (key.endsWith('z') ? 'y' : 'z'))).toBeNull();
    const other = new ApiKeyService(db, { pepper: 'another-pepper-0123456789' });
    expect(await other.lookup(key)).toBeNull(); // a different pepper hashes to a different value
  });

  it('does not touch the database for values that are not shaped like a key', async () => {
    const d = counting(db);
    const keys = new ApiKeyService(d, { pepper: PEPPER });
    expect(await keys.lookup('CG-notours')).toBeNull();
    expect(await keys.lookup('')).toBeNull();
    expect(d.lookups).toBe(0);
  });

  it('LocalRevision: cached between writes, and a revoked key is refused on the very next lookup', async () => {
    const d = counting(db);
    const keys = new ApiKeyService(d, { pepper: PEPPER, revision: new LocalRevision() });
    const { key, record } = await keys.create({ plan: 'free', description: 'cached', approve: true });
    expect((await keys.lookup(key))?.status).toBe('approved');
    expect((await keys.lookup(key))?.status).toBe('approved');
    expect(d.lookups).toBe(1);
    await keys.revoke(record.id);
    expect((await keys.lookup(key))?.status).toBe('revoked');
    expect(d.lookups).toBe(2);
  });

  it('a shared revision: a revocation by one process is seen by the other on its next lookup', async () => {
    const rev = sharedRevision();
    const d1 = counting(db);
    const d2 = counting(db);
    const one = new ApiKeyService(d1, { pepper: PEPPER, revision: rev.make() });
    const two = new ApiKeyService(d2, { pepper: PEPPER, revision: rev.make() });
    const { key, record } = await one.create({ plan: 'free', description: 'shared', approve: true });
    expect((await two.lookup(key))?.status).toBe('approved');
    expect((await two.lookup(key))?.status).toBe('approved');
    expect(d2.lookups).toBe(1);
    await one.revoke(record.id);
    expect((await two.lookup(key))?.status).toBe('revoked');
    expect(d2.lookups).toBe(2);
  });

  it('caches unknown keys too, until a write', async () => {
    const d = counting(db);
    const keys = new ApiKeyService(d, { pepper: PEPPER });
    const stranger = 'cw_live_' + '3'.repeat(44);
    expect(await keys.lookup(stranger)).toBeNull();
    expect(await keys.lookup(stranger)).toBeNull();
    expect(d.lookups).toBe(1);
  });

  it('a failing revision is a cache miss, never a failed lookup', async () => {
    const rev = sharedRevision();
    const d = counting(db);
    const keys = new ApiKeyService(d, { pepper: PEPPER, revision: rev.make() });
    const { key } = await keys.create({ plan: 'free', description: 'flaky', approve: true });
    rev.fail = true;
    expect((await keys.lookup(key))?.status).toBe('approved');
    expect((await keys.lookup(key))?.status).toBe('approved');
    expect(d.lookups).toBe(2);
  });

  it('a failed bump does not fail the write; the writer bypasses its cache until a retry lands', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let rev = 0;
      let bumpFails = false;
      const revision: KeyRevision = {
        current: () => Promise.resolve(rev),
        bump: () => (bumpFails ? Promise.reject(new Error('redis down')) : Promise.resolve(void rev++)),
      };
      const d = counting(db);
      const keys = new ApiKeyService(d, { pepper: PEPPER, revision });
      const { key, record } = await keys.create({ plan: 'free', description: 'bump fails', approve: true });
      await keys.lookup(key);
      bumpFails = true;
      expect((await keys.revoke(record.id)).status).toBe('revoked');
      expect(rev).toBe(1); // the bump did not land ...
      expect((await keys.lookup(key))?.status).toBe('revoked'); // ... yet this process is not fooled
      bumpFails = false;
      await vi.advanceTimersByTimeAsync(1_000);
      expect(rev).toBe(2); // retried until it landed
      const before = d.lookups;
      await keys.lookup(key);
      await keys.lookup(key);
      expect(d.lookups).toBe(before + 1); // caching again
    } finally {
      vi.useRealTimers();
    }
  });

  it('NoCacheRevision reads the database every time', async () => {
    const d = counting(db);
    const keys = new ApiKeyService(d, { pepper: PEPPER, revision: new NoCacheRevision() });
    const { key } = await keys.create({ plan: 'free', description: 'uncached', approve: true });
    for (let i = 0; i < 3; i++) expect(await keys.lookup(key)).not.toBeNull();
    expect(d.lookups).toBe(3);
  });

  it('re-reads an entry older than cacheMaxAgeMs even at the same revision', async () => {
    let now = 1_000_000;
    const d = counting(db);
    const keys = new ApiKeyService(d, { pepper: PEPPER, now: () => now, cacheMaxAgeMs: 30_000 });
    const { key } = await keys.create({ plan: 'free', description: 'aged', approve: true });
    await keys.lookup(key);
    now += 29_999;
    await keys.lookup(key);
    expect(d.lookups).toBe(1);
    now += 1;
    await keys.lookup(key);
    expect(d.lookups).toBe(2);
  });
});
