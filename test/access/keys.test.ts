import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyService } from '../../src/accounts/keys.ts';
import type { KeyStatus } from '../../src/access/key-repo.ts';
import { ApiError } from '../../src/core/errors.ts';
import type { Db } from '../../src/store/db.ts';
import { openDb } from '../../src/store/open.ts';

const PEPPER = 'test-pepper-0123456789abcdef';
let db: Db;
let keys: ApiKeyService;
let clock = 1_700_000_000_000;

beforeAll(async () => {
  db = await openDb({});
  keys = new ApiKeyService(db, { pepper: PEPPER, now: () => clock });
});
afterAll(async () => {
  await db.close();
});

/** A key in the given state. */
async function keyIn(status: KeyStatus): Promise<string> {
  const { record } = await keys.create({
    plan: 'free',
    description: `a ${status} key`,
    approve: status !== 'pending',
  });
  if (status === 'rejected') {
    const { record: p } = await keys.create({ plan: 'free', description: 'to reject' });
    await keys.reject(p.id, 'no use case given');
    return p.id;
  }
  if (status === 'revoked') await keys.revoke(record.id);
  return record.id;
}

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('create', () => {
  it('returns the key once and a record without it', async () => {
    const { key, record } = await keys.create({
      plan: 'pro',
      description: '  trading bot  ',
      ownerId: 'acct-1',
    });
    expect(key).toMatch(/^cw_live_/);
    expect(record).toMatchObject({
      prefix: key.slice(0, 12),
      plan: 'pro',
      limitPerMinute: 3000,
      status: 'pending',
      ownerId: 'acct-1',
      description: 'trading bot',
      rejectionReason: null,
      createdAt: clock,
      reviewedAt: null,
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(record)).not.toContain(key);
    expect(JSON.stringify(record)).not.toMatch(/[0-9a-f]{64}/); // no hash either
  });

  it('stores only the hash', async () => {
    const { key } = await keys.create({ plan: 'free', description: 'hash only' });
    const rows = await db.query<Record<string, unknown>>('SELECT * FROM api_keys');
    expect(JSON.stringify(rows.rows)).not.toContain(key);
  });

  it('creates approved keys for operators and enterprise keys with their limit', async () => {
    const { record } = await keys.create({
      plan: 'enterprise',
      description: 'partner',
      limitPerMinute: 8000,
      approve: true,
    });
    expect(record).toMatchObject({ status: 'approved', limitPerMinute: 8000, reviewedAt: clock });
  });

  it('validates its input', async () => {
    expect(await rejection(keys.create({ plan: 'free', description: '' }))).toMatchObject({
      status: 400,
      code: 'INVALID_DESCRIPTION',
    });
    expect(await rejection(keys.create({ plan: 'free', description: 'x'.repeat(501) }))).toMatchObject({
      code: 'INVALID_DESCRIPTION',
    });
    expect(await rejection(keys.create({ plan: 'gold' as 'free', description: 'd' }))).toMatchObject({
      code: 'INVALID_PLAN',
    });
    expect(
      await rejection(keys.create({ plan: 'free', description: 'd', limitPerMinute: 5000 })),
    ).toMatchObject({
      code: 'INVALID_LIMIT',
    });
    expect(
      await rejection(keys.create({ plan: 'enterprise', description: 'd', limitPerMinute: 10_001 })),
    ).toMatchObject({ code: 'INVALID_LIMIT' });
  });
});

describe('state machine', () => {
  it('pending → approved, keeping or replacing the limit', async () => {
    const id = await keyIn('pending');
    clock += 1000;
    expect(await keys.approve(id)).toMatchObject({
      status: 'approved',
      reviewedAt: clock,
      limitPerMinute: 600,
    });
    const { record } = await keys.create({ plan: 'enterprise', description: 'e', limitPerMinute: 2000 });
    expect(await keys.approve(record.id)).toMatchObject({ limitPerMinute: 2000 });
    const { record: r2 } = await keys.create({ plan: 'enterprise', description: 'e2' });
    expect(await keys.approve(r2.id, { limitPerMinute: 9000 })).toMatchObject({ limitPerMinute: 9000 });
  });

  it('approve with an invalid limit changes nothing', async () => {
    const id = await keyIn('pending');
    expect(await rejection(keys.approve(id, { limitPerMinute: 20_000 }))).toMatchObject({
      code: 'INVALID_LIMIT',
    });
    expect((await keys.get(id)).status).toBe('pending');
  });

  it('pending → rejected with its reason', async () => {
    const id = await keyIn('pending');
    expect(await keys.reject(id, ' no use case ')).toMatchObject({
      status: 'rejected',
      rejectionReason: 'no use case',
    });
  });

  it('reject needs a reason', async () => {
    const id = await keyIn('pending');
    expect(await rejection(keys.reject(id, '   '))).toMatchObject({ status: 400, code: 'INVALID_REASON' });
    expect((await keys.get(id)).status).toBe('pending');
  });

  it('approved → revoked', async () => {
    const id = await keyIn('approved');
    clock += 1000;
    expect(await keys.revoke(id)).toMatchObject({ status: 'revoked', revokedAt: clock });
  });

  const forbidden: [action: 'approve' | 'reject' | 'revoke', from: KeyStatus][] = [
    ['approve', 'approved'],
    ['approve', 'rejected'],
    ['approve', 'revoked'],
    ['reject', 'approved'],
    ['reject', 'rejected'],
    ['reject', 'revoked'],
    ['revoke', 'pending'],
    ['revoke', 'rejected'],
    ['revoke', 'revoked'],
  ];
  it.each(forbidden)('%s on a %s key → 409 naming the state', async (action, from) => {
    const id = await keyIn(from);
    const before = await keys.get(id);
    const p = action === 'reject' ? keys.reject(id, 'why') : keys[action](id);
    const err = await rejection(p);
    expect(err).toMatchObject({ status: 409, code: 'KEY_STATE_CONFLICT' });
    expect(err.message).toContain(`is ${from}`);
    expect(await keys.get(id)).toEqual(before);
  });

  it.each(['approve', 'reject', 'revoke', 'get'] as const)('%s on an unknown id → 404', async (action) => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const p = action === 'reject' ? keys.reject(id, 'why') : keys[action](id);
      expect(await rejection(p)).toMatchObject({ status: 404, code: 'KEY_NOT_FOUND' });
    }
  });
});

