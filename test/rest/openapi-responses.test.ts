/**
 * Real responses match the combined OpenAPI document (`/openapi.json`): the product's server with every REST surface
 * (openapi-server.ts) is driven over HTTP on loopback the way clients use it — wallets that really sign, partners
 * that really sign their requests, the operator token — and every answer, success or error, is validated against
 * the schema the document gives for its operation and status (an answer with a status the document does not list
 * fails). Request bodies that succeed are validated against the documented request schema too, and every query
 * parameter used must be documented. At the end, every documented operation must have been seen succeeding, and
 * failing with a client error where it documents one.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoSnapshot } from '../../src/bridge/snapshots.ts';
import { signPartnerRequest } from '../../src/names/partner-auth.ts';
import { TEST_NOW } from '../support/price-app.ts';
import { bareServer } from '../server/bare-server.ts';
import { wallet } from '../names/harness.ts';
import type { Wallet } from '../names/harness.ts';
import { ADMIN_TOKEN, openapiServer, schemasOf } from './openapi-server.ts';
import type { Doc, OpenapiServer } from './openapi-server.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let s: OpenapiServer;
let doc: Doc;
let v: ReturnType<typeof schemasOf>;
/** `METHOD path` → the statuses seen. */
const seen = new Map<string, Set<number>>();

beforeAll(async () => {
  s = await openapiServer();
  doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as Doc;
  v = schemasOf(doc);
}, 120_000);
afterAll(async () => {
  await s?.close();
});

interface Hit {
  token?: string;
  body?: unknown;
  /** Sent as is (instead of `body`). */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/**
 * One request to `url`, the operation `method path` of the document; expects `status` and a body valid against
 * the document's schema for it. Returns the parsed body (null for an empty one).
 */
async function hit(method: Method, path: string, url: string, status: number, o: Hit = {}): Promise<Body> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers['authorization'] = `Bearer ${o.token}`;
  const payload = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
  if (payload !== undefined) headers['content-type'] ??= o.contentType ?? 'application/json';
  const res = await fetch(`${s.url}${url}`, {
    method,
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  });
  const text = await res.text();
  expect([method, url, res.status, text.slice(0, 300)]).toEqual([method, url, status, text.slice(0, 300)]);
  const check = v.response(method, path, status);
  let body: Body = null as unknown as Body;
  if (check === 'empty') expect(text).toBe('');
  else {
    expect(res.headers.get('content-type'), url).toMatch(/^application\/json/);
    body = JSON.parse(text) as Body;
    const ok = check(body);
    expect(
      ok ? [] : v.ajv.errorsText(check.errors, { separator: '\n' }).split('\n').slice(0, 8),
      `${method} ${url}`,
    ).toEqual([]);
  }
  // What the server accepted, the document accepts too.
  if (status < 300 && o.body !== undefined) {
    const request = v.request(method, path);
    expect(request, `${method} ${path} has no request body`).not.toBeNull();
    expect(request?.(o.body) ? [] : v.ajv.errorsText(request?.errors), `${method} ${path} request`).toEqual(
      [],
    );
  }
  const params = doc.paths[path]?.[method.toLowerCase()]?.parameters ?? [];
  for (const name of new URLSearchParams(url.split('?')[1] ?? '').keys())
    expect(
      params.some((p) => p.in === 'query' && p.name === name),
      `${path} ?${name}`,
    ).toBe(true);
  const key = `${method} ${path}`;
  seen.set(key, (seen.get(key) ?? new Set()).add(status));
  return body;
}

/** Signs in `w` (challenge, signature, session); returns the session token. */
async function signIn(w: Wallet): Promise<string> {
  const c = await hit('POST', '/api/auth/challenge', '/api/auth/challenge', 200, {
    body: { address: w.address },
  });
  const r = await hit('POST', '/api/auth/session', '/api/auth/session', 201, {
    body: { address: w.address, signature: w.sign(c.challenge as string), nonce: c.nonce },
  });
  return r.token as string;
}

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const alice = wallet();
const bob = wallet();
let aliceToken = '';
let bobToken = '';

