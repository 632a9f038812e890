import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, call, harness, signIn, signInAdmin, wallet } from './harness.ts';
import type { Harness } from './harness.ts';

let h: Harness;
let user: string;
let admin: string;
beforeAll(async () => {
  h = await harness();
  user = await signIn(h, wallet('p2wpkh'));
  admin = (await signInAdmin(h)).token;
});
afterAll(async () => {
  await h.close();
});

const ZERO = '00000000-0000-4000-8000-000000000000';
const someone = wallet('p2pkh').address;
/** Every admin endpoint with a valid body, and what an admitted caller gets. */
const ENDPOINTS: [method: 'GET' | 'POST', url: string, body: unknown, admitted: number][] = [
  ['GET', '/api/admin/api-keys?status=pending', undefined, 200],
  ['GET', `/api/admin/api-keys/${ZERO}`, undefined, 404],
  ['POST', '/api/admin/api-keys', { plan: 'free' }, 201],
  ['POST', `/api/admin/api-keys/${ZERO}/approve`, {}, 404],
  ['POST', `/api/admin/api-keys/${ZERO}/reject`, { reason: 'no' }, 404],
  ['POST', `/api/admin/api-keys/${ZERO}/revoke`, {}, 404],
  ['GET', '/api/admin/admins', undefined, 200],
  ['POST', '/api/admin/admins', { address: someone }, 200],
  ['POST', '/api/admin/admins/revoke', { address: someone }, 200],
];

describe('admin endpoints', () => {
  it.each(ENDPOINTS)('%s %s: 401 without a session, 403 for a non-admin', async (method, url, body) => {
    const anonymous = await call(h, method, url, { body });
    expect([anonymous.status, anonymous.code]).toEqual([401, 'AUTH_REQUIRED']);
    const wrongToken = await call(h, method, url, { body, token: 'cwa_not-the-operator-token' });
    expect(wrongToken.status).toBe(401);
    const nonAdmin = await call(h, method, url, { body, token: user });
    expect([nonAdmin.status, nonAdmin.code]).toEqual([403, 'FORBIDDEN']);
  });

  it.each(ENDPOINTS)(
    '%s %s: admitted with an admin session and with the operator token',
    async (method, url, body, admitted) => {
      for (const token of [admin, ADMIN_TOKEN]) {
        const r = await call(h, method, url, { body, token });
        expect(r.status).toBe(admitted);
      }
    },
  );

  it('an anonymous caller gets 401 before any body error', async () => {
    const r = await call(h, 'POST', '/api/admin/api-keys', { payload: '{not json' });
    expect(r.code).toBe('AUTH_REQUIRED');
  });

  it('without an operator token configured, only admin sessions work', async () => {
    const h2 = await harness({ adminToken: null });
    try {
      const r = await call(h2, 'GET', '/api/admin/admins', { token: ADMIN_TOKEN });
      expect(r.status).toBe(401);
    } finally {
      await h2.close();
    }
  });
});

describe('admin role', () => {
  it('is granted by the operator to an address that never signed in; it signs in as admin', async () => {
    const w = wallet('p2sh-p2wpkh');
    const g = await call(h, 'POST', '/api/admin/admins', {
      token: ADMIN_TOKEN,
      body: { address: w.address },
    });
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject({ address: w.address, role: 'admin', changed: true });
    const token = await signIn(h, w);
    expect((await call(h, 'GET', '/api/account/me', { token })).body).toMatchObject({
      id: g.body.id,
      role: 'admin',
    });
    expect((await call(h, 'GET', '/api/admin/api-keys', { token })).status).toBe(200);
    // Granting again changes nothing.
    const again = await call(h, 'POST', '/api/admin/admins', {
      token: ADMIN_TOKEN,
      body: { address: w.address },
    });
    expect(again.body).toMatchObject({ id: g.body.id, role: 'admin', changed: false });
  });

  it('is granted by an admin to a signed-in user, and applies to the very next request both ways', async () => {
    const w = wallet('p2pkh');
    const token = await signIn(h, w);
    expect((await call(h, 'GET', '/api/admin/admins', { token })).status).toBe(403);
    const g = await call(h, 'POST', '/api/admin/admins', { token: admin, body: { address: w.address } });
    expect(g.body).toMatchObject({ role: 'admin', changed: true });
    const list = await call(h, 'GET', '/api/admin/admins', { token });
    expect(list.status).toBe(200);
    expect((list.body as unknown as { address: string }[]).map((a) => a.address)).toContain(w.address);
    const r = await call(h, 'POST', '/api/admin/admins/revoke', {
      token: ADMIN_TOKEN,
      body: { address: w.address, reason: 'left the team' },
    });
    expect(r.body).toMatchObject({ role: 'user', changed: true });
    expect((await call(h, 'GET', '/api/admin/admins', { token })).status).toBe(403);
  });

  it('needs a valid LTC address; revoking an unknown account → 404', async () => {
    const bad = await call(h, 'POST', '/api/admin/admins', { token: ADMIN_TOKEN, body: { address: 'xyz' } });
    expect([bad.status, bad.code]).toEqual([400, 'INVALID_ADDRESS']);
    const missing = await call(h, 'POST', '/api/admin/admins/revoke', {
      token: ADMIN_TOKEN,
      body: { address: wallet().address },
    });
    expect([missing.status, missing.code]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
  });
});
