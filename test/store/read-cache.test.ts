import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { cachedRead, changed, withReadCache } from '../../src/store/read-cache.ts';
import { insertName, selectResolution, updatePrivacy, upsertAddress } from '../../src/names/name-repo.ts';

const T0 = Date.UTC(2026, 10, 21);
const ACCOUNT = '00000000-0000-4000-8000-0000000000aa';

describe('read cache on the embedded store (PGlite)', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openMemoryDb();
    await db.query('INSERT INTO accounts (id, address, role, created_at) VALUES ($1, $2, $3, $4)', [
      ACCOUNT,
      'ltc1qreadcache',
      'user',
      T0,
    ]);
    await insertName(db, {
      label: 'race',
      ownerAccountId: ACCOUNT,
      partnerId: null,
      partnerOwnerRef: null,
      private: false,
      createdAt: T0,
      updatedAt: T0,
    });
    await upsertAddress(db, 'race', 'LTC', 'ltc1qold', T0);
  });
  afterAll(async () => {
    await db.close();
  });

  it('a read issued while a writing transaction is open waits for it and sees the committed row', async () => {
    expect((await selectResolution(db, 'race', 'LTC'))?.link?.address).toBe('ltc1qold'); // cached now
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let during: Promise<unknown> | undefined;
    const tx = db.transaction(async (q) => {
      await upsertAddress(q, 'race', 'LTC', 'ltc1qnew', T0 + 1);
      // Written but not committed: a read now must not come from memory (old) nor be cached as old.
      during = selectResolution(db, 'race', 'LTC');
      await held;
    });
    await new Promise((r) => setTimeout(r, 20));
    release();
    await tx;
    expect(((await during) as { link: { address: string } }).link.address).toBe('ltc1qnew');
    expect((await selectResolution(db, 'race', 'LTC'))?.link?.address).toBe('ltc1qnew');
  });

  it('a rolled-back write costs a miss, never a wrong answer', async () => {
    await expect(
      db.transaction(async (q) => {
        await updatePrivacy(q, 'race', true, T0 + 2);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await selectResolution(db, 'race', 'LTC')).toMatchObject({ private: false });
  });

  it('reads inside a transaction are never cached (they may see its own writes)', async () => {
    await db.transaction(async (q) => {
      await upsertAddress(q, 'race', 'DOGE', 'DDogeInTx', T0 + 3);
      expect((await selectResolution(q, 'race', 'DOGE'))?.link?.address).toBe('DDogeInTx');
    });
    expect((await selectResolution(db, 'race', 'DOGE'))?.link?.address).toBe('DDogeInTx');
  });

  it('concurrent misses share one read; a failed read is not kept; a write in the domain invalidates', async () => {
    let reads = 0;
    const read = async () => {
      reads++;
      await new Promise((r) => setTimeout(r, 5));
      return { n: reads };
    };
    const all = await Promise.all([1, 2, 3].map(() => cachedRead(db, 'bridge_snapshots', 'k', read)));
    expect(all.map((v) => v.n)).toEqual([1, 1, 1]);
    expect(reads).toBe(1);
    changed(db, 'names'); // another domain: no effect
    expect((await cachedRead(db, 'bridge_snapshots', 'k', read)).n).toBe(1);
    changed(db, 'bridge_snapshots');
    expect((await cachedRead(db, 'bridge_snapshots', 'k', read)).n).toBe(2);

    await expect(
      cachedRead(db, 'bridge_snapshots', 'bad', () => Promise.reject(new Error('gone'))),
    ).rejects.toThrow('gone');
    expect(await cachedRead(db, 'bridge_snapshots', 'bad', async () => 'ok')).toBe('ok');
  });
});

describe('read cache on a PostgreSQL server', () => {
  it('reads every time (other processes write the same tables)', async () => {
    let reads = 0;
    // The cache logic only (the real server is covered by the store contract, test/store/postgres.e2e.ts).
    const fake = withReadCache({ kind: 'postgres' } as unknown as Db);
    for (let i = 0; i < 3; i++) await cachedRead(fake, 'names', 'k', async () => ++reads);
    expect(reads).toBe(3);
  });
});
