import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../src/store/db.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { ADMIN_TOKEN, auditOf, call, harness, signIn, signInAdmin, wallet } from './harness.ts';
import type { Harness } from './harness.ts';

/** The database, except that writing an audit row fails while `fail.on` (a full disk, a lost connection). */
function failingAudit(db: Db, fail: { on: boolean }): Db {
  const wrap = (q: Queryable): Queryable => ({
    query: <T>(sql: string, params?: readonly unknown[]) =>
      fail.on && sql.includes('INSERT INTO audit_log')
        ? Promise.reject(new Error('audit write failed'))
        : q.query<T>(sql, params),
  });
  return {
    kind: db.kind,
    query: wrap(db).query,
    exec: (sql) => db.exec(sql),
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    close: () => db.close(),
  };
}

const fail = { on: false };
let h: Harness;
let owner: string;
let ownerId: string;
let admin: { token: string; id: string };
beforeAll(async () => {
  h = await harness({ db: failingAudit(await openMemoryDb(), fail) });
  owner = await signIn(h, wallet('p2wpkh'));
  ownerId = (await call(h, 'GET', '/api/account/me', { token: owner })).body.id as string;
  admin = await signInAdmin(h);
});
afterAll(async () => {
  await h.close();
});

const create = (description = 'price widget') =>
  call(h, 'POST', '/api/account/api-keys', { token: owner, body: { description, plan: 'free' } });

describe('audit log', () => {
  it('records every key change with who, when, from, to and why', async () => {
    const t0 = h.clock.now;
    const id = (await create('my price widget')).body.id as string;
    h.clock.now += 1000;
    await call(h, 'POST', `/api/admin/api-keys/${id}/approve`, { token: admin.token });
    h.clock.now += 1000;
    await call(h, 'POST', `/api/account/api-keys/${id}/revoke`, { token: owner, body: { reason: 'leaked' } });
    const rejectedId = (await create('second')).body.id as string;
    await call(h, 'POST', `/api/admin/api-keys/${rejectedId}/reject`, {
      token: ADMIN_TOKEN,
      body: { reason: 'one key per dashboard' },
    });

    expect(await auditOf(h.db, id)).toEqual([
      {
        actor: `account:${ownerId}`,
        action: 'api_key.create',
        entity: 'api_key',
        entity_id: id,
        from_state: null,
        to_state: 'pending',
        reason: 'my price widget',
        at: t0,
      },
      {
        actor: `account:${admin.id}`,
        action: 'api_key.approve',
        entity: 'api_key',
        entity_id: id,
        from_state: 'pending',
        to_state: 'approved',
        reason: null,
        at: t0 + 1000,
      },
      {
        actor: `account:${ownerId}`,
        action: 'api_key.revoke',
        entity: 'api_key',
        entity_id: id,
        from_state: 'approved',
        to_state: 'revoked',
        reason: 'leaked',
        at: t0 + 2000,
      },
    ]);
    expect(await auditOf(h.db, rejectedId)).toMatchObject([
      { action: 'api_key.create' },
      {
        actor: 'operator',
        action: 'api_key.reject',
        from_state: 'pending',
        to_state: 'rejected',
        reason: 'one key per dashboard',
      },
    ]);
  });

  it('records operator-created keys and the limit an approval sets', async () => {
    const op = await call(h, 'POST', '/api/admin/api-keys', {
      token: ADMIN_TOKEN,
      body: { plan: 'enterprise', description: 'partner feed' },
    });
    const id = op.body.id as string;
    await call(h, 'POST', `/api/admin/api-keys/${id}/approve`, {
      token: ADMIN_TOKEN,
      body: { limitPerMinute: 8000 },
    });
    expect(await auditOf(h.db, id)).toMatchObject([
      { actor: 'operator', action: 'api_key.create', to_state: 'pending', reason: 'partner feed' },
      { actor: 'operator', action: 'api_key.approve', to_state: 'approved', reason: 'limitPerMinute 8000' },
    ]);
  });

  it('records account creation and role changes', async () => {
    const w = wallet('p2pkh');
    await signIn(h, w);
    const me = await call(h, 'GET', '/api/account/me', { token: await signIn(h, w) });
    const id = me.body.id as string;
    await call(h, 'POST', '/api/admin/admins', {
      token: admin.token,
      body: { address: w.address, reason: 'runs the review queue' },
    });
    await call(h, 'POST', '/api/admin/admins', { token: ADMIN_TOKEN, body: { address: w.address } }); // no change
    await call(h, 'POST', '/api/admin/admins/revoke', { token: ADMIN_TOKEN, body: { address: w.address } });
    expect(await auditOf(h.db, id)).toMatchObject([
      {
        actor: `account:${id}`,
        action: 'account.create',
        entity: 'account',
        from_state: null,
        to_state: 'user',
      },
      {
        actor: `account:${admin.id}`,
        action: 'account.grant_admin',
        from_state: 'user',
        to_state: 'admin',
        reason: 'runs the review queue',
      },
      {
        actor: 'operator',
        action: 'account.revoke_admin',
        from_state: 'admin',
        to_state: 'user',
        reason: null,
      },
    ]);
  });

  it('writes nothing when a change is refused', async () => {
    const id = (await create()).body.id as string;
    const before = await auditOf(h.db, id);
    expect((await call(h, 'POST', `/api/account/api-keys/${id}/revoke`, { token: owner })).status).toBe(409);
    const other = await signIn(h, wallet());
    expect((await call(h, 'POST', `/api/account/api-keys/${id}/revoke`, { token: other })).status).toBe(404);
    expect(
      (await call(h, 'POST', `/api/admin/api-keys/${id}/reject`, { token: admin.token, body: {} })).status,
    ).toBe(400);
    expect(await auditOf(h.db, id)).toEqual(before);
  });
});

