import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyStatus } from '../../src/access/key-repo.ts';
import { ADMIN_TOKEN, call, harness, signIn, signInAdmin, wallet } from './harness.ts';
import type { Harness } from './harness.ts';

let h: Harness;
let alice: string;
let bob: string;
let admin: string;
beforeAll(async () => {
  h = await harness();
  alice = await signIn(h, wallet('p2wpkh'));
  bob = await signIn(h, wallet('p2pkh'));
  admin = (await signInAdmin(h)).token;
});
afterAll(async () => {
  await h.close();
});

async function request(token: string, plan = 'free', description = 'my trading dashboard') {
  const r = await call(h, 'POST', '/api/account/api-keys', { token, body: { description, plan } });
  expect(r.status).toBe(201);
  return r.body as { id: string; key: string; status: KeyStatus; prefix: string };
}

/** A key of `token`'s account in the given state. */
async function keyIn(token: string, status: KeyStatus): Promise<string> {
  const { id } = await request(token);
  if (status === 'approved' || status === 'revoked')
    expect((await call(h, 'POST', `/api/admin/api-keys/${id}/approve`, { token: admin })).status).toBe(200);
  if (status === 'revoked')
    expect((await call(h, 'POST', `/api/account/api-keys/${id}/revoke`, { token })).status).toBe(200);
  if (status === 'rejected')
    expect(
      (await call(h, 'POST', `/api/admin/api-keys/${id}/reject`, { token: admin, body: { reason: 'why' } }))
        .status,
    ).toBe(200);
  return id;
}

describe('owner', () => {
  it('requests a key: 201 pending, the key shown once, never listed again', async () => {
    const created = await request(alice, 'pro');
    expect(created).toMatchObject({ status: 'pending', plan: 'pro', limitPerMinute: 3000 });
    expect(created.key).toMatch(/^cw_live_/);
    expect(created.prefix).toBe(created.key.slice(0, 12));
    expect(created).not.toHaveProperty('ownerId');
    // Pending keys do nothing yet.
    expect((await h.keys.lookup(created.key))?.status).toBe('pending');

    const list = await call(h, 'GET', '/api/account/api-keys', { token: alice });
    expect(list.status).toBe(200);
    const mine = (list.body as unknown as Record<string, unknown>[]).find((k) => k.id === created.id);
    expect(mine).toMatchObject({
      id: created.id,
      prefix: created.prefix,
      plan: 'pro',
      status: 'pending',
      rejectionReason: null,
      createdAt: h.clock.now,
      reviewedAt: null,
      lastUsedAt: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(created.key);
    expect(JSON.stringify(list.body)).not.toMatch(/hash/i);
    const one = await call(h, 'GET', `/api/account/api-keys/${created.id}`, { token: alice });
    expect(one.body).toEqual(mine);
  });

  it('lists only its own keys', async () => {
    const a = await request(alice);
    const b = await request(bob);
    const ids = (t: string) =>
      call(h, 'GET', '/api/account/api-keys', { token: t }).then((r) =>
        (r.body as unknown as { id: string }[]).map((k) => k.id),
      );
    expect(await ids(alice)).toContain(a.id);
    expect(await ids(alice)).not.toContain(b.id);
    expect(await ids(bob)).toEqual([b.id]);
  });

  it('revokes an approved key: the next lookup sees it revoked', async () => {
    const { id, key } = await request(alice);
    await call(h, 'POST', `/api/admin/api-keys/${id}/approve`, { token: admin });
    expect((await h.keys.lookup(key))?.status).toBe('approved');
    const r = await call(h, 'POST', `/api/account/api-keys/${id}/revoke`, { token: alice });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id, status: 'revoked', revokedAt: h.clock.now });
    expect((await h.keys.lookup(key))?.status).toBe('revoked');
  });

  it.each(['pending', 'rejected', 'revoked'] as const)(
    'revoking a %s key → 409 naming the state',
    async (s) => {
      const id = await keyIn(alice, s);
      const r = await call(h, 'POST', `/api/account/api-keys/${id}/revoke`, { token: alice });
      expect([r.status, r.code]).toEqual([409, 'KEY_STATE_CONFLICT']);
      expect((r.body.error as { message: string }).message).toContain(`is ${s}`);
    },
  );

  it("another account's key → 404 for GET and revoke, like a key that does not exist", async () => {
    const id = await keyIn(alice, 'approved');
    for (const [method, url] of [
      ['GET', `/api/account/api-keys/${id}`],
      ['POST', `/api/account/api-keys/${id}/revoke`],
    ] as const) {
      const theirs = await call(h, method, url, { token: bob });
      const missing = await call(h, method, url.replace(id, '00000000-0000-4000-8000-000000000000'), {
        token: bob,
      });
      expect([theirs.status, theirs.code]).toEqual([404, 'KEY_NOT_FOUND']);
      expect([missing.status, missing.code]).toEqual([404, 'KEY_NOT_FOUND']);
    }
    // Operator keys (no owner) are nobody's either.
    const op = await call(h, 'POST', '/api/admin/api-keys', {
      token: ADMIN_TOKEN,
      body: { plan: 'free', approve: true },
    });
    expect(
      (await call(h, 'POST', `/api/account/api-keys/${op.body.id as string}/revoke`, { token: bob })).status,
    ).toBe(404);
    expect((await call(h, 'GET', `/api/account/api-keys/${id}`, { token: alice })).body).toMatchObject({
      status: 'approved',
    });
  });

  it('every account endpoint needs a session: 401 without one', async () => {
    const id = await keyIn(alice, 'approved');
    for (const [method, url] of [
      ['GET', '/api/account/me'],
      ['GET', '/api/account/api-keys'],
      ['POST', '/api/account/api-keys'],
      ['GET', `/api/account/api-keys/${id}`],
      ['POST', `/api/account/api-keys/${id}/revoke`],
    ] as const) {
      expect((await call(h, method, url)).code).toBe('AUTH_REQUIRED');
      expect((await call(h, method, url, { token: ADMIN_TOKEN })).code).toBe('INVALID_SESSION');
    }
  });
});

