import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../src/accounts/types.ts';
import {
  as,
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
import type { Fixture } from './dapps-fixture.ts';

let f: Fixture;
const ids: Record<string, string> = {};
const owners: Record<string, Account> = {};

/** Eight dapps: five approved (one hour apart), one submitted, one rejected, one approved then delisted. */
beforeAll(async () => {
  f = await dappFixture();
  const approve = (id: string) => post(f.app, `/api/admin/dapps/${id}/approve`, {}, OPERATOR);
  let owner: Account = await f.account();
  const add = async (key: string, over: Record<string, unknown>) => {
    if (Object.keys(ids).length % 3 === 0) owner = await f.account(); // stay within the daily limit
    ids[key] = await submitted(f, owner, dappBody(key, over));
    owners[key] = owner;
  };
  const chains = [['LTC'], ['SOL'], ['LTC', 'SOL'], ['DOGE'], ['LTC']];
  for (let i = 0; i < 5; i++) {
    await add(`ok${i}`, { chains: chains[i] });
    f.clock.now = T0 + i * HOUR;
    await approve(ids[`ok${i}`] as string);
  }
  f.clock.now = T0 + 5 * HOUR;
  await add('port', { site: 'https://port.example:8443/app/', chains: ['SOL'] });
  await approve(ids.port as string);
  await add('pending', { site: 'https://pending.example/' });
  await add('rejected', { site: 'https://rejected.example/' });
  await post(f.app, `/api/admin/dapps/${ids.rejected}/reject`, { notes: 'no' }, OPERATOR);
  f.clock.now = T0 + 6 * HOUR;
  await add('gone', { site: 'https://gone.example/' });
  await approve(ids.gone as string);
  await post(f.app, `/api/admin/dapps/${ids.gone}/delist`, { notes: 'drainer' }, OPERATOR);
});
afterAll(async () => {
  await f.close();
});

interface StorePage {
  page: number;
  perPage: number;
  total: number;
  dapps: { id: string; chains: string[] }[];
}
const store = async (qs = '') => (await get(f.app, `/api/dapps${qs}`)).json() as StorePage;

describe('GET /api/dapps', () => {
  it('lists approved dapps only, newest listing first, without contact e-mail or account', async () => {
    const p = await store();
    expect(p).toMatchObject({ page: 1, perPage: 50, total: 6 });
    expect(p.dapps.map((d) => d.id)).toEqual([ids.port, ids.ok4, ids.ok3, ids.ok2, ids.ok1, ids.ok0]);
    expect(p.dapps[1]).toEqual({
      id: ids.ok4,
      name: 'Dapp ok4',
      site: 'https://dappok4.example/',
      origin: 'https://dappok4.example',
      icon: 'https://dappok4.example/icon.png',
      description: 'Dapp number ok4',
      chains: ['LTC'],
      approvedAt: T0 + 4 * HOUR,
    });
    expect(JSON.stringify(p)).not.toMatch(/contactEmail|accountId|@example\.com/);
  });

  it('paginates with page and per_page', async () => {
    const p2 = await store('?page=2&per_page=4');
    expect(p2).toMatchObject({ page: 2, perPage: 4, total: 6 });
    expect(p2.dapps.map((d) => d.id)).toEqual([ids.ok1, ids.ok0]);
    expect((await store('?page=9&per_page=4')).dapps).toEqual([]);
    for (const qs of ['?per_page=0', '?per_page=101', '?page=0', '?page=x']) {
      const r = await get(f.app, `/api/dapps${qs}`);
      expect([r.statusCode, code(r)]).toEqual([400, 'INVALID_PARAMETER']);
      expect(message(r)).toMatch(/^(page|per_page) must be an integer/);
    }
  });

  it('filters by chain, in any case; an unsupported chain is a 400', async () => {
    const sol = await store('?chain=sol');
    expect(sol.total).toBe(3);
    expect(sol.dapps.every((d) => d.chains.includes('SOL'))).toBe(true);
    expect((await store('?chain=DOGE')).dapps.map((d) => d.id)).toEqual([ids.ok3]);
    expect((await store('?chain=CAT')).total).toBe(0);
    const bad = await get(f.app, "/api/dapps?chain=ETH'--");
    expect([bad.statusCode, code(bad)]).toEqual([400, 'INVALID_PARAMETER']);
    expect(message(bad)).toMatch(/^chain must be one of/);
  });
});

describe('GET /api/dapps/access', () => {
  const check = async (origin: string) => {
    const r = await get(f.app, `/api/dapps/access?origin=${encodeURIComponent(origin)}`);
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    return r.json() as { origin: string; allowed: boolean; dappId: string | null };
  };

  it("allows an approved dapp's origin, with or without path and trailing slash", async () => {
    for (const o of [
      'https://dappok0.example',
      'https://dappok0.example/',
      'https://dappok0.example/deep/path?x=1#y',
      'https://DAPPOK0.example:443',
    ]) {
      expect(await check(o)).toEqual({ origin: 'https://dappok0.example', allowed: true, dappId: ids.ok0 });
    }
    expect(await check('https://port.example:8443/')).toMatchObject({ allowed: true, dappId: ids.port });
  });

  it('refuses another scheme, port or host, and dapps not approved (submitted, rejected, delisted)', async () => {
    for (const o of [
      'http://dappok0.example',
      'https://dappok0.example:8443',
      'https://port.example',
      'https://sub.dappok0.example',
      'https://dappok0.example.evil.example',
      'https://pending.example',
      'https://rejected.example',
      'https://gone.example',
    ]) {
      const r = await check(o);
      expect([o, r.allowed, r.dappId]).toEqual([o, false, null]);
    }
  });

  it('answers 400 to something that is not an http(s) origin', async () => {
    for (const o of [
      'dappok0.example',
      'javascript:alert(1)',
      'null',
      'https://u:p@dappok0.example',
      'https://a b.example',
    ]) {
      const r = await get(f.app, `/api/dapps/access?origin=${encodeURIComponent(o)}`);
      expect([o, r.statusCode, code(r)]).toEqual([o, 400, 'INVALID_PARAMETER']);
      expect(message(r)).toMatch(/^origin /);
    }
    const missing = await get(f.app, '/api/dapps/access');
    expect([missing.statusCode, code(missing)]).toEqual([400, 'MISSING_PARAMETER']);
  });

  it('needs no authentication; the owner of a delisted dapp still sees it, with the reason', async () => {
    expect((await get(f.app, '/api/dapps')).statusCode).toBe(200);
    const own = (await get(f.app, '/api/account/dapps', as(owners.gone as Account))).json() as unknown[];
    expect(own).toContainEqual(
      expect.objectContaining({
        id: ids.gone,
        status: 'delisted',
        reviewNotes: 'drainer',
        reviewedAt: T0 + 6 * HOUR,
      }),
    );
  });
});