describe('accounts: sign-in, sessions and API keys', () => {
  it('signs in, with the errors of a bad body, a bad signature and no session', async () => {
    aliceToken = await signIn(alice);
    bobToken = await signIn(bob);
    await hit('POST', '/api/auth/challenge', '/api/auth/challenge', 400, { body: {} });
    await hit('POST', '/api/auth/challenge', '/api/auth/challenge', 400, {
      body: { address: 'not-an-address' },
    });
    await hit('POST', '/api/auth/challenge', '/api/auth/challenge', 400, { raw: '{"address":' });
    await hit('POST', '/api/auth/challenge', '/api/auth/challenge', 415, {
      raw: 'address=x',
      contentType: 'application/x-www-form-urlencoded',
    });
    await hit('POST', '/api/auth/challenge', '/api/auth/challenge', 413, {
      body: { address: 'x'.repeat(20_000) },
    });
    const c = await hit('POST', '/api/auth/challenge', '/api/auth/challenge', 200, {
      body: { address: alice.address },
    });
    await hit('POST', '/api/auth/session', '/api/auth/session', 401, {
      body: { address: alice.address, signature: bob.sign(c.challenge as string), nonce: c.nonce },
    });
    await hit('POST', '/api/auth/session', '/api/auth/session', 400, {
      body: { address: alice.address, signature: 'not base64', nonce: c.nonce },
    });
    const me = await hit('GET', '/api/account/me', '/api/account/me', 200, { token: aliceToken });
    expect(me.address).toBe(alice.address);
    await hit('GET', '/api/account/me', '/api/account/me', 401);
  });

  it('requests, lists and revokes keys; an administrator reviews them', async () => {
    const path = '/api/account/api-keys';
    const pending = await hit('POST', path, path, 201, {
      token: aliceToken,
      body: { description: 'my dashboard', plan: 'free' },
    });
    await hit('POST', path, path, 400, { token: aliceToken, body: { description: 'x', plan: 'platinum' } });
    await hit('POST', path, path, 401, { body: { description: 'x', plan: 'free' } });
    expect((await hit('GET', path, path, 200, { token: aliceToken })).length).toBe(1);
    await hit('GET', path, path, 401, { token: 'cws_nope' });
    await hit('GET', `${path}/{id}`, `${path}/${pending.id}`, 200, { token: aliceToken });
    await hit('GET', `${path}/{id}`, `${path}/${pending.id}`, 404, { token: bobToken });
    await hit('POST', `${path}/{id}/revoke`, `${path}/${pending.id}/revoke`, 409, {
      token: aliceToken,
      body: {},
    });
    await hit('POST', `${path}/{id}/revoke`, `${path}/${UNKNOWN_ID}/revoke`, 404, { token: aliceToken });

    const admin = '/api/admin/api-keys';
    const queue = await hit('GET', admin, `${admin}?status=pending`, 200, { token: ADMIN_TOKEN });
    expect(queue.map((k: Body) => k.id)).toContain(pending.id);
    await hit('GET', admin, `${admin}?status=maybe`, 400, { token: ADMIN_TOKEN });
    await hit('GET', admin, admin, 401);
    await hit('GET', admin, admin, 403, { token: aliceToken });
    await hit('GET', `${admin}/{id}`, `${admin}/${pending.id}`, 200, { token: ADMIN_TOKEN });
    await hit('GET', `${admin}/{id}`, `${admin}/not-a-uuid`, 404, { token: ADMIN_TOKEN });
    const op = await hit('POST', admin, admin, 201, {
      token: ADMIN_TOKEN,
      body: { plan: 'enterprise', description: 'automation', approve: true, limitPerMinute: 8000 },
    });
    expect(op.key).toMatch(/^cw_/);
    await hit('POST', admin, admin, 400, { token: ADMIN_TOKEN, body: { plan: 'pro', color: 'red' } });
    await hit('POST', `${admin}/{id}/approve`, `${admin}/${pending.id}/approve`, 200, {
      token: ADMIN_TOKEN,
      body: { reason: 'looks fine' },
    });
    await hit('POST', `${admin}/{id}/approve`, `${admin}/${pending.id}/approve`, 409, { token: ADMIN_TOKEN });
    await hit('POST', `${path}/{id}/revoke`, `${path}/${pending.id}/revoke`, 200, {
      token: aliceToken,
      body: { reason: 'rotating' },
    });
    const other = await hit('POST', path, path, 201, {
      token: aliceToken,
      body: { description: 'b', plan: 'pro' },
    });
    await hit('POST', `${admin}/{id}/reject`, `${admin}/${other.id}/reject`, 400, {
      token: ADMIN_TOKEN,
      body: {},
    });
    await hit('POST', `${admin}/{id}/reject`, `${admin}/${other.id}/reject`, 200, {
      token: ADMIN_TOKEN,
      body: { reason: 'tell us more about the project' },
    });
    await hit('POST', `${admin}/{id}/reject`, `${admin}/${UNKNOWN_ID}/reject`, 404, {
      token: ADMIN_TOKEN,
      body: { reason: 'x' },
    });
    await hit('POST', `${admin}/{id}/revoke`, `${admin}/${op.id}/revoke`, 200, {
      token: ADMIN_TOKEN,
      body: {},
    });
    await hit('POST', `${admin}/{id}/revoke`, `${admin}/${op.id}/revoke`, 409, { token: ADMIN_TOKEN });
  });

  it('grants and revokes the administrator role', async () => {
    const path = '/api/admin/admins';
    await hit('POST', path, path, 200, {
      token: ADMIN_TOKEN,
      body: { address: bob.address, reason: 'new admin' },
    });
    const admins = await hit('GET', path, path, 200, { token: bobToken });
    expect(admins.map((a: Body) => a.address)).toEqual([bob.address]);
    await hit('GET', path, path, 403, { token: aliceToken });
    await hit('POST', path, path, 400, { token: ADMIN_TOKEN, body: { address: 'nope' } });
    await hit('POST', `${path}/revoke`, `${path}/revoke`, 404, {
      token: ADMIN_TOKEN,
      body: { address: wallet().address },
    });
    await hit('POST', `${path}/revoke`, `${path}/revoke`, 200, {
      token: bobToken,
      body: { address: bob.address },
    });
  });
});