describe('review', () => {
  it('lists the queue by status', async () => {
    const { id } = await request(bob);
    const r = await call(h, 'GET', '/api/admin/api-keys?status=pending', { token: admin });
    expect(r.status).toBe(200);
    const list = r.body as unknown as { id: string; status: string }[];
    expect(list.map((k) => k.id)).toContain(id);
    expect(list.every((k) => k.status === 'pending')).toBe(true);
    expect((await call(h, 'GET', '/api/admin/api-keys?status=gone', { token: admin })).status).toBe(400);
  });

  it('approves, with an enterprise limit up to 10,000', async () => {
    const { id } = await request(alice, 'enterprise');
    const over = await call(h, 'POST', `/api/admin/api-keys/${id}/approve`, {
      token: admin,
      body: { limitPerMinute: 10_001 },
    });
    expect([over.status, over.code]).toEqual([400, 'INVALID_BODY']);
    const r = await call(h, 'POST', `/api/admin/api-keys/${id}/approve`, {
      token: admin,
      body: { limitPerMinute: 7500 },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'approved', limitPerMinute: 7500, reviewedAt: h.clock.now });
    const { id: free } = await request(alice, 'free');
    const notEnterprise = await call(h, 'POST', `/api/admin/api-keys/${free}/approve`, {
      token: admin,
      body: { limitPerMinute: 7500 },
    });
    expect([notEnterprise.status, notEnterprise.code]).toEqual([400, 'INVALID_LIMIT']);
  });

  it('rejects with a reason (required) that the owner sees', async () => {
    const { id } = await request(bob);
    for (const body of [undefined, {}, { reason: '   ' }, { reason: 42 }]) {
      const r = await call(h, 'POST', `/api/admin/api-keys/${id}/reject`, { token: admin, body });
      expect([r.status, r.code]).toEqual([400, 'INVALID_BODY']);
    }
    const r = await call(h, 'POST', `/api/admin/api-keys/${id}/reject`, {
      token: admin,
      body: { reason: 'Tell us what the dashboard is for' },
    });
    expect(r.body).toMatchObject({ status: 'rejected' });
    const mine = await call(h, 'GET', `/api/account/api-keys/${id}`, { token: bob });
    expect(mine.body).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Tell us what the dashboard is for',
      reviewedAt: h.clock.now,
    });
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
  it.each(forbidden)('admin %s on a %s key → 409 with the state, nothing changed', async (action, from) => {
    const id = await keyIn(alice, from);
    const before = await h.keys.get(id);
    const r = await call(h, 'POST', `/api/admin/api-keys/${id}/${action}`, {
      token: admin,
      body: action === 'reject' ? { reason: 'no' } : {},
    });
    expect([r.status, r.code]).toEqual([409, 'KEY_STATE_CONFLICT']);
    expect((r.body.error as { message: string }).message).toContain(`is ${from}`);
    expect(await h.keys.get(id)).toEqual(before);
  });

  it('unknown ids → 404', async () => {
    for (const action of ['approve', 'reject', 'revoke']) {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
        const r = await call(h, 'POST', `/api/admin/api-keys/${id}/${action}`, {
          token: admin,
          body: action === 'reject' ? { reason: 'no' } : {},
        });
        expect([r.status, r.code]).toEqual([404, 'KEY_NOT_FOUND']);
      }
    }
  });
});

describe('operator (the CLI)', () => {
  it('creates keys for no owner (approved or pending), lists, approves, rejects and revokes them', async () => {
    const auth = { token: ADMIN_TOKEN };
    const created = await call(h, 'POST', '/api/admin/api-keys', {
      ...auth,
      body: { plan: 'enterprise', description: 'partner', approve: true, limitPerMinute: 9000 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'approved', ownerId: null, limitPerMinute: 9000 });
    expect(created.body.key).toMatch(/^cw_live_/);
    const id = created.body.id as string;
    expect((await call(h, 'GET', '/api/admin/api-keys', auth)).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ id })]),
    );
    expect(
      (await call(h, 'POST', `/api/admin/api-keys/${id}/revoke`, { ...auth, body: {} })).body,
    ).toMatchObject({
      status: 'revoked',
    });
    const pending = await call(h, 'POST', '/api/admin/api-keys', { ...auth, body: { plan: 'free' } });
    expect(pending.body).toMatchObject({ status: 'pending', description: 'created by the operator' });
    const rejected = await call(h, 'POST', `/api/admin/api-keys/${pending.body.id as string}/reject`, {
      ...auth,
      body: { reason: 'duplicate' },
    });
    expect(rejected.body).toMatchObject({ status: 'rejected', rejectionReason: 'duplicate' });
  });
});
