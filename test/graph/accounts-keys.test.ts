/**
 * The accounts subgraph's API keys (request, list, revoke, review) and the `Account` entity's lists by `_entities`,
 * with the SQL and loader batches they cost; in process over the accounts REST harness (`support/accounts.ts`).
 */
import { describe, expect, it } from 'vitest';
import { selectKeysOfOwners as keysByOwners } from '../../src/access/key-repo.ts';
import { DappService } from '../../src/accounts/dapps.ts';
import { ApiKeyService } from '../../src/accounts/keys.ts';
import { createServices } from '../../src/services.ts';
import { createAccountsSubgraph } from '../../subgraphs/accounts/index.ts';
import { ADMIN_TOKEN, DOMAIN, auditOf } from '../accounts/harness.ts';
import {
  admin,
  alice,
  APPROVE_KEY,
  batches,
  bob,
  codes,
  counting,
  h,
  headers,
  ok,
  REQUEST_KEY,
  requestKey,
  run,
  submit,
  useAccountsGraph,
  user,
} from './support/accounts.ts';

useAccountsGraph();

const REVOKE = `mutation ($id: ID!, $reason: String) { revokeApiKey(id: $id, reason: $reason) { id status revokedAt } }`;
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
    const now = () => h.clock.now;
    const sgCounted = createAccountsSubgraph({
      services: createServices(
        c.db,
        { domain: DOMAIN, nameSuffix: 'coin', nameNetwork: 'mainnet', now },
        { keys: new ApiKeyService(c.db, { pepper: 'test-pepper-0123456789abcdef', now }) },
      ),
      adminToken: ADMIN_TOKEN,
      now,
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
