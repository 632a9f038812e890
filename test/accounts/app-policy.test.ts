/**
 * The per-key policy cache (src/accounts/app-policy.ts) on its own, over a store double: reused within its time to
 * live, read again after it or after `forget`; a store that does not answer is 503 STORE_UNAVAILABLE (never
 * remembered) rather than a server error when nothing was read yet, and the policy last read otherwise.
 */
import { describe, expect, it } from 'vitest';
import { StoredAppPolicies } from '../../src/accounts/app-policy.ts';
import { ApiError } from '../../src/core/errors.ts';
import type { Queryable } from '../../src/store/db.ts';
import { StoreUnavailableError } from '../../src/store/unavailable.ts';

const KEY = '7d3c1f0e-1b2a-4c5d-8e9f-0a1b2c3d4e5f';

function store(): Queryable & { reads: number; down: boolean } {
  const s = {
    reads: 0,
    down: false,
    async query<T>(sql: string): Promise<{ rows: T[] }> {
      if (s.down) throw new StoreUnavailableError('connection refused');
      if (sql.includes('FROM app_keys')) {
        s.reads++;
        return {
          rows: [
            { id: 'a', name: 'dapp', origins: ['https://dapp.example'], documents: 'trusted-only' },
          ] as T[],
        };
      }
      return { rows: [{ hash: 'ab', body: '{ __typename }' }] as T[] };
    },
  };
  return s;
}

describe('StoredAppPolicies', () => {
  it('reuses a policy for its time to live, reads again after it and after forget', async () => {
    const clock = { now: 0 };
    const s = store();
    const p = new StoredAppPolicies(s, { now: () => clock.now, ttlMs: 5_000 });
    const first = await p.forKey(KEY);
    expect(first).toMatchObject({ app: 'dapp', documents: 'trusted-only' });
    expect([...(first?.bodies ?? [])]).toEqual(['{ __typename }']);
    clock.now = 4_999;
    await p.forKey(KEY);
    expect(s.reads).toBe(1);
    clock.now = 5_000;
    await p.forKey(KEY);
    expect(s.reads).toBe(2);
    p.forget();
    await p.forKey(KEY);
    expect(s.reads).toBe(3);
    expect(await p.forKey('not-a-uuid')).toBeNull();
  });

  it('a store that does not answer: 503 STORE_UNAVAILABLE, not remembered', async () => {
    const s = store();
    const p = new StoredAppPolicies(s);
    s.down = true;
    const err = await p.forKey(KEY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 503, code: 'STORE_UNAVAILABLE' });
    s.down = false;
    expect(await p.forKey(KEY)).toMatchObject({ app: 'dapp' });
  });

  it('a store that stops answering after a read: the policy last read stands (a trusted-only key stays trusted-only)', async () => {
    const clock = { now: 0 };
    const s = store();
    const p = new StoredAppPolicies(s, { now: () => clock.now, ttlMs: 5_000 });
    expect(await p.forKey(KEY)).toMatchObject({ documents: 'trusted-only' });
    s.down = true;
    clock.now = 6_000;
    expect(await p.forKey(KEY)).toMatchObject({ app: 'dapp', documents: 'trusted-only' });
    clock.now = 20_000;
    expect(await p.forKey(KEY)).toMatchObject({ documents: 'trusted-only' });
    s.down = false;
    clock.now = 30_000;
    await p.forKey(KEY);
    expect(s.reads).toBe(2);
  });
});
