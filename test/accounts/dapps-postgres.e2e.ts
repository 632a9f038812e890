/**
 * The daily limit under real concurrency: on PGlite transactions run one at a time, so only a PostgreSQL server
 * (a pool of connections) shows that the account's row lock keeps concurrent submissions within the limit.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDb } from '../../src/store/open.ts';
import { as, auditRows, dappBody, dappFixture, get, OPERATOR, post } from './dapps-fixture.ts';
import type { Fixture } from './dapps-fixture.ts';

let f: Fixture;
beforeAll(async () => {
  const admin = await openDb({ databaseUrl: inject('databaseUrl') });
  const schema = `dapps_${Date.now().toString(36)}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.close();
  const url = new URL(inject('databaseUrl'));
  url.searchParams.set('options', `-c search_path=${schema}`);
  f = await dappFixture(await openDb({ databaseUrl: url.toString() }));
});
afterAll(async () => {
  await f?.close();
});

describe('dapp submissions on PostgreSQL', () => {
  it('lets exactly three of six concurrent submissions through, for each of several accounts at once', async () => {
    const accounts = await Promise.all([f.account(), f.account(), f.account()]);
    const rs = await Promise.all(
      accounts.flatMap((a) =>
        Array.from({ length: 6 }, (_, i) =>
          post(f.app, '/api/account/dapps', dappBody(`${a.id}-${i}`), as(a)),
        ),
      ),
    );
    expect(rs.filter((r) => r.statusCode === 201)).toHaveLength(9);
    expect(rs.filter((r) => r.statusCode === 429)).toHaveLength(9);
    for (const a of accounts) {
      expect((await get(f.app, '/api/account/dapps', as(a))).json()).toHaveLength(3);
    }
    expect((await auditRows(f.db)).filter((r) => r.action === 'dapp.submit')).toHaveLength(9);
  });

  it('reviews concurrently: one of two decisions wins, the other is a 409', async () => {
    const a = await f.account();
    const r = await post(f.app, '/api/account/dapps', dappBody('race'), as(a));
    const id = (r.json() as { id: string }).id;
    const both = await Promise.all([
      post(f.app, `/api/admin/dapps/${id}/approve`, {}, OPERATOR),
      post(f.app, `/api/admin/dapps/${id}/reject`, { notes: 'no' }, OPERATOR),
    ]);
    expect(both.map((x) => x.statusCode).sort()).toEqual([200, 409]);
    expect((await auditRows(f.db, id)).map((x) => x.action)).toHaveLength(2);
  });

  it('serves the review list, the store with its filters and the access check from the same SQL', async () => {
    const a = await f.account();
    const r = await post(f.app, '/api/account/dapps', dappBody('pg', { chains: ['SOL'] }), as(a));
    const id = (r.json() as { id: string }).id;
    const queue = (await get(f.app, '/api/admin/dapps?status=submitted&per_page=100', OPERATOR)).json() as {
      id: string;
    }[];
    expect(queue.map((d) => d.id)).toContain(id);
    expect((await post(f.app, `/api/admin/dapps/${id}/approve`, {}, OPERATOR)).statusCode).toBe(200);
    const sol = (await get(f.app, '/api/dapps?chain=sol')).json() as {
      total: number;
      dapps: { id: string }[];
    };
    expect(sol.dapps.map((d) => d.id)).toEqual([id]);
    const none = (await get(f.app, '/api/dapps?chain=CAT')).json() as { total: number };
    expect(none.total).toBe(0);
    const access = await get(
      f.app,
      `/api/dapps/access?origin=${encodeURIComponent('https://dapppg.example/x')}`,
    );
    expect(access.json()).toEqual({ origin: 'https://dapppg.example', allowed: true, dappId: id });
  });
});
