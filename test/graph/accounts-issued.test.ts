/**
 * What administrators issue through the accounts subgraph: API keys (`issueApiKey`, `adminRevokeApiKey`, `apiKey`),
 * checked against the access check and REST, and partners (`createPartner`), whose secret signs REST partner requests.
 * Executed in process over the accounts REST harness (see `accounts.test.ts` and `support/accounts.ts`).
 */
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { createAccess } from '../../src/access/access.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import { AuthService } from '../../src/accounts/auth.ts';
import { partnerKeyHash } from '../../src/names/partner-auth.ts';
import { NameService } from '../../src/names/service.ts';
import { PartnerService } from '../../src/names/partners.ts';
import { createAuthGuards } from '../../src/rest/accounts/guards-impl.ts';
import { registerErrorHandling } from '../../src/server/host/render.ts';
import { namesApi } from '../../src/rest/names/index.ts';
import { ADMIN_TOKEN, DOMAIN, auditOf, call } from '../accounts/harness.ts';
import { partnerCall } from '../names/harness.ts';
import {
  admin,
  alice,
  APPROVE_KEY,
  bob,
  codes,
  graphError,
  h,
  ok,
  requestKey,
  restError,
  REVIEW_KEYS,
  run,
  useAccountsGraph,
} from './support/accounts.ts';

useAccountsGraph();

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
      guards: createAuthGuards({ auth, adminToken: ADMIN_TOKEN }),
      names: new NameService(h.db, { suffix: 'coin', network: 'mainnet', now }),
      partners: new PartnerService(h.db, { now }),
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