describe('accounts: the dapp store', () => {
  const dapp = (n: number) => ({
    name: `Dapp ${n}`,
    site: `https://dapp${n}.example/`,
    icon: `https://dapp${n}.example/icon.png`,
    description: 'Swaps coins',
    contactEmail: `dev@dapp${n}.example`,
    chains: ['LTC', 'DOGE'],
  });

  it('submits, reviews, lists and delists', async () => {
    const mine = '/api/account/dapps';
    const d1 = await hit('POST', mine, mine, 201, { token: aliceToken, body: dapp(1) });
    const d2 = await hit('POST', mine, mine, 201, { token: aliceToken, body: dapp(2) });
    await hit('POST', mine, mine, 201, { token: aliceToken, body: dapp(3) });
    await hit('POST', mine, mine, 429, { token: aliceToken, body: dapp(4) });
    await hit('POST', mine, mine, 400, {
      token: bobToken,
      body: { ...dapp(5), site: 'http://insecure.example' },
    });
    await hit('POST', mine, mine, 401, { body: dapp(6) });
    expect((await hit('GET', mine, mine, 200, { token: aliceToken })).length).toBe(3);
    await hit('GET', mine, mine, 401);

    const admin = '/api/admin/dapps';
    const queue = await hit('GET', admin, `${admin}?status=submitted&page=1&per_page=2`, 200, {
      token: ADMIN_TOKEN,
    });
    expect(queue.length).toBe(2);
    await hit('GET', admin, `${admin}?per_page=0`, 400, { token: ADMIN_TOKEN });
    await hit('POST', `${admin}/{id}/approve`, `${admin}/${d1.id}/approve`, 200, { token: ADMIN_TOKEN });
    await hit('POST', `${admin}/{id}/approve`, `${admin}/${d1.id}/approve`, 409, {
      token: ADMIN_TOKEN,
      body: {},
    });
    await hit('POST', `${admin}/{id}/approve`, `${admin}/${UNKNOWN_ID}/approve`, 404, { token: ADMIN_TOKEN });
    await hit('POST', `${admin}/{id}/reject`, `${admin}/${d2.id}/reject`, 400, {
      token: ADMIN_TOKEN,
      body: {},
    });
    await hit('POST', `${admin}/{id}/reject`, `${admin}/${d2.id}/reject`, 200, {
      token: ADMIN_TOKEN,
      body: { notes: 'the site does not load' },
    });

    const store = await hit('GET', '/api/dapps', '/api/dapps?chain=ltc&page=1&per_page=10', 200);
    expect(store.dapps.map((d: Body) => d.id)).toEqual([d1.id]);
    await hit('GET', '/api/dapps', '/api/dapps?chain=XYZ', 400);
    const access = await hit(
      'GET',
      '/api/dapps/access',
      '/api/dapps/access?origin=https://dapp1.example/swap',
      200,
    );
    expect(access).toEqual({ origin: 'https://dapp1.example', allowed: true, dappId: d1.id });
    await hit('GET', '/api/dapps/access', '/api/dapps/access', 400);

    await hit('POST', `${admin}/{id}/delist`, `${admin}/${d2.id}/delist`, 409, {
      token: ADMIN_TOKEN,
      body: { notes: 'x' },
    });
    await hit('POST', `${admin}/{id}/delist`, `${admin}/${d1.id}/delist`, 200, {
      token: ADMIN_TOKEN,
      body: { notes: 'reported as a scam' },
    });
  });
});

