/**
 * The accounts subgraph executed in process (graphql's `graphql()` against the built federated schema) over the
 * accounts REST harness: in-memory PGlite, a settable clock, real wallet sign-ins through the REST API. The subgraph
 * shares the harness's database and key service, so REST and the graph see the same accounts, sessions, keys and
 * dapps. This file: `me`, sign-in, administrators; see also `accounts-{keys,dapps,issued}.test.ts` and `support/`.
 */
import { describe, expect, it } from 'vitest';
import { parseChallenge } from '../../src/accounts/challenge.ts';
import { createServices } from '../../src/services.ts';
import { createAccountsSubgraph } from '../../subgraphs/accounts/index.ts';
import { ADMIN_TOKEN, DOMAIN, auditOf, call, signIn, wallet } from '../accounts/harness.ts';
import {
  admin,
  alice,
  codes,
  graphError,
  h,
  HOUR,
  ME,
  ok,
  restError,
  REVIEW_KEYS,
  run,
  useAccountsGraph,
  user,
} from './support/accounts.ts';

useAccountsGraph();

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
      services: createServices(
        h.db,
        { domain: DOMAIN, nameSuffix: 'coin', nameNetwork: 'mainnet', now: () => h.clock.now + 25 * HOUR },
        { keys: h.keys },
      ),
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
