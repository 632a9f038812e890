/**
 * The accounts subgraph executed in process (graphql's `graphql()` against the built federated schema) over the
 * accounts REST harness: in-memory PGlite, a settable clock, real wallet sign-ins through the REST API. The subgraph
 * shares the harness's database and key service, so REST and the graph see the same accounts, sessions, keys and
 * dapps. A second instance over a Proxy of the database counts the SQL statements a request costs.
 */
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import type * as GraphQL from 'graphql';
import type { ExecutionResult } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccess } from '../../src/access/access.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import { AuthService } from '../../src/accounts/auth.ts';
import { parseChallenge } from '../../src/accounts/challenge.ts';
import { DappService } from '../../src/accounts/dapps.ts';
import { partnerKeyHash } from '../../src/names/partner-auth.ts';
import { createAuthGuards } from '../../src/rest/accounts/guards-impl.ts';
import { registerErrorHandling } from '../../src/rest/errors.ts';
import { namesApi } from '../../src/rest/names/index.ts';
import type { Db } from '../../src/store/db.ts';
import { createAccountsSubgraph } from '../../subgraphs/accounts/index.ts';
import type { AccountsSubgraph } from '../../subgraphs/accounts/index.ts';
import { keysByOwners } from '../../subgraphs/accounts/loaders.ts';
import { dappBody } from '../accounts/dapps-fixture.ts';
import {
  ADMIN_TOKEN,
  DOMAIN,
  auditOf,
  call,
  harness,
  signIn,
  signInAdmin,
  wallet,
} from '../accounts/harness.ts';
import type { Harness, Res } from '../accounts/harness.ts';
import { partnerCall } from '../names/harness.ts';
import { NameService } from '../../src/names/service.ts';

// The CommonJS build of graphql: the one @apollo/subgraph builds the schema with (see test/graph/markets.test.ts).
const { graphql } = createRequire(import.meta.url)('graphql') as typeof GraphQL;

const HOUR = 3_600_000;

let h: Harness;
let sg: AccountsSubgraph;
let admin: { token: string; id: string };
let alice: { token: string; id: string; address: string };
let bob: { token: string; id: string; address: string };
/** Every batch the loaders dispatched. */
const batches: { loader: string; keys: readonly unknown[] }[] = [];

/** Signs a fresh wallet in through REST; returns its token, account id and address. */
async function user(): Promise<{ token: string; id: string; address: string }> {
  const w = wallet();
  const token = await signIn(h, w);
  const acct = await new AuthService(h.db, { domain: DOMAIN, now: () => h.clock.now }).authenticate(token);
  return { token, id: acct.id, address: acct.address };
}

