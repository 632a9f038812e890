/**
 * The accounts subgraph's dapps: listing requests, their review, the public store and the origin check, beside the
 * REST API. Executed in process over the accounts REST harness (see `accounts.test.ts` and `support/accounts.ts`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DappService } from '../../src/accounts/dapps.ts';
import { dappBody } from '../accounts/dapps-fixture.ts';
import { ADMIN_TOKEN, auditOf, call } from '../accounts/harness.ts';
import {
  admin,
  codes,
  graphError,
  h,
  HOUR,
  ok,
  restError,
  run,
  SUBMIT,
  submit,
  useAccountsGraph,
  user,
} from './support/accounts.ts';
import type { Submitted } from './support/accounts.ts';

useAccountsGraph();

const APPROVE_DAPP = `mutation ($id: ID!, $notes: String) { approveDapp(id: $id, notes: $notes) { id status reviewNotes reviewedBy reviewedAt } }`;
const REJECT_DAPP = `mutation ($id: ID!, $notes: String!) { rejectDapp(id: $id, notes: $notes) { id status reviewNotes } }`;
const DELIST_DAPP = `mutation ($id: ID!, $notes: String!) { delistDapp(id: $id, notes: $notes) { id status reviewNotes } }`;

describe('dapp listing requests', () => {
  it('submits a request of the signed-in account', async () => {
    const carol = await user();
    const d = await ok<Submitted>(SUBMIT, { token: carol.token, vars: { input: dappBody('c1') } });
    expect(d.submitDapp).toMatchObject({
      status: 'SUBMITTED',
      origin: 'https://dappc1.example',
      account: { id: carol.id },
    });
    const mine = await ok<{ me: { dappRequests: { id: string }[] } }>(`{ me { dappRequests { id } } }`, {
      token: carol.token,
    });
    expect(mine.me.dappRequests.map((r) => r.id)).toEqual([d.submitDapp.id]);
    expect(codes(await run(SUBMIT, { vars: { input: dappBody('anon') } }))).toEqual(['AUTH_REQUIRED']);
  });

  it('refuses invalid fields with the field codes of the REST API', async () => {
    const dave = await user();
    const bad = async (over: Record<string, unknown>) =>
      run(SUBMIT, { token: dave.token, vars: { input: dappBody('d', over) } });
    expect(codes(await bad({ site: 'http://dapp.example/' }))).toEqual(['INVALID_SITE']);
    expect(codes(await bad({ icon: 'ftp://dapp.example/i.png' }))).toEqual(['INVALID_ICON']);
    expect(codes(await bad({ chains: ['LTC', 'NOPE'] }))).toEqual(['INVALID_CHAINS']);
    expect(codes(await bad({ chains: [] }))).toEqual(['INVALID_CHAINS']);
    expect(codes(await bad({ contactEmail: 'not-an-email' }))).toEqual(['INVALID_CONTACT_EMAIL']);
    expect(codes(await bad({ name: ' ' }))).toEqual(['INVALID_NAME']);
    expect(codes(await bad({ description: 'x'.repeat(2001) }))).toEqual(['INVALID_DESCRIPTION']);
    const msg = (await bad({ chains: ['LTC', 'LTC'] })).errors?.[0]?.message;
    expect(msg).toBe('chains[1] repeats LTC: list each chain once');
  });

  it('allows three per 24 hours: the fourth is DAPP_LIMIT_REACHED with the wait', async () => {
    const erin = await user();
    const t0 = h.clock.now;
    await submit(erin.token, 'e1');
    h.clock.now += HOUR;
    await submit(erin.token, 'e2');
    h.clock.now += HOUR;
    await submit(erin.token, 'e3');
    h.clock.now += HOUR;
    const fourth = await run(SUBMIT, { token: erin.token, vars: { input: dappBody('e4') } });
    expect(codes(fourth)).toEqual(['DAPP_LIMIT_REACHED']);
    const wait = (t0 + 24 * HOUR - h.clock.now) / 1000;
    expect(fourth.errors?.[0]?.extensions).toMatchObject({
      retryAfter: wait,
      http: { status: 429, headers: { 'retry-after': String(wait) } },
    });
    expect(fourth.errors?.[0]?.message).toContain(new Date(t0 + 24 * HOUR).toISOString());
  });
});

describe('dapp review', () => {
  const REVIEW = `query ($status: DappStatus) { reviewDapps(status: $status) { id status reviewedBy account { id } } }`;

  it('approves, rejects with a reason and delists, as an administrator and as the operator', async () => {
    const frank = await user();
    const a = await submit(frank.token, 'f1');
    h.clock.now += 1_000; // distinct submission times: the queue is oldest first (ties would order by random id)
    const b = await submit(frank.token, 'f2');

    const queue = await ok<{ reviewDapps: { id: string; status: string; account: { id: string } }[] }>(
      REVIEW,
      {
        token: admin.token,
      },
    );
    const ids = queue.reviewDapps.map((d) => d.id);
    expect(ids.indexOf(a)).toBeLessThan(ids.indexOf(b));
    expect(queue.reviewDapps.every((d) => d.status === 'SUBMITTED')).toBe(true);
    expect(queue.reviewDapps.find((d) => d.id === a)?.account.id).toBe(frank.id);

    h.clock.now += 1000;
    const approved = await ok<{ approveDapp: Record<string, unknown> }>(APPROVE_DAPP, {
      token: admin.token,
      vars: { id: a, notes: 'welcome' },
    });
    expect(approved.approveDapp).toMatchObject({
      status: 'APPROVED',
      reviewNotes: 'welcome',
      reviewedBy: `account:${admin.id}`,
      reviewedAt: new Date(h.clock.now).toISOString(),
    });
    const rejected = await ok<{ rejectDapp: Record<string, unknown> }>(REJECT_DAPP, {
      token: ADMIN_TOKEN,
      vars: { id: b, notes: 'site does not load' },
    });
    expect(rejected.rejectDapp).toEqual({ id: b, status: 'REJECTED', reviewNotes: 'site does not load' });
    const delisted = await ok<{ delistDapp: Record<string, unknown> }>(DELIST_DAPP, {
      token: ADMIN_TOKEN,
      vars: { id: a, notes: 'phishing report' },
    });
    expect(delisted.delistDapp).toMatchObject({ status: 'DELISTED', reviewNotes: 'phishing report' });

    const audit = await auditOf(h.db, a);
    expect(audit.map((r) => [r.actor, r.action, r.reason])).toEqual([
      [`account:${frank.id}`, 'dapp.submit', null],
      [`account:${admin.id}`, 'dapp.approve', 'welcome'],
      ['operator', 'dapp.delist', 'phishing report'],
    ]);

    // The submitter sees the notes but not who reviewed; administrators see both.
    const own = await ok<{
      me: { dappRequests: { id: string; reviewNotes: string; reviewedBy: string | null }[] };
    }>(`{ me { dappRequests { id reviewNotes reviewedBy } } }`, { token: frank.token });
    expect(own.me.dappRequests.find((d) => d.id === b)).toEqual({
      id: b,
      reviewNotes: 'site does not load',
      reviewedBy: null,
    });
    const all = await ok<{ reviewDapps: { id: string; reviewedBy: string | null }[] }>(REVIEW, {
      token: admin.token,
      vars: { status: 'REJECTED' },
    });
    expect(all.reviewDapps.find((d) => d.id === b)?.reviewedBy).toBe('operator');
  });

  it('refuses non-administrators (FORBIDDEN), a missing reason and a wrong state', async () => {
    const gina = await user();
    const id = await submit(gina.token, 'g1');
    expect(codes(await run(APPROVE_DAPP, { token: gina.token, vars: { id } }))).toEqual(['FORBIDDEN']);
    expect(codes(await run(REVIEW, { token: gina.token }))).toEqual(['FORBIDDEN']);
    expect(codes(await run(REVIEW))).toEqual(['AUTH_REQUIRED']);
    expect(codes(await run(REJECT_DAPP, { token: admin.token, vars: { id, notes: '  ' } }))).toEqual([
      'INVALID_NOTES',
    ]);
    expect(codes(await run(DELIST_DAPP, { token: admin.token, vars: { id, notes: 'x' } }))).toEqual([
      'DAPP_STATE_CONFLICT',
    ]);
    expect(codes(await run(APPROVE_DAPP, { token: admin.token, vars: { id: 'nope' } }))).toEqual([
      'DAPP_NOT_FOUND',
    ]);
  });
});

describe('dappStore', () => {
  const STORE = `query ($first: Int, $after: String, $chain: String) {
    dappStore(first: $first, after: $after, chain: $chain) {
      edges { cursor node { id name chains approvedAt } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      totalCount
    }
  }`;
  type Store = {
    dappStore: {
      edges: { cursor: string; node: { id: string; name: string; chains: string[]; approvedAt: string } }[];
      pageInfo: {
        hasNextPage: boolean;
        hasPreviousPage: boolean;
        startCursor: string | null;
        endCursor: string | null;
      };
      totalCount: number;
    };
  };
  const listed: string[] = [];

  beforeAll(async () => {
    // Five approved dapps from two accounts (three per day each), newest approval first in the store.
    const [p, q] = [await user(), await user()];
    for (const [i, who] of [p, p, p, q, q].entries()) {
      const id = await submit(who.token, `s${i}`, i % 2 === 0 ? { chains: ['SOL', 'LTC'] } : {});
      h.clock.now += 1000;
      await ok(APPROVE_DAPP, { token: ADMIN_TOKEN, vars: { id } });
      listed.unshift(id);
    }
  });

  it('pages by first/after with opaque cursors, newest approval first', async () => {
    const all = (await ok<Store>(STORE, { vars: { first: 100 } })).dappStore;
    const ids = all.edges.map((e) => e.node.id);
    expect(ids.slice(0, 5)).toEqual(listed);
    expect(all.totalCount).toBe(ids.length);
    expect(all.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });

    const p1 = (await ok<Store>(STORE, { vars: { first: 2 } })).dappStore;
    expect(p1.edges.map((e) => e.node.id)).toEqual(ids.slice(0, 2));
    expect(p1.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: p1.edges[0]?.cursor,
      endCursor: p1.edges[1]?.cursor,
    });
    const p2 = (await ok<Store>(STORE, { vars: { first: 3, after: p1.pageInfo.endCursor } })).dappStore;
    expect(p2.edges.map((e) => e.node.id)).toEqual(ids.slice(2, 5));
    expect(p2.pageInfo.hasPreviousPage).toBe(true);
    // Continuing from any edge's cursor, not only a page boundary.
    const p3 = (await ok<Store>(STORE, { vars: { first: 2, after: p2.edges[0]?.cursor } })).dappStore;
    expect(p3.edges.map((e) => e.node.id)).toEqual(ids.slice(3, 5));

    const past = (await ok<Store>(STORE, { vars: { first: 2, after: all.pageInfo.endCursor } })).dappStore;
    expect(past).toMatchObject({
      edges: [],
      pageInfo: { hasNextPage: false, startCursor: null, endCursor: null },
    });
  });

  it('filters by chain (any case) like REST /dapps?chain=', async () => {
    const sol = (await ok<Store>(STORE, { vars: { chain: 'sol' } })).dappStore;
    expect(sol.edges.map((e) => e.node.id)).toEqual([listed[0], listed[2], listed[4]]);
    expect(sol.totalCount).toBe(3);
    expect(sol.edges.every((e) => e.node.chains.includes('SOL'))).toBe(true);
    const rest = await new DappService(h.db).store({ page: 1, perPage: 50, chain: 'SOL' });
    expect(sol.edges.map((e) => e.node.id)).toEqual(rest.dapps.map((d) => d.id));
  });

  it('refuses a bad first, cursor or chain with INVALID_PARAMETER', async () => {
    for (const vars of [{ first: 0 }, { first: 101 }, { after: 'bm9wZQ' }, { chain: 'NOPE' }]) {
      const r = await run(STORE, { vars });
      expect(codes(r), JSON.stringify(vars)).toEqual(['INVALID_PARAMETER']);
    }
    expect((await run(STORE, { vars: { first: 101 } })).errors?.[0]?.message).toBe(
      'first must be an integer from 1 to 100',
    );
  });

  it('is public: served without a token, and even with a bad one (the session is never read)', async () => {
    const r = await run(STORE, { token: 'cws_' + 'q'.repeat(43), vars: { first: 1 } });
    expect(r.errors).toBeUndefined();
    expect((r.data as Store).dappStore.edges).toHaveLength(1);
  });
});

describe('dappAccess', () => {
  const ACCESS = `query ($origin: String!) { dappAccess(origin: $origin) { origin allowed dappId } }`;
  const restAccess = (origin: string) =>
    call(h, 'GET', `/api/dapps/access?origin=${encodeURIComponent(origin)}`);

  it('answers what REST answers, for an approved, an unknown and a delisted origin; public', async () => {
    const owner = await user();
    const id = await submit(owner.token, 'acc1');
    await ok(APPROVE_DAPP, { token: ADMIN_TOKEN, vars: { id } });

    for (const origin of [
      'https://dappacc1.example',
      'https://DAPPACC1.example:443/app?x=1',
      'https://unknown.example',
    ]) {
      const rest = await restAccess(origin);
      expect(rest.status).toBe(200);
      const d = await ok<{ dappAccess: unknown }>(ACCESS, { vars: { origin } });
      expect(d.dappAccess, origin).toEqual(rest.body);
    }
    expect(
      (await ok<{ dappAccess: unknown }>(ACCESS, { vars: { origin: 'https://dappacc1.example/' } }))
        .dappAccess,
    ).toEqual({
      origin: 'https://dappacc1.example',
      allowed: true,
      dappId: id,
    });
    // Public: a bad token is never read.
    const withBadToken = await run(ACCESS, {
      token: 'cws_' + 'u'.repeat(43),
      vars: { origin: 'https://dappacc1.example' },
    });
    expect(withBadToken.errors).toBeUndefined();

    // A delisting applies at once.
    await ok(DELIST_DAPP, { token: ADMIN_TOKEN, vars: { id, notes: 'gone' } });
    const after = await ok<{ dappAccess: unknown }>(ACCESS, { vars: { origin: 'https://dappacc1.example' } });
    expect(after.dappAccess).toEqual({ origin: 'https://dappacc1.example', allowed: false, dappId: null });
    expect(after.dappAccess).toEqual((await restAccess('https://dappacc1.example')).body);
  });

  it('refuses what REST refuses (not an http(s) URL, empty), with the same codes and messages', async () => {
    for (const origin of ['ftp://dapp.example', 'not a url', '', '  ', 'https://a.example/\u0001']) {
      const rest = await restAccess(origin);
      const graph = await run(ACCESS, { vars: { origin } });
      expect(rest.status, origin).toBe(400);
      expect(graphError(graph), JSON.stringify(origin)).toEqual(restError(rest));
    }
  });
});