describe('names', () => {
  it('registers, links with proof, resolves (single, bulk, reverse), sets a primary name and transfers', async () => {
    await hit('POST', '/api/names', '/api/names', 201, { token: aliceToken, body: { name: 'alice.coin' } });
    await hit('POST', '/api/names', '/api/names', 409, { token: bobToken, body: { name: 'alice.coin' } });
    await hit('POST', '/api/names', '/api/names', 400, {
      token: aliceToken,
      body: { name: 'no spaces.coin' },
    });
    await hit('POST', '/api/names', '/api/names', 401, { body: { name: 'carol.coin' } });
    expect((await hit('GET', '/api/names', '/api/names', 200, { token: aliceToken }))[0].name).toBe(
      'alice.coin',
    );
    await hit('GET', '/api/names', '/api/names', 401);
    await hit('PATCH', '/api/names/{name}', '/api/names/alice.coin', 200, {
      token: aliceToken,
      body: { private: false },
    });
    await hit('PATCH', '/api/names/{name}', '/api/names/alice.coin', 403, {
      token: bobToken,
      body: { private: true },
    });
    await hit('PATCH', '/api/names/{name}', '/api/names/nobody.coin', 404, {
      token: aliceToken,
      body: { private: true },
    });

    const link = '/api/names/{name}/addresses/{asset}';
    const c = await hit('POST', `${link}/challenge`, '/api/names/alice.coin/addresses/LTC/challenge', 200, {
      token: aliceToken,
      body: { address: alice.address },
    });
    await hit('POST', `${link}/challenge`, '/api/names/alice.coin/addresses/LTC/challenge', 400, {
      token: aliceToken,
      body: { address: 'DQ not an address' },
    });
    await hit('PUT', link, '/api/names/alice.coin/addresses/LTC', 400, {
      token: aliceToken,
      body: { address: alice.address },
    });
    await hit('PUT', link, '/api/names/alice.coin/addresses/LTC', 403, {
      token: aliceToken,
      body: { address: alice.address, signature: bob.sign(c.challenge as string), nonce: c.nonce },
    });
    const linked = await hit('PUT', link, '/api/names/alice.coin/addresses/LTC', 200, {
      token: aliceToken,
      body: { address: alice.address, signature: alice.sign(c.challenge as string), nonce: c.nonce },
    });
    expect(linked.addresses.LTC.address).toBe(alice.address);

    const resolve = '/api/resolve/{name}';
    const res = await fetch(`${s.url}/api/resolve/alice.coin?asset=LTC`);
    await res.arrayBuffer();
    await hit('GET', resolve, '/api/resolve/alice.coin?asset=LTC', 200);
    await hit('GET', resolve, '/api/resolve/alice.coin?asset=LTC', 304, {
      headers: { 'if-none-match': res.headers.get('etag') ?? '' },
    });
    await hit('GET', resolve, '/api/resolve/alice.coin', 400);
    await hit('GET', resolve, '/api/resolve/nobody.coin?asset=LTC', 404);
    await hit('GET', resolve, '/api/resolve/alice.coin?asset=DOGE', 404);
    const bulk = await hit('POST', '/api/resolve', '/api/resolve', 200, {
      body: {
        names: [
          { name: 'alice.coin', asset: 'LTC' },
          { name: 'nobody.coin', asset: 'LTC' },
          { name: 'bad name', asset: 'LTC' },
        ],
      },
    });
    expect(bulk.results.map((r: Body) => r.status)).toEqual([200, 404, 400]);
    await hit('POST', '/api/resolve', '/api/resolve', 400, { body: { names: 'alice.coin' } });

    const primary = '/api/names/{name}/primary/{asset}';
    const p = await hit('POST', `${primary}/challenge`, '/api/names/alice.coin/primary/LTC/challenge', 200, {
      token: aliceToken,
      body: { address: alice.address },
    });
    await hit('POST', `${primary}/challenge`, '/api/names/alice.coin/primary/LTC/challenge', 403, {
      token: bobToken,
      body: { address: bob.address },
    });
    await hit('PUT', primary, '/api/names/alice.coin/primary/LTC', 400, {
      token: aliceToken,
      body: { address: alice.address, nonce: p.nonce },
    });
    await hit('PUT', primary, '/api/names/alice.coin/primary/LTC', 200, {
      token: aliceToken,
      body: { address: alice.address, signature: alice.sign(p.challenge as string), nonce: p.nonce },
    });
    const reverse = '/api/reverse/{address}';
    const rr = await fetch(`${s.url}/api/reverse/${alice.address}?asset=LTC`);
    await rr.arrayBuffer();
    expect((await hit('GET', reverse, `/api/reverse/${alice.address}?asset=LTC`, 200)).name).toBe(
      'alice.coin',
    );
    await hit('GET', reverse, `/api/reverse/${alice.address}?asset=LTC`, 304, {
      headers: { 'if-none-match': rr.headers.get('etag') ?? '' },
    });
    await hit('GET', reverse, `/api/reverse/${bob.address}?asset=LTC`, 404);
    await hit('GET', reverse, `/api/reverse/${bob.address}?asset=ltc`, 400);
    await hit('DELETE', primary, '/api/names/alice.coin/primary/LTC', 200, { token: aliceToken });
    await hit('DELETE', primary, '/api/names/alice.coin/primary/LTC', 404, { token: aliceToken });
    await hit('DELETE', link, '/api/names/alice.coin/addresses/LTC', 200, { token: aliceToken });
    await hit('DELETE', link, '/api/names/nobody.coin/addresses/LTC', 404, { token: aliceToken });

    const transfer = '/api/names/{name}/transfer';
    await hit('POST', transfer, '/api/names/alice.coin/transfer', 400, { token: aliceToken, body: {} });
    await hit('POST', transfer, '/api/names/alice.coin/transfer', 403, {
      token: bobToken,
      body: { toAddress: alice.address },
    });
    const moved = await hit('POST', transfer, '/api/names/alice.coin/transfer', 200, {
      token: aliceToken,
      body: { toAddress: bob.address },
    });
    expect(moved.holder.type).toBe('account');
  });

  it('partners: credentials, and signed registration, linking and primary names', async () => {
    const created = await hit('POST', '/api/admin/partners', '/api/admin/partners', 201, {
      token: ADMIN_TOKEN,
      body: { name: 'Exchange' },
    });
    await hit('POST', '/api/admin/partners', '/api/admin/partners', 403, {
      token: aliceToken,
      body: { name: 'X' },
    });
    await hit('POST', '/api/admin/partners', '/api/admin/partners', 400, { token: ADMIN_TOKEN, body: {} });
    const partner = { id: created.id as string, secret: created.secret as string };
    /** A request signed by the partner (`sign: false` leaves the headers out). */
    const signed = (
      method: Method,
      path: string,
      url: string,
      status: number,
      body?: unknown,
      sign = true,
    ) => {
      const raw = body === undefined ? undefined : JSON.stringify(body);
      const headers = sign
        ? signPartnerRequest({
            partnerId: partner.id,
            secret: partner.secret,
            method,
            path: url,
            timestamp: Math.floor(TEST_NOW / 1000),
            nonce: randomBytes(16).toString('hex'),
            ...(raw === undefined ? {} : { body: raw }),
          })
        : {};
      return hit(method, path, url, status, {
        headers,
        ...(raw === undefined ? {} : { raw }),
        // A body that succeeded is checked against the request schema from `body`.
        ...(body === undefined || status >= 300 ? {} : { body }),
      });
    };
    const custodied = wallet();
    const other = wallet();
    await signed('POST', '/api/partner/names', '/api/partner/names', 201, {
      name: 'dana.coin',
      owner: 'user-42',
    });
    await signed(
      'POST',
      '/api/partner/names',
      '/api/partner/names',
      401,
      { name: 'erin.coin', owner: 'u' },
      false,
    );
    await signed('POST', '/api/partner/names', '/api/partner/names', 409, {
      name: 'dana.coin',
      owner: 'user-43',
    });
    await signed('PATCH', '/api/partner/names/{name}', '/api/partner/names/dana.coin', 200, {
      private: false,
    });
    await signed('PATCH', '/api/partner/names/{name}', '/api/partner/names/alice.coin', 403, {
      private: true,
    });
    const link = '/api/partner/names/{name}/addresses/{asset}';
    await signed('PUT', link, '/api/partner/names/dana.coin/addresses/LTC', 200, {
      address: custodied.address,
    });
    await signed('PUT', link, '/api/partner/names/dana.coin/addresses/LTC', 400, { address: 'nope' });
    const primary = '/api/partner/names/{name}/primary/{asset}';
    await signed('PUT', primary, '/api/partner/names/dana.coin/primary/LTC', 409, { address: other.address });
    await signed('PUT', primary, '/api/partner/names/dana.coin/primary/LTC', 200, {
      address: custodied.address,
    });
    await signed('DELETE', primary, '/api/partner/names/dana.coin/primary/LTC', 200);
    await signed('DELETE', primary, '/api/partner/names/dana.coin/primary/LTC', 404);
    await signed('DELETE', link, '/api/partner/names/dana.coin/addresses/LTC', 200);
    await signed('DELETE', link, '/api/partner/names/nobody.coin/addresses/LTC', 404);
  });

  it('signs out (the session no longer works)', async () => {
    await hit('POST', '/api/auth/logout', '/api/auth/logout', 204, { token: aliceToken });
    await hit('POST', '/api/auth/logout', '/api/auth/logout', 401, { token: aliceToken });
  });
});

