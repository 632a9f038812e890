import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../src/accounts/types.ts';
import {
  as,
  auditRows,
  code,
  dappBody,
  dappFixture,
  get,
  HOUR,
  message,
  OPERATOR,
  post,
  submitted,
  T0,
} from './dapps-fixture.ts';
import type { Fixture, Headers } from './dapps-fixture.ts';

let f: Fixture;
let admin: Account;
let owner: Account;
beforeAll(async () => {
  f = await dappFixture();
  admin = await f.account('admin');
  owner = await f.account();
});
afterAll(async () => {
  await f.close();
});

/** A fresh submitted dapp (a new owner each time, so the daily limit never interferes). */
async function fresh(n: string | number, over: Record<string, unknown> = {}): Promise<string> {
  return submitted(f, await f.account(), dappBody(n, over));
}

const review = (id: string, action: string, body: unknown, headers: Headers = as(admin)) =>
  post(f.app, `/api/admin/dapps/${id}/${action}`, body, headers);

describe('admin review', () => {
  it('approves with notes: status, reviewer and time on the record, an audit row in the same change', async () => {
    f.clock.now = T0;
    const id = await fresh('a1');
    f.clock.now = T0 + HOUR;
    const r = await review(id, 'approve', { notes: 'looks good' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      id,
      status: 'approved',
      reviewNotes: 'looks good',
      reviewedBy: `account:${admin.id}`,
      reviewedAt: T0 + HOUR,
    });
    expect(
      (await auditRows(f.db, id)).map((a) => [a.action, a.actor, a.from_state, a.to_state, a.reason, a.at]),
    ).toEqual([
      ['dapp.submit', expect.stringMatching(/^account:/), null, 'submitted', null, T0],
      ['dapp.approve', `account:${admin.id}`, 'submitted', 'approved', 'looks good', T0 + HOUR],
    ]);
  });

  it('approves without notes (no body at all) and records the operator as the reviewer', async () => {
    const id = await fresh('a2');
    const r = await review(id, 'approve', undefined, OPERATOR);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ status: 'approved', reviewNotes: null, reviewedBy: 'operator' });
    expect((await auditRows(f.db, id)).at(-1)).toMatchObject({
      actor: 'operator',
      action: 'dapp.approve',
      reason: null,
    });
  });

  it('rejects only with notes, which the submitter then sees', async () => {
    const a = await f.account();
    const id = await submitted(f, a, dappBody('r1'));
    for (const body of [undefined, {}, { notes: '' }, { notes: '  ' }, { notes: 5 }]) {
      const r = await review(id, 'reject', body);
      expect([r.statusCode, code(r)]).toEqual([400, 'INVALID_NOTES']);
      expect(message(r)).toMatch(/^notes /);
    }
    expect((await review(id, 'reject', { notes: 'x', why: 'y' })).json()).toMatchObject({
      error: { code: 'UNKNOWN_FIELD' },
    });
    expect(await auditRows(f.db, id)).toHaveLength(1);
    const r = await review(id, 'reject', { notes: 'icon is broken' });
    expect(r.json()).toMatchObject({ status: 'rejected', reviewNotes: 'icon is broken' });
    const [mine] = (await get(f.app, '/api/account/dapps', as(a))).json() as Record<string, unknown>[];
    expect(mine).toMatchObject({ id, status: 'rejected', reviewNotes: 'icon is broken' });
    expect(mine).not.toHaveProperty('reviewedBy');
    expect((await auditRows(f.db, id)).at(-1)).toMatchObject({
      action: 'dapp.reject',
      from_state: 'submitted',
      to_state: 'rejected',
      reason: 'icon is broken',
    });
  });

  it('answers 409 with the current state to any other transition, and writes nothing', async () => {
    const approved = await fresh('s1');
    await review(approved, 'approve', {});
    const rejected = await fresh('s2');
    await review(rejected, 'reject', { notes: 'no' });
    const delisted = await fresh('s3');
    await review(delisted, 'approve', {});
    expect((await review(delisted, 'delist', { notes: 'phishing' })).json()).toMatchObject({
      status: 'delisted',
    });
    const submittedId = await fresh('s4');
    const cases: [string, string, string][] = [
      [approved, 'approve', 'approved'],
      [approved, 'reject', 'approved'],
      [rejected, 'approve', 'rejected'],
      [rejected, 'reject', 'rejected'],
      [rejected, 'delist', 'rejected'],
      [delisted, 'approve', 'delisted'],
      [delisted, 'delist', 'delisted'],
      [submittedId, 'delist', 'submitted'],
    ];
    const before = (await auditRows(f.db)).length;
    for (const [id, action, current] of cases) {
      const r = await review(id, action, { notes: 'again' });
      expect([r.statusCode, code(r)]).toEqual([409, 'DAPP_STATE_CONFLICT']);
      expect(message(r)).toContain(`is ${current}`);
    }
    expect(await auditRows(f.db)).toHaveLength(before);
  });

  it('answers 404 to an unknown id, 401/403 to non-admins', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', "1' OR '1'='1"]) {
      const r = await review(encodeURIComponent(id), 'approve', {});
      expect([r.statusCode, code(r)]).toEqual([404, 'DAPP_NOT_FOUND']);
    }
    const id = await fresh('n1');
    expect((await review(id, 'approve', {}, as(owner))).statusCode).toBe(403);
    expect((await review(id, 'approve', {}, {})).statusCode).toBe(401);
    expect((await get(f.app, '/api/admin/dapps', as(owner))).statusCode).toBe(403);
  });

  it('lists requests by state, oldest first', async () => {
    const r = await get(f.app, '/api/admin/dapps?status=submitted', OPERATOR);
    const list = r.json() as { status: string; createdAt: number; contactEmail: string }[];
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((d) => d.status === 'submitted')).toBe(true);
    expect(list.map((d) => d.createdAt)).toEqual([...list.map((d) => d.createdAt)].sort((a, b) => a - b));
    expect(list[0]).toHaveProperty('contactEmail');
    const all = (await get(f.app, '/api/admin/dapps', OPERATOR)).json() as unknown[];
    expect(all.length).toBeGreaterThan(list.length);
    const bad = await get(f.app, '/api/admin/dapps?status=pending', OPERATOR);
    expect([bad.statusCode, code(bad)]).toEqual([400, 'INVALID_PARAMETER']);
    expect(message(bad)).toMatch(/^status /);
  });
});
