/**
 * A key lookup while the store does not answer (issue 32, item 2): 503 STORE_UNAVAILABLE, never an unknown key; a key
 * looked up before, with no key write since, is still served from memory. The outage is real: the store is closed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccess } from '../../src/access/access.ts';
import { KeyLookup } from '../../src/access/key-lookup.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import { ApiKeyService } from '../../src/accounts/keys.ts';
import { ApiError } from '../../src/core/errors.ts';
import type { Db } from '../../src/store/db.ts';
import { openDb } from '../../src/store/open.ts';

const PEPPER = 'test-pepper-0123456789abcdef';
let db: Db;
let seen: string;
let unseen: string;

beforeAll(async () => {
  db = await openDb({});
  const keys = new ApiKeyService(db, { pepper: PEPPER });
  for (const which of ['seen', 'unseen'] as const) {
    const { key, record } = await keys.create({ plan: 'pro', description: which });
    await keys.approve(record.id);
    if (which === 'seen') seen = key;
    else unseen = key;
  }
}, 60_000);

describe('key lookups without a store', () => {
  it('503 STORE_UNAVAILABLE for a key not in the cache; a cached one is served, even aged, until a key write', async () => {
    let now = 1_000_000;
    const lookup = new KeyLookup(db, { pepper: PEPPER, now: () => now, cacheMaxAgeMs: 60_000 });
    const access = createAccess({ keys: lookup, limiter: createMemoryLimiter() });
    const ask = (key: string) =>
      access.identify({ headers: { 'x-sp-api-key': key }, query: {}, socketIp: '' });
    expect((await lookup.lookup(seen))?.status).toBe('approved');

    await db.close(); // the store is gone from here on

    expect((await lookup.lookup(seen))?.status).toBe('approved');
    now += 120_000; // past the cache's age limit: read again, which fails, so the entry it has is served
    expect((await lookup.lookup(seen))?.status).toBe('approved');

    const refused = await lookup.lookup(unseen).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      status: 503,
      code: 'STORE_UNAVAILABLE',
      headers: { 'retry-after': '5' },
    });
    // Through the gate, as every transport asks: a refusal of its own, not a thrown error or API_KEY_UNKNOWN.
    expect(await ask(unseen)).toMatchObject({
      ok: false,
      status: 503,
      code: 'STORE_UNAVAILABLE',
      headers: { 'retry-after': '5' },
    });
    expect(await ask(seen)).toMatchObject({ plan: 'pro', key: { status: 'approved' } });

    // A key written since (here: any key write in this process) makes the cached answer unsafe to serve.
    await lookup.invalidate();
    expect(await ask(seen)).toMatchObject({ ok: false, status: 503, code: 'STORE_UNAVAILABLE' });
  });
});