describe('bridge', () => {
  it('coins, config, and the proof of reserves before and after the first snapshot', async () => {
    await hit('GET', '/api/proof-of-reserves', '/api/proof-of-reserves', 404);
    expect((await ensureDemoSnapshot(s.db, s.deployment, s.dataDir, TEST_NOW)).status).toBe('created');
    const por = await hit('GET', '/api/proof-of-reserves', '/api/proof-of-reserves', 200);
    expect(por.report.assets.length).toBeGreaterThan(0);
    const coins = await fetch(`${s.url}/api/coins`);
    await coins.arrayBuffer();
    await hit('GET', '/api/coins', '/api/coins', 200);
    await hit('GET', '/api/coins', '/api/coins', 304, {
      headers: { 'if-none-match': coins.headers.get('etag') ?? '' },
    });
    expect((await hit('GET', '/api/config', '/api/config', 200)).attestation.publicKey).toMatch(
      /^[0-9a-f]{64}$/,
    );
  });
});

describe('operator endpoints and the documents', () => {
  it('probes before and after the warm-up; /healthz ready and starting', async () => {
    await hit('GET', '/readyz', '/readyz', 503);
    await s.ready();
    await hit('GET', '/readyz', '/readyz', 200);
    await hit('GET', '/livez', '/livez', 200);
    expect((await hit('GET', '/healthz', '/healthz', 200)).status).toBe('ok');
    // A server whose market has not aggregated yet answers the documented 503.
    const bare = await bareServer();
    try {
      const r = await bare.app.inject({ url: '/healthz' });
      expect(r.statusCode).toBe(503);
      const check = v.response('GET', '/healthz', 503);
      expect(check !== 'empty' && check(r.json())).toBe(true);
    } finally {
      await bare.close();
    }
    seen.get('GET /healthz')?.add(503);
  });

  it('the documents', async () => {
    const r = await fetch(`${s.url}/openapi.json`);
    await r.arrayBuffer();
    await hit('GET', '/openapi.json', '/openapi.json', 200);
    await hit('GET', '/openapi.json', '/openapi.json', 304, {
      headers: { 'if-none-match': r.headers.get('etag') ?? '' },
    });
    await hit('GET', '/v1/agg/openapi.json', '/v1/agg/openapi.json', 200);
  });
});