describe('a change and its audit row are one transaction', () => {
  it('a failed audit write rolls the key change back', async () => {
    const id = (await create()).body.id as string;
    const before = await h.keys.get(id);
    fail.on = true;
    try {
      const r = await call(h, 'POST', `/api/admin/api-keys/${id}/approve`, { token: ADMIN_TOKEN });
      expect(r.status).toBe(500);
    } finally {
      fail.on = false;
    }
    expect(await h.keys.get(id)).toEqual(before);
    expect((await auditOf(h.db, id)).map((a) => a.action)).toEqual(['api_key.create']);
  });

  it('a failed audit write leaves no key behind', async () => {
    const count = async () =>
      Number((await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys')).rows[0]?.n);
    const n = await count();
    fail.on = true;
    try {
      expect((await create('never stored')).status).toBe(500);
    } finally {
      fail.on = false;
    }
    expect(await count()).toBe(n);
  });

  it('a failed audit write rolls a role change back', async () => {
    const w = wallet();
    const token = await signIn(h, w);
    fail.on = true;
    try {
      const r = await call(h, 'POST', '/api/admin/admins', {
        token: ADMIN_TOKEN,
        body: { address: w.address },
      });
      expect(r.status).toBe(500);
    } finally {
      fail.on = false;
    }
    expect((await call(h, 'GET', '/api/account/me', { token })).body).toMatchObject({ role: 'user' });
  });

  it('a failed audit write on a first sign-in leaves no account, session or used challenge', async () => {
    const w = wallet();
    const challenge = (await call(h, 'POST', '/api/auth/challenge', { body: { address: w.address } })).body
      .challenge as string;
    fail.on = true;
    try {
      const r = await call(h, 'POST', '/api/auth/session', {
        body: { address: w.address, signature: w.sign(challenge) },
      });
      expect(r.status).toBe(500);
    } finally {
      fail.on = false;
    }
    const accounts = await h.db.query('SELECT 1 FROM accounts WHERE address = $1', [w.address]);
    expect(accounts.rows).toHaveLength(0);
    // The challenge was not consumed: the same signature signs in now.
    const r = await call(h, 'POST', '/api/auth/session', {
      body: { address: w.address, signature: w.sign(challenge) },
    });
    expect(r.status).toBe(201);
  });
});