describe('list', () => {
  it('filters by owner and status, newest first', async () => {
    clock += 1000;
    const a = await keys.create({ plan: 'free', description: 'a', ownerId: 'owner-list' });
    clock += 1000;
    const b = await keys.create({ plan: 'pro', description: 'b', ownerId: 'owner-list', approve: true });
    expect((await keys.list({ ownerId: 'owner-list' })).map((r) => r.id)).toEqual([b.record.id, a.record.id]);
    expect((await keys.list({ ownerId: 'owner-list', status: 'approved' })).map((r) => r.id)).toEqual([
      b.record.id,
    ]);
    expect((await keys.list({ status: 'pending' })).every((r) => r.status === 'pending')).toBe(true);
  });
});

describe('touch', () => {
  it('writes last-use times in one batch per interval', async () => {
    const svc = new ApiKeyService(db, { pepper: PEPPER, now: () => clock, touchIntervalMs: 60_000 });
    const { record } = await svc.create({ plan: 'free', description: 'touched', approve: true });
    clock += 5000;
    for (let i = 0; i < 100; i++) svc.touch(record.id);
    expect((await svc.get(record.id)).lastUsedAt).toBeNull(); // nothing written per request
    await svc.flush();
    expect((await svc.get(record.id)).lastUsedAt).toBe(clock);
  });
});