beforeAll(async () => {
  h = await harness();
  const now = () => h.clock.now;
  sg = createAccountsSubgraph({
    db: h.db,
    keys: h.keys,
    auth: new AuthService(h.db, { domain: DOMAIN, now }),
    dapps: new DappService(h.db, { now }),
    adminToken: ADMIN_TOKEN,
    now,
    hooks: { onBatch: (loader, keys) => batches.push({ loader, keys }) },
  });
  const a = await signInAdmin(h);
  admin = { token: a.token, id: a.id };
  alice = await user();
  bob = await user();
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const headers = (token?: string): Record<string, string> =>
  token === undefined ? {} : { authorization: `Bearer ${token}` };

async function run(
  source: string,
  opts: { token?: string; vars?: Record<string, unknown>; on?: AccountsSubgraph } = {},
): Promise<ExecutionResult> {
  const s = opts.on ?? sg;
  return graphql({
    schema: s.schema,
    source,
    variableValues: opts.vars,
    contextValue: s.contextFor({ headers: headers(opts.token) }),
  });
}

async function ok<T = Record<string, unknown>>(
  source: string,
  opts: { token?: string; vars?: Record<string, unknown>; on?: AccountsSubgraph } = {},
): Promise<T> {
  const r = await run(source, opts);
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data as T;
}

const codes = (r: ExecutionResult): unknown[] => (r.errors ?? []).map((e) => e.extensions['code']);

const ME = `{ me { id address role createdAt } }`;

describe('me', () => {
  it('is null without a token and for the operator, with no error', async () => {
    expect(await ok(ME)).toEqual({ me: null });
    expect(await ok(ME, { token: ADMIN_TOKEN })).toEqual({ me: null });
  });

  it('is the signed-in account', async () => {
    const d = await ok<{ me: Record<string, unknown> }>(ME, { token: alice.token });
    expect(d.me).toEqual({
      id: alice.id,
      address: alice.address,
      role: 'USER',
      createdAt: new Date(h.clock.now).toISOString(),
    });
    expect((await ok<{ me: { role: string } }>(ME, { token: admin.token })).me.role).toBe('ADMIN');
  });

  it('is INVALID_SESSION for a token that is no session, SESSION_EXPIRED after 24 hours', async () => {
    const bad = await run(ME, { token: 'cws_' + 'x'.repeat(43) });
    expect(bad.data).toEqual({ me: null });
    expect(codes(bad)).toEqual(['INVALID_SESSION']);
    expect(bad.errors?.[0]?.extensions['http']).toEqual({
      status: 401,
      headers: { 'www-authenticate': 'Bearer' },
    });
    expect(codes(await run(ME, { token: 'not-a-token' }))).toEqual(['INVALID_SESSION']);

    const later = createAccountsSubgraph({
      db: h.db,
      keys: h.keys,
      auth: new AuthService(h.db, { domain: DOMAIN, now: () => h.clock.now + 25 * HOUR }),
      dapps: new DappService(h.db, {}),
      adminToken: ADMIN_TOKEN,
    });
    expect(codes(await run(ME, { token: alice.token, on: later }))).toEqual(['SESSION_EXPIRED']);
  });

  it('reads the session once per request, however many fields need it', async () => {
    const d = await ok<Record<string, { id: string }>>(`{ a: me { id } b: me { id } c: me { id } }`, {
      token: alice.token,
    });
    expect([d['a']?.id, d['b']?.id, d['c']?.id]).toEqual([alice.id, alice.id, alice.id]);
    const bad = await run(`{ a: me { id } b: me { id } }`, { token: 'cws_' + 'y'.repeat(43) });
    expect(codes(bad)).toEqual(['INVALID_SESSION', 'INVALID_SESSION']);
  });
});

const REQUEST_KEY = `mutation ($plan: Plan!, $description: String!) {
  requestApiKey(plan: $plan, description: $description) {
    key
    apiKey { id prefix plan limitPerMinute status description rejectionReason createdAt reviewedAt revokedAt lastUsedAt }
  }
}`;

type KeyRequest = {
  requestApiKey: { key: string; apiKey: { id: string; prefix: string; status: string; plan: string } };
};

async function requestKey(token: string, description = 'my bot', plan = 'FREE') {
  return (await ok<KeyRequest>(REQUEST_KEY, { token, vars: { plan, description } })).requestApiKey;
}

const REVOKE = `mutation ($id: ID!, $reason: String) { revokeApiKey(id: $id, reason: $reason) { id status revokedAt } }`;
const APPROVE_KEY = `mutation ($id: ID!, $limit: Int, $reason: String) {
  approveApiKey(id: $id, limitPerMinute: $limit, reason: $reason) { id status limitPerMinute reviewedAt }
}`;
const REJECT_KEY = `mutation ($id: ID!, $reason: String!) {
  rejectApiKey(id: $id, reason: $reason) { id status rejectionReason reviewedAt }
}`;

describe('API keys', () => {
  it('requestApiKey shows the secret once; the key list never shows it again', async () => {
    const r = await requestKey(alice.token, 'price widget', 'PRO');
    expect(r.key).toMatch(/^cw_live_/);
    expect(r.apiKey).toMatchObject({
      prefix: r.key.slice(0, 12),
      plan: 'PRO',
      limitPerMinute: 3000,
      status: 'PENDING',
      description: 'price widget',
      rejectionReason: null,
      reviewedAt: null,
    });
    // The same key through REST's lookup: the graph and REST share the service.
    expect((await h.keys.lookup(r.key))?.id).toBe(r.apiKey.id);

    const list = await run(`{ me { apiKeys { id prefix status } } }`, { token: alice.token });
    expect(JSON.stringify(list)).not.toContain(r.key);
    const ids = (list.data as { me: { apiKeys: { id: string }[] } }).me.apiKeys.map((k) => k.id);
    expect(ids[0]).toBe(r.apiKey.id);
    // ApiKey has no field that could carry the secret.
    const t = await ok<{ __type: { fields: { name: string }[] } }>(
      `{ __type(name: "ApiKey") { fields { name } } }`,
    );
    expect(t.__type.fields.map((f) => f.name)).not.toContain('key');
  });

  it('lists the account keys newest first', async () => {
    const first = await requestKey(bob.token, 'one');
    h.clock.now += 1000;
    const second = await requestKey(bob.token, 'two');
    const d = await ok<{ me: { apiKeys: { id: string; description: string }[] } }>(
      `{ me { apiKeys { id description } } }`,
      { token: bob.token },
    );
    expect(d.me.apiKeys.map((k) => k.id)).toEqual([second.apiKey.id, first.apiKey.id]);
  });

  it('refuses without a session, and a bad description as REST does', async () => {
    const anon = await run(REQUEST_KEY, { vars: { plan: 'FREE', description: 'x' } });
    expect(codes(anon)).toEqual(['AUTH_REQUIRED']);
    expect(anon.data).toBeNull();
    expect(
      codes(await run(REQUEST_KEY, { token: ADMIN_TOKEN, vars: { plan: 'FREE', description: 'x' } })),
    ).toEqual(['AUTH_REQUIRED']);
    const blank = await run(REQUEST_KEY, { token: alice.token, vars: { plan: 'FREE', description: '   ' } });
    expect(codes(blank)).toEqual(['INVALID_BODY']);
    expect(blank.errors?.[0]?.message).toMatch(/^description /);
  });

  it('revokes an approved key of its own (KEY_STATE_CONFLICT otherwise, KEY_NOT_FOUND for another account)', async () => {
    const r = await requestKey(alice.token, 'to revoke');
    const early = await run(REVOKE, { token: alice.token, vars: { id: r.apiKey.id } });
    expect(codes(early)).toEqual(['KEY_STATE_CONFLICT']);
    expect(early.errors?.[0]?.extensions['http']).toEqual({ status: 409 });

    await ok(APPROVE_KEY, { token: ADMIN_TOKEN, vars: { id: r.apiKey.id } });
    expect(codes(await run(REVOKE, { token: bob.token, vars: { id: r.apiKey.id } }))).toEqual([
      'KEY_NOT_FOUND',
    ]);

    const d = await ok<{ revokeApiKey: { status: string; revokedAt: string } }>(REVOKE, {
      token: alice.token,
      vars: { id: r.apiKey.id, reason: 'leaked' },
    });
    expect(d.revokeApiKey).toMatchObject({
      status: 'REVOKED',
      revokedAt: new Date(h.clock.now).toISOString(),
    });
    expect(await h.keys.lookup(r.key)).toMatchObject({ status: 'revoked' });
    const audit = await auditOf(h.db, r.apiKey.id);
    expect(audit.at(-1)).toMatchObject({
      actor: `account:${alice.id}`,
      action: 'api_key.revoke',
      reason: 'leaked',
    });
  });
});

describe('API key review', () => {
  const REVIEW = `query ($status: ApiKeyStatus) { reviewApiKeys(status: $status) { id status owner { id } } }`;

  it('is for administrators and the operator: AUTH_REQUIRED without a session, FORBIDDEN for a user', async () => {
    expect(codes(await run(REVIEW))).toEqual(['AUTH_REQUIRED']);
    const forbidden = await run(REVIEW, { token: alice.token });
    expect(codes(forbidden)).toEqual(['FORBIDDEN']);
    expect(forbidden.errors?.[0]?.extensions['http']).toEqual({ status: 403 });
    const r = await requestKey(alice.token, 'for review');
    expect(codes(await run(APPROVE_KEY, { token: alice.token, vars: { id: r.apiKey.id } }))).toEqual([
      'FORBIDDEN',
    ]);
    expect(
      codes(await run(REJECT_KEY, { token: bob.token, vars: { id: r.apiKey.id, reason: 'no' } })),
    ).toEqual(['FORBIDDEN']);
    expect(codes(await run(REVIEW, { token: 'cws_' + 'z'.repeat(43) }))).toEqual(['INVALID_SESSION']);
  });

  it('lists pending keys oldest first with their owner', async () => {
    const d = await ok<{ reviewApiKeys: { id: string; status: string; owner: { id: string } | null }[] }>(
      REVIEW,
      {
        token: admin.token,
      },
    );
    const pending = (await h.keys.list({ status: 'pending' })).sort((a, b) => a.createdAt - b.createdAt);
    expect(d.reviewApiKeys.map((k) => k.id)).toEqual(pending.map((k) => k.id));
    expect(d.reviewApiKeys.every((k) => k.status === 'PENDING')).toBe(true);
    expect(d.reviewApiKeys.map((k) => k.owner?.id)).toEqual(pending.map((k) => k.ownerId));
    // The SDL default (PENDING) reaches the resolver as the domain's string, and introspection prints it.
    const intro = await ok<{ __type: { fields: { name: string; args: { defaultValue: string }[] }[] } }>(
      `{ __type(name: "Query") { fields { name args { defaultValue } } } }`,
    );
    const defaults = Object.fromEntries(
      intro.__type.fields.map((f) => [f.name, f.args.map((a) => a.defaultValue)]),
    );
    expect(defaults['reviewApiKeys']).toEqual(['PENDING']);
    expect(defaults['reviewDapps']).toEqual(['SUBMITTED']);
    const all = await ok<{ reviewApiKeys: unknown[] }>(REVIEW, {
      token: ADMIN_TOKEN,
      vars: { status: null },
    });
    expect(all.reviewApiKeys).toHaveLength((await h.keys.list()).length);
  });

  it('approves with an administrator session and with the operator token, audited as each', async () => {
    const a = await requestKey(alice.token, 'enterprise', 'ENTERPRISE');
    const d = await ok<{ approveApiKey: { status: string; limitPerMinute: number } }>(APPROVE_KEY, {
      token: admin.token,
      vars: { id: a.apiKey.id, limit: 7500 },
    });
    expect(d.approveApiKey).toMatchObject({ status: 'APPROVED', limitPerMinute: 7500 });
    expect((await auditOf(h.db, a.apiKey.id)).at(-1)).toMatchObject({
      actor: `account:${admin.id}`,
      action: 'api_key.approve',
      reason: 'limitPerMinute 7500',
    });

    const b = await requestKey(bob.token, 'by operator');
    await ok(APPROVE_KEY, { token: ADMIN_TOKEN, vars: { id: b.apiKey.id, reason: 'ok' } });
    expect((await auditOf(h.db, b.apiKey.id)).at(-1)).toMatchObject({ actor: 'operator', reason: 'ok' });

    const again = await run(APPROVE_KEY, { token: admin.token, vars: { id: a.apiKey.id } });
    expect(codes(again)).toEqual(['KEY_STATE_CONFLICT']);
    expect(again.errors?.[0]?.message).toBe(
      `API key ${a.apiKey.id} is approved: only a pending key can be approved`,
    );
    expect(codes(await run(APPROVE_KEY, { token: admin.token, vars: { id: 'nope' } }))).toEqual([
      'KEY_NOT_FOUND',
    ]);
    expect(
      codes(await run(APPROVE_KEY, { token: admin.token, vars: { id: b.apiKey.id, limit: 20_000 } })),
    ).toEqual(['INVALID_BODY']);
  });

  it('rejects with the reason the owner sees', async () => {
    const r = await requestKey(bob.token, 'spam');
    const d = await ok<{ rejectApiKey: { status: string; rejectionReason: string } }>(REJECT_KEY, {
      token: admin.token,
      vars: { id: r.apiKey.id, reason: 'describe the use' },
    });
    expect(d.rejectApiKey).toMatchObject({ status: 'REJECTED', rejectionReason: 'describe the use' });
    const mine = await ok<{ me: { apiKeys: { id: string; rejectionReason: string | null }[] } }>(
      `{ me { apiKeys { id rejectionReason } } }`,
      { token: bob.token },
    );
    expect(mine.me.apiKeys.find((k) => k.id === r.apiKey.id)?.rejectionReason).toBe('describe the use');
    expect(
      codes(await run(REJECT_KEY, { token: admin.token, vars: { id: r.apiKey.id, reason: 'x' } })),
    ).toEqual(['KEY_STATE_CONFLICT']);
    expect(
      codes(await run(REJECT_KEY, { token: admin.token, vars: { id: r.apiKey.id, reason: '' } })),
    ).toEqual(['INVALID_BODY']);
  });

  it('shows ApiKey.owner to administrators only', async () => {
    const q = `{ me { apiKeys { owner { id } } } }`;
    const mine = await ok<{ me: { apiKeys: { owner: unknown }[] } }>(q, { token: alice.token });
    expect(mine.me.apiKeys.every((k) => k.owner === null)).toBe(true);
    await requestKey(admin.token, 'admin key');
    const theirs = await ok<{ me: { apiKeys: { owner: { id: string } }[] } }>(q, { token: admin.token });
    expect(theirs.me.apiKeys.map((k) => k.owner.id)).toEqual([admin.id]);
  });
});

const SUBMIT = `mutation ($input: DappInput!) {
  submitDapp(input: $input) {
    id name site origin icon description contactEmail chains status reviewNotes reviewedBy createdAt reviewedAt
    account { id }
  }
}`;
type Submitted = { submitDapp: { id: string; status: string; origin: string; account: { id: string } } };

async function submit(
  token: string,
  n: number | string,
  over: Record<string, unknown> = {},
): Promise<string> {
  return (await ok<Submitted>(SUBMIT, { token, vars: { input: dappBody(n, over) } })).submitDapp.id;
}

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

const ENTITIES = `query ($reps: [_Any!]!) { _entities(representations: $reps) { ... on Account { id address role } } }`;

describe('_entities (Account @key(fields: "id"))', () => {
  it('resolves references through the account loader; an unknown id is null', async () => {
    batches.length = 0;
    const unknown = '00000000-0000-4000-8000-000000000000';
    const d = await ok<{ _entities: unknown[] }>(ENTITIES, {
      vars: {
        reps: [
          { __typename: 'Account', id: alice.id },
          { __typename: 'Account', id: unknown },
          { __typename: 'Account', id: bob.id },
          { __typename: 'Account', id: 'not-a-uuid' },
        ],
      },
    });
    expect(d._entities).toEqual([
      { id: alice.id, address: alice.address, role: 'USER' },
      null,
      { id: bob.id, address: bob.address, role: 'USER' },
      null,
    ]);
    expect(batches.filter((b) => b.loader === 'account').map((b) => [...b.keys])).toEqual([
      [alice.id, unknown, bob.id, 'not-a-uuid'],
    ]);
  });

  it("guards an account's lists: the account itself, administrators and the operator only", async () => {
    const vars = { reps: [{ __typename: 'Account', id: alice.id }] };
    for (const [field, what] of [
      ['apiKeys', 'API keys'],
      ['dappRequests', 'dapp requests'],
    ] as const) {
      const q = `query ($reps: [_Any!]!) { _entities(representations: $reps) { ... on Account { id ${field} { id } } } }`;
      const anon = await run(q, { vars });
      expect(codes(anon)).toEqual(['AUTH_REQUIRED']);
      expect(anon.errors?.[0]?.path).toEqual(['_entities', 0, field]);
      const other = await run(q, { token: bob.token, vars });
      expect(codes(other)).toEqual(['FORBIDDEN']);
      expect(other.errors?.[0]?.message).toContain(
        `only account ${alice.id} itself and administrators see its ${what}`,
      );
      for (const token of [alice.token, admin.token, ADMIN_TOKEN]) {
        const d = await ok<{ _entities: Record<string, unknown[]>[] }>(q, { token, vars });
        const expected =
          field === 'apiKeys'
            ? (await h.keys.list({ ownerId: alice.id })).length
            : (await new DappService(h.db).listOwn(alice.id)).length;
        expect(d._entities[0]?.[field]).toHaveLength(expected);
      }
    }
  });
});

describe('batching', () => {
  /** A Db whose `query` calls are recorded (transactions run their statements on `tx`, not counted). */
  function counting(db: Db): { db: Db; sql: string[] } {
    const sql: string[] = [];
    const proxy = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === 'query')
          return (text: string, params?: readonly unknown[]) => {
            sql.push(text.replace(/\s+/g, ' ').trim());
            return target.query(text, params);
          };
        const v: unknown = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    return { db: proxy, sql };
  }

  const NESTED = `query ($reps: [_Any!]!) {
    _entities(representations: $reps) {
      ... on Account {
        id
        apiKeys { id owner { id address } }
        dappRequests { id reviewedBy account { id role } }
      }
    }
  }`;

  it('N accounts with their keys and dapp requests cost one read per level, whatever N', async () => {
    // Accounts with keys and dapps of their own.
    const people = [alice, bob];
    for (let i = 0; i < 4; i++) people.push(await user());
    for (const [i, p] of people.entries()) {
      await requestKey(p.token, `batch ${i}`);
      if (i >= 2) await submit(p.token, `batch${i}`);
    }

    const c = counting(h.db);
    const sgCounted = createAccountsSubgraph({
      db: c.db,
      keys: h.keys,
      auth: new AuthService(c.db, { domain: DOMAIN, now: () => h.clock.now }),
      dapps: new DappService(c.db, { now: () => h.clock.now }),
      adminToken: ADMIN_TOKEN,
      now: () => h.clock.now,
    });
    // Creating the subgraph and a context reads nothing.
    sgCounted.contextFor({ headers: headers(admin.token) });
    expect(c.sql).toEqual([]);

    const reps = people.map((p) => ({ __typename: 'Account', id: p.id }));
    const costs: Record<string, string[]> = {};
    for (const [label, n, token] of [
      ['admin, 2 accounts', 2, admin.token],
      ['admin, 6 accounts', 6, admin.token],
      ['operator, 6 accounts', 6, ADMIN_TOKEN],
    ] as const) {
      c.sql.length = 0;
      const d = await ok<{
        _entities: { id: string; apiKeys: { owner: { id: string } }[]; dappRequests: unknown[] }[];
      }>(NESTED, { token, vars: { reps: reps.slice(0, n) }, on: sgCounted });
      expect(d._entities.map((e) => e.id)).toEqual(people.slice(0, n).map((p) => p.id));
      for (const e of d._entities) expect(e.apiKeys.every((k) => k.owner.id === e.id)).toBe(true);
      costs[label] = c.sql.map((s) => s.slice(0, s.indexOf(' WHERE ')));
    }

    // The session (admin only), the accounts, their keys, their dapp requests: one statement each. The third level
    // (ApiKey.owner, DappRequest.account) is served from the account loader's cache: no statement.
    const perLevel = [
      'SELECT id, address, role, created_at FROM accounts',
      'SELECT id, prefix, plan, limit_per_minute, status, owner_id, description, rejection_reason, created_at, reviewed_at, revoked_at, last_used_at FROM api_keys',
      'SELECT * FROM dapps',
    ];
    const session =
      'SELECT a.id, a.address, a.role, a.created_at, s.expires_at, s.revoked_at FROM sessions s JOIN accounts a ON a.id = s.account_id';
    expect(costs['admin, 2 accounts']?.slice().sort()).toEqual([session, ...perLevel].sort());
    expect(costs['admin, 6 accounts']?.slice().sort()).toEqual([session, ...perLevel].sort());
    expect(costs['operator, 6 accounts']?.slice().sort()).toEqual([...perLevel].sort());
    expect(costs['admin, 6 accounts']).toHaveLength(4);
    expect(costs['operator, 6 accounts']).toHaveLength(3);
  });

  it('one batch per loader and level, keyed by every account', async () => {
    const people = [alice, bob];
    batches.length = 0;
    await ok(NESTED, {
      token: ADMIN_TOKEN,
      vars: { reps: people.map((p) => ({ __typename: 'Account', id: p.id })) },
    });
    const ids = people.map((p) => p.id);
    expect(batches.map((b) => [b.loader, [...b.keys]])).toEqual([
      ['account', ids],
      ['apiKeysByOwner', ids],
      ['dappsByAccount', ids],
    ]);
  });

  it('the batched reads give what the per-account domain reads give', async () => {
    const owners = [alice.id, bob.id, admin.id, 'nobody'];
    const batched = await keysByOwners(h.db, owners);
    for (const [i, id] of owners.entries()) expect(batched[i]).toEqual(await h.keys.list({ ownerId: id }));
    const dapps = new DappService(h.db);
    const all = (await h.db.query<{ account_id: string }>('SELECT DISTINCT account_id FROM dapps')).rows.map(
      (r) => r.account_id,
    );
    const byAccount = await dapps.listByAccounts([...all, 'not-a-uuid']);
    for (const id of all)
      expect(byAccount.get(id)?.map(({ reviewedBy: _r, ...own }) => own)).toEqual(await dapps.listOwn(id));
    expect(byAccount.get('not-a-uuid')).toEqual([]);
  });
});

/** `{ code, message }` of a REST error response. */
const restError = (r: Res): { code: unknown; message: unknown } => {
  const e = r.body['error'] as { code?: unknown; message?: unknown } | undefined;
  return { code: e?.code, message: e?.message };
};

/** `{ code, message }` of the first GraphQL error. */
const graphError = (r: ExecutionResult): { code: unknown; message: unknown } => ({
  code: r.errors?.[0]?.extensions['code'],
  message: r.errors?.[0]?.message,
});

const CHALLENGE = `mutation ($address: String!) {
  requestSignInChallenge(address: $address) { challenge nonce domain address issuedAt expiresAt }
}`;
const SIGN_IN = `mutation ($address: String!, $signature: String!, $nonce: String) {
  signIn(address: $address, signature: $signature, nonce: $nonce) {
    token expiresAt account { id address role createdAt }
  }
}`;
const SIGN_OUT = `mutation { signOut }`;
type Challenge = {
  requestSignInChallenge: {
    challenge: string;
    nonce: string;
    domain: string;
    address: string;
    issuedAt: string;
    expiresAt: string;
  };
};
type SignedIn = {
  signIn: {
    token: string;
    expiresAt: string;
    account: { id: string; address: string; role: string; createdAt: string };
  };
};

describe('sign-in through the graph', () => {
  it('challenge, real LTC signature, session: the token works for me and on REST; signOut ends it', async () => {
    const w = wallet();
    const c = (await ok<Challenge>(CHALLENGE, { vars: { address: w.address.toUpperCase() } }))
      .requestSignInChallenge;
    const at = h.clock.now;
    expect(c).toMatchObject({
      domain: DOMAIN,
      address: w.address,
      issuedAt: new Date(at).toISOString(),
      expiresAt: new Date(at + 5 * 60_000).toISOString(),
    });
    expect(c.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(c.challenge.split('\n')[0]).toBe(`${DOMAIN} wants you to sign in with your Litecoin account:`);
    expect(parseChallenge(c.challenge)).toEqual({
      domain: DOMAIN,
      address: w.address,
      uri: `http://${DOMAIN}`,
      nonce: c.nonce,
      issuedAt: at,
      expiresAt: at + 5 * 60_000,
    });
    // REST's challenge for the same address at the same time is the same text but for its own nonce.
    const rest = await call(h, 'POST', '/api/auth/challenge', { body: { address: w.address } });
    expect(rest.status).toBe(200);
    expect((rest.body['challenge'] as string).replace(rest.body['nonce'] as string, c.nonce)).toBe(
      c.challenge,
    );

    const s = (
      await ok<SignedIn>(SIGN_IN, {
        vars: { address: w.address, signature: w.sign(c.challenge), nonce: c.nonce },
      })
    ).signIn;
    expect(s.token).toMatch(/^cws_[A-Za-z0-9_-]{43}$/);
    expect(s.expiresAt).toBe(new Date(at + 24 * HOUR).toISOString());
    expect(s.account).toMatchObject({
      address: w.address,
      role: 'USER',
      createdAt: new Date(at).toISOString(),
    });
    expect(await auditOf(h.db, s.account.id)).toEqual([
      expect.objectContaining({ action: 'account.create', reason: 'first sign-in' }),
    ]);

    // The new token: `me` on the graph, `/account/me` on REST.
    expect((await ok<{ me: { id: string } }>(ME, { token: s.token })).me.id).toBe(s.account.id);
    const restMe = await call(h, 'GET', '/api/account/me', { token: s.token });
    expect([restMe.status, restMe.body['id']]).toEqual([200, s.account.id]);

    // The challenge is single-use, on either surface.
    const again = await run(SIGN_IN, {
      vars: { address: w.address, signature: w.sign(c.challenge), nonce: c.nonce },
    });
    expect(codes(again)).toEqual(['CHALLENGE_USED']);
    expect(again.errors?.[0]?.extensions['http']).toEqual({ status: 401 });

    // signOut: true, then the token is refused by the graph and by REST.
    expect(await ok(SIGN_OUT, { token: s.token })).toEqual({ signOut: true });
    const after = await run(ME, { token: s.token });
    expect(codes(after)).toEqual(['INVALID_SESSION']);
    expect(codes(await run(SIGN_OUT, { token: s.token }))).toEqual(['INVALID_SESSION']);
    const restAfter = await call(h, 'GET', '/api/account/me', { token: s.token });
    expect([restAfter.status, restAfter.code]).toEqual([401, 'INVALID_SESSION']);
  });

  it('signs in without a nonce (the newest challenges are tried) and a second time into the same account', async () => {
    const w = wallet('p2sh-p2wpkh');
    const first = await signIn(h, w);
    const id = (await ok<{ me: { id: string } }>(ME, { token: first })).me.id;
    const c = (await ok<Challenge>(CHALLENGE, { vars: { address: w.address } })).requestSignInChallenge;
    const s = (await ok<SignedIn>(SIGN_IN, { vars: { address: w.address, signature: w.sign(c.challenge) } }))
      .signIn;
    expect(s.account.id).toBe(id);
    expect(s.token).not.toBe(first);
  });

  it('signOut needs a session, and applies within the request: a second signOut is INVALID_SESSION', async () => {
    expect(codes(await run(SIGN_OUT))).toEqual(['AUTH_REQUIRED']);
    expect(codes(await run(SIGN_OUT, { token: ADMIN_TOKEN }))).toEqual(['AUTH_REQUIRED']);
    expect(codes(await run(SIGN_OUT, { token: 'cws_' + 'w'.repeat(43) }))).toEqual(['INVALID_SESSION']);
    const dora = await user();
    const r = await run(`mutation { a: signOut b: signOut }`, { token: dora.token });
    // `b` fails; both fields are non-null, so `data` is null, but `a` ran: the session is gone.
    expect(r.data).toBeNull();
    expect(codes(r)).toEqual(['INVALID_SESSION']);
    expect(r.errors?.[0]?.path).toEqual(['b']);
    expect(codes(await run(ME, { token: dora.token }))).toEqual(['INVALID_SESSION']);
  });

  it('refuses what REST refuses, with the same codes and messages', async () => {
    const w = wallet();
    const other = wallet();
    // No challenge yet for this address.
    const cases: { address: string; signature: string; nonce?: string }[] = [
      { address: w.address, signature: w.sign('anything') },
    ];
    const c = (await ok<Challenge>(CHALLENGE, { vars: { address: w.address } })).requestSignInChallenge;
    cases.push(
      { address: 'nope', signature: w.sign(c.challenge) },
      { address: w.address, signature: 'abc' },
      { address: w.address, signature: other.sign(c.challenge) },
      { address: w.address, signature: w.sign(c.challenge), nonce: '0'.repeat(32) },
      { address: w.address, signature: 'x'.repeat(201) },
      { address: w.address, signature: w.sign(c.challenge), nonce: 'n'.repeat(65) },
      { address: ' ', signature: w.sign(c.challenge) },
    );
    const seen = new Set<unknown>();
    for (const body of cases) {
      const rest = await call(h, 'POST', '/api/auth/session', { body });
      const graph = await run(SIGN_IN, { vars: body });
      expect(graph.data).toBeNull();
      // The same code and message, pointing at the graph's mutation where REST points at its path.
      const r = restError(rest);
      expect(graphError(graph), JSON.stringify(body)).toEqual({
        code: r.code,
        message: String(r.message).replace('POST /api/auth/challenge', 'the requestSignInChallenge mutation'),
      });
      expect(graph.errors?.[0]?.extensions['http']).toMatchObject({ status: rest.status });
      seen.add(r.code);
    }
    expect([...seen].sort()).toEqual([
      'ADDRESS_MISMATCH',
      'CHALLENGE_NOT_FOUND',
      'INVALID_ADDRESS',
      'INVALID_BODY',
      'MALFORMED_SIGNATURE',
    ]);
    for (const address of ['nope', '', 'L'.repeat(101)]) {
      const rest = await call(h, 'POST', '/api/auth/challenge', { body: { address } });
      expect(graphError(await run(CHALLENGE, { vars: { address } })), address).toEqual(restError(rest));
    }

    // An expired challenge (5 minutes).
    h.clock.now += 5 * 60_000;
    const late = await run(SIGN_IN, {
      vars: { address: w.address, signature: w.sign(c.challenge), nonce: c.nonce },
    });
    expect(codes(late)).toEqual(['CHALLENGE_EXPIRED']);
    h.clock.now += 1000;
  });
});

const ADMINS = `{ admins { id address role createdAt } }`;
const GRANT = `mutation ($address: String!, $reason: String) { grantAdmin(address: $address, reason: $reason) { id address role createdAt } }`;
const REVOKE_ADMIN = `mutation ($address: String!, $reason: String) { revokeAdmin(address: $address, reason: $reason) { id address role } }`;
type AccountOut = { id: string; address: string; role: string; createdAt: string };
const REVIEW_KEYS = `{ reviewApiKeys { id } }`;

describe('administrators', () => {
  it('admins lists what REST lists, oldest first; administrators and the operator only', async () => {
    const d = await ok<{ admins: AccountOut[] }>(ADMINS, { token: admin.token });
    const rest = await call(h, 'GET', '/api/admin/admins', { token: ADMIN_TOKEN });
    expect(rest.status).toBe(200);
    expect(d.admins).toEqual(
      (rest.body as unknown as { id: string; address: string; role: string; createdAt: number }[]).map(
        (a) => ({ ...a, role: a.role.toUpperCase(), createdAt: new Date(a.createdAt).toISOString() }),
      ),
    );
    expect(d.admins.map((a) => a.id)).toContain(admin.id);
    expect(await ok(ADMINS, { token: ADMIN_TOKEN })).toEqual(d);

    expect(codes(await run(ADMINS))).toEqual(['AUTH_REQUIRED']);
    const forbidden = await run(ADMINS, { token: alice.token });
    expect(graphError(forbidden)).toEqual(
      restError(await call(h, 'GET', '/api/admin/admins', { token: alice.token })),
    );
    expect(codes(forbidden)).toEqual(['FORBIDDEN']);
    const w = wallet();
    for (const q of [GRANT, REVOKE_ADMIN]) {
      expect(codes(await run(q, { token: alice.token, vars: { address: w.address } }))).toEqual([
        'FORBIDDEN',
      ]);
      expect(codes(await run(q, { vars: { address: w.address } }))).toEqual(['AUTH_REQUIRED']);
    }
  });

  it('grantAdmin names an address that never signed in; granting again changes nothing', async () => {
    const w = wallet();
    const d = await ok<{ grantAdmin: AccountOut }>(GRANT, {
      token: ADMIN_TOKEN,
      vars: { address: w.address, reason: 'new colleague' },
    });
    expect(d.grantAdmin).toMatchObject({ address: w.address, role: 'ADMIN' });
    expect(await auditOf(h.db, d.grantAdmin.id)).toEqual([
      expect.objectContaining({
        actor: 'operator',
        action: 'account.grant_admin',
        from_state: null,
        to_state: 'admin',
        reason: 'new colleague',
      }),
    ]);
    const again = await ok<{ grantAdmin: AccountOut }>(GRANT, {
      token: admin.token,
      vars: { address: w.address },
    });
    expect(again.grantAdmin).toEqual(d.grantAdmin);
    expect(await auditOf(h.db, d.grantAdmin.id)).toHaveLength(1);
    const list = await ok<{ admins: AccountOut[] }>(ADMINS, { token: admin.token });
    expect(list.admins.map((a) => a.id)).toContain(d.grantAdmin.id);
    // Signing in later enters the same account, already an administrator.
    const token = await signIn(h, w);
    expect((await ok<{ me: AccountOut }>(ME, { token })).me).toEqual(d.grantAdmin);
  });

  it('grants and revokes an existing user; the role applies to the next request', async () => {
    const carol = await user();
    expect(codes(await run(REVIEW_KEYS, { token: carol.token }))).toEqual(['FORBIDDEN']);
    const g = await ok<{ grantAdmin: AccountOut }>(GRANT, {
      token: admin.token,
      vars: { address: carol.address.toUpperCase() },
    });
    expect(g.grantAdmin).toMatchObject({ id: carol.id, role: 'ADMIN' });
    expect((await run(REVIEW_KEYS, { token: carol.token })).errors).toBeUndefined();

    const r = await ok<{ revokeAdmin: AccountOut }>(REVOKE_ADMIN, {
      token: admin.token,
      vars: { address: carol.address, reason: 'left the team' },
    });
    expect(r.revokeAdmin).toEqual({ id: carol.id, address: carol.address, role: 'USER' });
    expect(codes(await run(REVIEW_KEYS, { token: carol.token }))).toEqual(['FORBIDDEN']);
    expect((await auditOf(h.db, carol.id)).slice(-2)).toEqual([
      expect.objectContaining({ actor: `account:${admin.id}`, action: 'account.grant_admin', reason: null }),
      expect.objectContaining({
        actor: `account:${admin.id}`,
        action: 'account.revoke_admin',
        reason: 'left the team',
      }),
    ]);
    // Revoking from a user changes nothing.
    const n = (await auditOf(h.db, carol.id)).length;
    await ok(REVOKE_ADMIN, { token: admin.token, vars: { address: carol.address } });
    expect(await auditOf(h.db, carol.id)).toHaveLength(n);
  });

  it('an administrator who revokes their own role loses it for the rest of the request', async () => {
    const dan = await user();
    await ok(GRANT, { token: ADMIN_TOKEN, vars: { address: dan.address } });
    const w = wallet();
    const r = await run(
      `mutation ($me: String!, $other: String!) {
        revokeAdmin(address: $me) { role }
        grantAdmin(address: $other) { role }
      }`,
      { token: dan.token, vars: { me: dan.address, other: w.address } },
    );
    // `grantAdmin` fails (both fields are non-null, so `data` is null) after `revokeAdmin` ran.
    expect(r.data).toBeNull();
    expect(codes(r)).toEqual(['FORBIDDEN']);
    expect(r.errors?.[0]?.path).toEqual(['grantAdmin']);
    expect((await ok<{ me: AccountOut }>(ME, { token: dan.token })).me.role).toBe('USER');
    expect(
      (await h.db.query('SELECT 1 FROM accounts WHERE address = $1', [w.address.toLowerCase()])).rows,
    ).toEqual([]);
  });

  it('refuses what REST refuses, with the same codes and messages', async () => {
    const nobody = wallet();
    for (const [q, url, body] of [
      [REVOKE_ADMIN, '/api/admin/admins/revoke', { address: nobody.address }],
      [GRANT, '/api/admin/admins', { address: 'not-an-address' }],
      [REVOKE_ADMIN, '/api/admin/admins/revoke', { address: 'ltc1nope' }],
      [GRANT, '/api/admin/admins', { address: nobody.address, reason: 'r'.repeat(501) }],
      [GRANT, '/api/admin/admins', { address: '  ' }],
    ] as const) {
      const rest = await call(h, 'POST', url, { token: ADMIN_TOKEN, body });
      const graph = await run(q, { token: ADMIN_TOKEN, vars: body });
      expect(graphError(graph), JSON.stringify(body)).toEqual(restError(rest));
      expect(graph.errors?.[0]?.extensions['http']).toMatchObject({ status: rest.status });
    }
    const nf = await run(REVOKE_ADMIN, { token: ADMIN_TOKEN, vars: { address: nobody.address } });
    expect(codes(nf)).toEqual(['ACCOUNT_NOT_FOUND']);
  });
});

const ISSUE = `mutation ($plan: Plan!, $description: String, $limit: Int, $approve: Boolean) {
  issueApiKey(plan: $plan, description: $description, limitPerMinute: $limit, approve: $approve) {
    key
    apiKey { id prefix plan limitPerMinute status description createdAt reviewedAt owner { id } }
  }
}`;
type Issued = {
  issueApiKey: {
    key: string;
    apiKey: {
      id: string;
      prefix: string;
      plan: string;
      limitPerMinute: number;
      status: string;
      description: string;
      createdAt: string;
      reviewedAt: string | null;
      owner: { id: string } | null;
    };
  };
};
const ADMIN_REVOKE = `mutation ($id: ID!, $reason: String) { adminRevokeApiKey(id: $id, reason: $reason) { id status revokedAt } }`;
const API_KEY = `query ($id: ID!) {
  apiKey(id: $id) { id prefix plan limitPerMinute status description rejectionReason createdAt reviewedAt revokedAt lastUsedAt owner { id } }
}`;
type KeyOut = { apiKey: Record<string, unknown> | null };

describe('API keys issued and revoked by administrators', () => {
  const check = (key: string) =>
    createAccess({ keys: h.keys, limiter: createMemoryLimiter() }).check({
      headers: { 'x-sp-api-key': key },
      query: {},
      socketIp: '127.0.0.1',
    });

  it('issueApiKey (operator): an approved enterprise key, secret shown once, that the access check admits', async () => {
    const d = (
      await ok<Issued>(ISSUE, {
        token: ADMIN_TOKEN,
        vars: { plan: 'ENTERPRISE', description: 'market maker feed', limit: 5000, approve: true },
      })
    ).issueApiKey;
    expect(d.key).toMatch(/^cw_live_/);
    expect(d.apiKey).toEqual({
      id: expect.any(String),
      prefix: d.key.slice(0, 12),
      plan: 'ENTERPRISE',
      limitPerMinute: 5000,
      status: 'APPROVED',
      description: 'market maker feed',
      createdAt: new Date(h.clock.now).toISOString(),
      reviewedAt: new Date(h.clock.now).toISOString(),
      owner: null,
    });
    expect(await h.keys.lookup(d.key)).toMatchObject({ id: d.apiKey.id, status: 'approved', ownerId: null });
    const grant = await check(d.key);
    expect(grant).toMatchObject({ ok: true, plan: 'enterprise', identity: `key:${d.apiKey.id}` });
    expect(grant.headers['x-ratelimit-limit']).toBe('5000');
    await h.keys.flush();
    const read = await ok<KeyOut>(API_KEY, { token: ADMIN_TOKEN, vars: { id: d.apiKey.id } });
    expect(read.apiKey?.['lastUsedAt']).toBe(new Date(h.clock.now).toISOString());
    expect(JSON.stringify(read)).not.toContain(d.key);
    expect((await auditOf(h.db, d.apiKey.id)).map((r) => [r.actor, r.action, r.to_state])).toEqual([
      ['operator', 'api_key.create', 'approved'],
    ]);
  });

  it('issueApiKey (administrator) defaults as REST: pending, "created by the operator"; the key waits for review', async () => {
    const d = (await ok<Issued>(ISSUE, { token: admin.token, vars: { plan: 'FREE' } })).issueApiKey;
    const rest = await call(h, 'POST', '/api/admin/api-keys', { token: admin.token, body: { plan: 'free' } });
    expect(rest.status).toBe(201);
    expect(d.apiKey).toMatchObject({
      plan: 'FREE',
      limitPerMinute: rest.body['limitPerMinute'],
      status: 'PENDING',
      description: rest.body['description'],
      reviewedAt: null,
    });
    expect(rest.body['description']).toBe('created by the operator');
    expect(await check(d.key)).toMatchObject({ ok: false, code: 'API_KEY_PENDING' });
    expect((await auditOf(h.db, d.apiKey.id)).at(-1)).toMatchObject({
      actor: `account:${admin.id}`,
      action: 'api_key.create',
    });
    // In the review queue like any other pending key.
    const queue = await ok<{ reviewApiKeys: { id: string }[] }>(REVIEW_KEYS, { token: admin.token });
    expect(queue.reviewApiKeys.map((k) => k.id)).toContain(d.apiKey.id);
  });

  it('issueApiKey refuses non-administrators and what REST refuses', async () => {
    expect(codes(await run(ISSUE, { vars: { plan: 'FREE' } }))).toEqual(['AUTH_REQUIRED']);
    expect(codes(await run(ISSUE, { token: alice.token, vars: { plan: 'FREE' } }))).toEqual(['FORBIDDEN']);
    for (const [vars, body] of [
      [
        { plan: 'FREE', limit: 5000 },
        { plan: 'free', limitPerMinute: 5000 },
      ],
      [
        { plan: 'ENTERPRISE', limit: 20_000 },
        { plan: 'enterprise', limitPerMinute: 20_000 },
      ],
      [
        { plan: 'PRO', description: '  ' },
        { plan: 'pro', description: '  ' },
      ],
      [
        { plan: 'PRO', description: 'd'.repeat(501) },
        { plan: 'pro', description: 'd'.repeat(501) },
      ],
    ] as const) {
      const rest = await call(h, 'POST', '/api/admin/api-keys', { token: ADMIN_TOKEN, body });
      const graph = await run(ISSUE, { token: ADMIN_TOKEN, vars });
      expect(graphError(graph), JSON.stringify(body)).toEqual(restError(rest));
      expect(graph.errors?.[0]?.extensions['http']).toMatchObject({ status: rest.status });
    }
  });

  it('adminRevokeApiKey revokes any approved key; the access check refuses it from then on', async () => {
    const r = await requestKey(alice.token, 'to be revoked by an admin');
    await ok(APPROVE_KEY, { token: ADMIN_TOKEN, vars: { id: r.apiKey.id } });
    expect(await check(r.key)).toMatchObject({ ok: true });

    expect(codes(await run(ADMIN_REVOKE, { token: alice.token, vars: { id: r.apiKey.id } }))).toEqual([
      'FORBIDDEN',
    ]);
    expect(codes(await run(ADMIN_REVOKE, { vars: { id: r.apiKey.id } }))).toEqual(['AUTH_REQUIRED']);
    expect(
      codes(
        await run(ADMIN_REVOKE, { token: admin.token, vars: { id: r.apiKey.id, reason: 'x'.repeat(501) } }),
      ),
    ).toEqual(['INVALID_BODY']);

    const d = await ok<{ adminRevokeApiKey: { status: string; revokedAt: string } }>(ADMIN_REVOKE, {
      token: admin.token,
      vars: { id: r.apiKey.id, reason: 'abuse' },
    });
    expect(d.adminRevokeApiKey).toMatchObject({
      status: 'REVOKED',
      revokedAt: new Date(h.clock.now).toISOString(),
    });
    expect(await check(r.key)).toMatchObject({ ok: false, code: 'API_KEY_REVOKED' });
    expect((await auditOf(h.db, r.apiKey.id)).at(-1)).toMatchObject({
      actor: `account:${admin.id}`,
      action: 'api_key.revoke',
      reason: 'abuse',
    });
    // The owner's list shows it revoked.
    const mine = await ok<{ me: { apiKeys: { id: string; status: string }[] } }>(
      `{ me { apiKeys { id status } } }`,
      {
        token: alice.token,
      },
    );
    expect(mine.me.apiKeys.find((k) => k.id === r.apiKey.id)?.status).toBe('REVOKED');

    // Same refusals as REST: a revoked (or pending) key, an unknown id. No reason is needed.
    const pending = await requestKey(bob.token, 'pending');
    for (const id of [r.apiKey.id, pending.apiKey.id, 'nope', '00000000-0000-4000-8000-000000000000']) {
      const rest = await call(h, 'POST', `/api/admin/api-keys/${id}/revoke`, {
        token: ADMIN_TOKEN,
        body: {},
      });
      expect(graphError(await run(ADMIN_REVOKE, { token: ADMIN_TOKEN, vars: { id } })), id).toEqual(
        restError(rest),
      );
    }
    await ok(APPROVE_KEY, { token: ADMIN_TOKEN, vars: { id: pending.apiKey.id } });
    await ok(ADMIN_REVOKE, { token: ADMIN_TOKEN, vars: { id: pending.apiKey.id } });
  });

  it('apiKey: any key for administrators (as REST /admin/api-keys/:id), its own for an account, else null', async () => {
    const r = await requestKey(alice.token, 'lookup');
    const rest = await call(h, 'GET', `/api/admin/api-keys/${r.apiKey.id}`, { token: ADMIN_TOKEN });
    const b = rest.body as Record<string, unknown>;
    const asAdmin = await ok<KeyOut>(API_KEY, { token: admin.token, vars: { id: r.apiKey.id } });
    const iso = (v: unknown) => (v === null ? null : new Date(v as number).toISOString());
    expect(asAdmin.apiKey).toEqual({
      id: b['id'],
      prefix: b['prefix'],
      plan: (b['plan'] as string).toUpperCase(),
      limitPerMinute: b['limitPerMinute'],
      status: (b['status'] as string).toUpperCase(),
      description: b['description'],
      rejectionReason: b['rejectionReason'],
      createdAt: iso(b['createdAt']),
      reviewedAt: iso(b['reviewedAt']),
      revokedAt: iso(b['revokedAt']),
      lastUsedAt: iso(b['lastUsedAt']),
      owner: { id: alice.id },
    });
    expect(await ok(API_KEY, { token: ADMIN_TOKEN, vars: { id: r.apiKey.id } })).toEqual(asAdmin);
    // The owner sees it (without the owner field), another account does not.
    const own = await ok<KeyOut>(API_KEY, { token: alice.token, vars: { id: r.apiKey.id } });
    expect(own.apiKey).toEqual({ ...asAdmin.apiKey, owner: null });
    expect(await ok(API_KEY, { token: bob.token, vars: { id: r.apiKey.id } })).toEqual({ apiKey: null });
    // Absent is null, where REST answers KEY_NOT_FOUND.
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      expect(await ok(API_KEY, { token: admin.token, vars: { id } })).toEqual({ apiKey: null });
      expect((await call(h, 'GET', `/api/admin/api-keys/${id}`, { token: ADMIN_TOKEN })).code).toBe(
        'KEY_NOT_FOUND',
      );
    }
    expect(codes(await run(API_KEY, { vars: { id: r.apiKey.id } }))).toEqual(['AUTH_REQUIRED']);
    expect(codes(await run(API_KEY, { token: 'cws_' + 'v'.repeat(43), vars: { id: r.apiKey.id } }))).toEqual([
      'INVALID_SESSION',
    ]);
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

describe('createPartner', () => {
  const CREATE = `mutation ($name: String!) { createPartner(name: $name) { secret partner { id name createdAt } } }`;
  type Created = {
    createPartner: { secret: string; partner: { id: string; name: string; createdAt: string } };
  };

  it('returns the secret once; only its hash is stored; the partner signs REST partner requests with it', async () => {
    const d = (await ok<Created>(CREATE, { token: admin.token, vars: { name: '  Exchange G ' } }))
      .createPartner;
    expect(d.secret).toMatch(/^cwp_[A-Za-z0-9_-]{43}$/);
    expect(d.partner).toEqual({
      id: expect.any(String),
      name: 'Exchange G',
      createdAt: new Date(h.clock.now).toISOString(),
    });
    const rows = await h.db.query<Record<string, unknown>>('SELECT * FROM partners WHERE id = $1', [
      d.partner.id,
    ]);
    expect(rows.rows[0]?.['key_hash']).toBe(partnerKeyHash(d.secret));
    expect(JSON.stringify(rows.rows)).not.toContain(d.secret);
    expect(await auditOf(h.db, d.partner.id)).toEqual([
      expect.objectContaining({
        actor: `account:${admin.id}`,
        action: 'partner.create',
        reason: 'Exchange G',
      }),
    ]);

    // The partner API stays REST (HMAC over the HTTP request): the names API over the same store accepts the secret.
    const now = () => h.clock.now;
    const auth = new AuthService(h.db, { domain: DOMAIN, now });
    const app = Fastify();
    registerErrorHandling(app);
    await app.register(namesApi, {
      prefix: '/api',
      db: h.db,
      guards: createAuthGuards({ auth, adminToken: ADMIN_TOKEN }),
      names: new NameService(h.db, { suffix: 'coin', network: 'mainnet', now }),
      now,
    });
    await app.ready();
    try {
      const names = { app, db: h.db, auth, clock: h.clock, close: async () => undefined };
      const cred = { id: d.partner.id, secret: d.secret };
      const reg = await partnerCall(names, cred, 'POST', '/api/partner/names', {
        name: 'gql.coin',
        owner: 'user-7',
      });
      expect(reg.status).toBe(201);
      expect(reg.body['holder']).toEqual({ type: 'partner', partnerId: d.partner.id, ownerRef: 'user-7' });
      const forged = await partnerCall(
        names,
        cred,
        'POST',
        '/api/partner/names',
        { name: 'gql2.coin', owner: 'u' },
        {
          secret: `cwp_${'A'.repeat(43)}`,
        },
      );
      expect(forged.status).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('is for administrators and the operator, with REST body rules', async () => {
    expect(codes(await run(CREATE, { vars: { name: 'x' } }))).toEqual(['AUTH_REQUIRED']);
    const forbidden = await run(CREATE, { token: alice.token, vars: { name: 'x' } });
    expect(codes(forbidden)).toEqual(['FORBIDDEN']);
    expect(forbidden.errors?.[0]?.message).toBe(
      'this endpoint is for administrators: your account is not one',
    );
    expect(
      (await ok<Created>(CREATE, { token: ADMIN_TOKEN, vars: { name: 'Exchange H' } })).createPartner.partner
        .name,
    ).toBe('Exchange H');
    for (const name of ['', '   ', 'n'.repeat(101)]) {
      const r = await run(CREATE, { token: ADMIN_TOKEN, vars: { name } });
      expect(codes(r), name).toEqual(['INVALID_BODY']);
      expect(r.errors?.[0]?.message).toBe('name must be a string of 1 to 100 characters');
    }
  });
});