/** Price API requests: [documented path, request, status]; the price API's own test has many more. */
const PRICE: [string, string, number][] = [
  ['/ping', '/ping', 200],
  ['/simple/price', '/simple/price?ids=litecoin,junkcoin&vs_currencies=usd,eur&include_market_cap=true', 200],
  ['/simple/price', '/simple/price?ids=litecoin', 400],
  ['/simple/supported_vs_currencies', '/simple/supported_vs_currencies', 200],
  ['/coins/markets', '/coins/markets?vs_currency=usd&sparkline=true&price_change_percentage=1h,24h', 200],
  ['/coins/markets', '/coins/markets?vs_currency=zzz', 400],
  ['/coins/list', '/coins/list?include_platform=true', 200],
  ['/coins/list', '/coins/list?include_platform=maybe', 400],
  ['/coins/{id}', '/coins/litecoin', 200],
  ['/coins/{id}', '/coins/no-such-coin', 404],
  ['/coins/{id}', '/coins/Bad%20Id', 400],
  ['/coins/{id}/market_chart', '/coins/litecoin/market_chart?vs_currency=usd&days=1', 200],
  ['/coins/{id}/market_chart', '/coins/litecoin/market_chart?vs_currency=usd', 400],
  ['/coins/{id}/market_chart', '/coins/no-such-coin/market_chart?vs_currency=usd&days=1', 404],
  [
    '/coins/{id}/market_chart/range',
    '/coins/litecoin/market_chart/range?vs_currency=usd&from=2026-11-20&to=2026-11-21',
    200,
  ],
  [
    '/coins/{id}/market_chart/range',
    '/coins/litecoin/market_chart/range?vs_currency=usd&from=2026-11-21&to=2026-11-20',
    400,
  ],
  ['/coins/{id}/ohlc', '/coins/litecoin/ohlc?vs_currency=usd&days=1', 200],
  ['/coins/{id}/ohlc', '/coins/litecoin/ohlc?vs_currency=usd&days=1&interval=hourly', 400],
  ['/coins/categories', '/coins/categories?order=name_asc', 200],
  ['/coins/categories', '/coins/categories?order=best', 400],
  ['/coins/categories/list', '/coins/categories/list', 200],
  ['/global', '/global', 200],
  ['/search', '/search?query=lite', 200],
  ['/search', '/search', 400],
  ['/search/trending', '/search/trending', 200],
  ['/coins/{id}/tickers', '/coins/litecoin/tickers?order=volume_desc', 200],
  ['/coins/{id}/tickers', '/coins/litecoin/tickers?order=best', 400],
  ['/coins/{id}/tickers', '/coins/no-such-coin/tickers', 404],
  ['/coins/{id}/history', '/coins/litecoin/history?date=20-11-2026', 200],
  ['/coins/{id}/history', '/coins/litecoin/history?date=31-02-2026', 400],
  ['/coins/{id}/history', '/coins/no-such-coin/history?date=20-11-2026', 404],
  [
    '/coins/{id}/ohlc/range',
    '/coins/litecoin/ohlc/range?vs_currency=usd&from=2026-11-20&to=2026-11-21&interval=hourly',
    200,
  ],
  ['/coins/{id}/ohlc/range', '/coins/litecoin/ohlc/range?vs_currency=usd&from=2026-11-20&to=2026-11-21', 400],
  [
    '/coins/{id}/ohlc/range',
    '/coins/no-such-coin/ohlc/range?vs_currency=usd&from=2026-11-20&to=2026-11-21&interval=daily',
    404,
  ],
  ['/coins/top_gainers_losers', '/coins/top_gainers_losers?vs_currency=usd', 200],
  ['/coins/top_gainers_losers', '/coins/top_gainers_losers?vs_currency=usd&top_coins=2', 400],
  ['/coins/list/new', '/coins/list/new', 200],
  ['/exchanges', '/exchanges?per_page=3&page=2', 200],
  ['/exchanges', '/exchanges?per_page=0', 400],
  ['/exchanges/list', '/exchanges/list?status=active', 200],
  ['/exchanges/list', '/exchanges/list?status=sleeping', 400],
  ['/exchanges/{id}', '/exchanges/demo-cex-alpha', 200],
  ['/exchanges/{id}', '/exchanges/no-such-venue', 404],
  ['/exchanges/{id}', '/exchanges/Bad%20Id', 400],
  ['/exchanges/{id}/tickers', '/exchanges/demo-cex-alpha/tickers?page=1', 200],
  ['/exchanges/{id}/tickers', '/exchanges/no-such-venue/tickers', 404],
  ['/exchange_rates', '/exchange_rates', 200],
  ['/global/market_cap_chart', '/global/market_cap_chart?days=1&vs_currency=eur', 200],
  ['/global/market_cap_chart', '/global/market_cap_chart?days=0', 400],
];

describe('the price API in the combined document', () => {
  it.each(PRICE)('%s: GET %s → %i', async (path, url, status) => {
    await hit('GET', `/v1/agg${path}`, `/v1/agg${url}`, status);
  });
});

/** Operations that take no input at all: nothing a client sends can be a client error (beyond a rate limit). */
const NO_CLIENT_ERROR = new Set(
  [
    '/ping',
    '/simple/supported_vs_currencies',
    '/coins/categories/list',
    '/global',
    '/search/trending',
    '/coins/list/new',
    '/exchange_rates',
    '/openapi.json',
  ]
    .map((p) => `GET /v1/agg${p}`)
    .concat([
      'GET /api/coins',
      'GET /api/config',
      'GET /healthz',
      'GET /livez',
      'GET /readyz',
      'GET /openapi.json',
    ]),
);

describe('coverage', () => {
  it('every documented operation was seen succeeding, and failing with a client error', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths))
      for (const method of Object.keys(item)) {
        const key = `${method.toUpperCase()} ${path}`;
        const statuses = [...(seen.get(key) ?? [])];
        if (!statuses.some((st) => st < 300)) missing.push(`${key}: no success`);
        if (!NO_CLIENT_ERROR.has(key) && !statuses.some((st) => st >= 400 && st < 500))
          missing.push(`${key}: no client error`);
      }
    expect(missing).toEqual([]);
  });
});
