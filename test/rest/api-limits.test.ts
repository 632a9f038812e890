/**
 * The `/api/*` rate limits (`src/access/api-limits.ts`, `src/rest/api-limits.ts`) on the whole server as the product
 * builds it (accounts, names, dapp store, bridge reads): public routes per client IP before any work, signed-in
 * routes per account, refused credentials in the IP's sign-in bucket. Small limits and a fake clock (only `Date`:
 * the windows slide over 60 s, counted in tenths: a request leaves the count 60–66 s after it was made).
 */
import type { FastifyInstance, LightMyRequestResponse, RouteOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiLimiter } from '../../src/access/api-limits.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import { MarketService } from '../../src/market/service.ts';
import { createServer } from '../../src/start/server.ts';
import { parseApiLimits } from '../../src/config.ts';
import { engineConfig } from '../../src/start/wiring.ts';
import type { Db } from '../../src/store/db.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { testServices } from '../support/services.ts';
import { ADMIN_TOKEN, wallet } from '../accounts/harness.ts';

const LIMITS = { challenge: 3, 'sign-in': 4, public: 5, account: 6, partner: 7 };

let app: FastifyInstance;
let db: Db;
const routes: RouteOptions[] = [];
beforeAll(async () => {
  db = await openMemoryDb();
  const engine = engineConfig({ staleAfterMs: 900_000 });
  const services = testServices(db, 'limits.test');
  app = await createServer({
    market: new MarketService({ db, engine }),
    engine,
    dataset: () => ({ kind: 'demo', notice: null }),
    accounts: {
      keys: services.keys,
      ownKeys: services.ownKeys,
      accounts: services.accounts,
      adminToken: ADMIN_TOKEN,
      auth: services.auth,
      dapps: services.dapps,
    },
    names: { names: services.names, partners: services.partners },
    ...(services.bridge ? { bridge: { bridge: services.bridge } } : {}),
    apiLimits: { limiter: createApiLimiter(createMemoryLimiter(), LIMITS), trustedProxies: [] },
    beforeRoutes: (a) => {
      a.addHook('onRoute', (r) => void routes.push(r));
    },
  });
  await app.ready();
}, 60_000);
afterAll(async () => {
  await app?.close();
  await db?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

let ips = 0;
const freshIp = () => `10.20.${Math.floor(++ips / 250)}.${ips % 250}`;

function req(
  method: string,
  url: string,
  o: { ip?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: method as 'GET',
    url,
    remoteAddress: o.ip ?? '10.99.99.99',
    headers: {
      ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
      ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...o.headers,
    },
    ...(o.body !== undefined ? { payload: JSON.stringify(o.body) } : {}),
  });
}
const code = (r: LightMyRequestResponse) => (r.json() as { error?: { code?: string } }).error?.code;

/** A session for a fresh wallet (its own IP, so no bucket of the test is touched). */
async function session(): Promise<string> {
  const w = wallet('p2wpkh');
  const ip = freshIp();
  const c = (await req('POST', '/api/auth/challenge', { ip, body: { address: w.address } })).json() as {
    challenge: string;
    nonce: string;
  };
  const s = await req('POST', '/api/auth/session', {
    ip,
    body: { address: w.address, signature: w.sign(c.challenge), nonce: c.nonce },
  });
  expect(s.statusCode).toBe(201);
  return (s.json() as { token: string }).token;
}

function expect429(r: LightMyRequestResponse, limit: number, what: RegExp): void {
  expect([r.statusCode, code(r)]).toEqual([429, 'RATE_LIMITED']);
  expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(66);
  expect(r.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(r.headers['x-ratelimit-remaining']).toBe('0');
  expect((r.json() as { error: { message: string } }).error.message).toMatch(what);
}

describe('/api rate limits', () => {
  it('every /api route is limited: public ones declare a per-IP bucket, the others answer 401 without credentials', async () => {
    const api = routes.filter((r) => r.url.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(30);
    const pub: string[] = [];
    for (const r of api) {
      const method = String(r.method);
      const url = r.url.replace(/:[a-z]+/g, 'x');
      if (r.config?.apiLimit) {
        pub.push(`${method} ${r.url} ${r.config.apiLimit}`);
        continue;
      }
      const res = await req(method, url, { ip: freshIp() });
      expect([`${method} ${r.url}`, res.statusCode]).toEqual([`${method} ${r.url}`, 401]);
    }
    expect(pub.sort()).toEqual([
      'GET /api/coins public',
      'GET /api/config public',
      'GET /api/dapps public',
      'GET /api/dapps/access public',
      'GET /api/proof-of-reserves public',
      'GET /api/resolve/:name public',
      'GET /api/reverse/:address public',
      'HEAD /api/coins public',
      'HEAD /api/config public',
      'HEAD /api/dapps public',
      'HEAD /api/dapps/access public',
      'HEAD /api/proof-of-reserves public',
      'HEAD /api/resolve/:name public',
      'HEAD /api/reverse/:address public',
      'POST /api/auth/challenge challenge',
      'POST /api/auth/session sign-in',
      'POST /api/resolve public',
    ]);
  });

  it('sign-in challenges per IP: over the limit 429 RATE_LIMITED with Retry-After, no row stored; a new window admits again', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 1_800_000_000_000 });
    const ip = freshIp();
    const w = wallet('p2pkh');
    const ask = (from = ip, headers: Record<string, string> = {}) =>
      req('POST', '/api/auth/challenge', { ip: from, body: { address: w.address }, headers });
    for (let i = 0; i < 3; i++) expect((await ask()).statusCode).toBe(200);
    const over = await ask();
    expect429(over, 3, /3 sign-in challenges per minute for this IP address/);
    // X-Forwarded-For from an untrusted peer changes nothing; another address has its own bucket.
    expect((await ask(ip, { 'x-forwarded-for': freshIp() })).statusCode).toBe(429);
    expect((await ask(freshIp())).statusCode).toBe(200);
    const rows = await db.query('SELECT 1 FROM auth_challenges WHERE address = $1', [w.address]);
    expect(rows.rows).toHaveLength(4);
    // On a tenth's start: the three leave 66 s later, when the fourth fits.
    vi.setSystemTime(Date.now() + 65_999);
    expect((await ask()).statusCode).toBe(429);
    vi.setSystemTime(Date.now() + 1);
    expect((await ask()).statusCode).toBe(200);
  });

  it('sign-in attempts and refused credentials share the IP’s sign-in bucket; 429 comes before any signature check', async () => {
    const ip = freshIp();
    const w = wallet('p2wpkh');
    const attempt = () =>
      req('POST', '/api/auth/session', { ip, body: { address: w.address, signature: 'AAAA' } });
    expect(code(await attempt())).toBe('MALFORMED_SIGNATURE');
    expect(code(await attempt())).toBe('MALFORMED_SIGNATURE');
    // A bearer token that is no session: 401, counted.
    expect(code(await req('GET', '/api/account/me', { ip, token: 'cws_' + 'A'.repeat(43) }))).toBe(
      'INVALID_SESSION',
    );
    // No credentials at all costs nothing and is not counted.
    expect(code(await req('GET', '/api/account/me', { ip }))).toBe('AUTH_REQUIRED');
    expect(code(await req('GET', '/api/names', { ip, token: 'garbage' }))).toBe('INVALID_SESSION');
    expect429(await attempt(), 4, /4 sign-in attempts and refused credentials per minute/);
    expect429(await req('GET', '/api/account/me', { ip, token: 'bogus' }), 4, /sign-in attempts/);
    // A valid session from the same address is not refused: its requests count per account.
    const token = await session();
    expect((await req('GET', '/api/account/me', { ip, token })).statusCode).toBe(200);
  });

  it('signed-in requests count per account (any IP), the operator as one identity', async () => {
    const one = await session();
    const two = await session();
    for (let i = 0; i < 6; i++)
      expect((await req('GET', '/api/account/me', { ip: freshIp(), token: one })).statusCode).toBe(200);
    expect429(
      await req('GET', '/api/names', { ip: freshIp(), token: one }),
      6,
      /6 requests per minute for this account/,
    );
    expect((await req('GET', '/api/account/me', { token: two })).statusCode).toBe(200);
    for (let i = 0; i < 6; i++)
      expect((await req('GET', '/api/admin/admins', { ip: freshIp(), token: ADMIN_TOKEN })).statusCode).toBe(
        200,
      );
    const op = await req('GET', '/api/admin/api-keys', { token: ADMIN_TOKEN, headers: {} });
    expect429(op, 6, /for this account/);
    // The operator token in a lower-case scheme is the same operator.
    expect(
      (await req('GET', '/api/admin/admins', { headers: { authorization: `bearer ${ADMIN_TOKEN}` } }))
        .statusCode,
    ).toBe(429);
  });

  it('public reads (resolution, the dapp store, bridge reads) share the IP’s public bucket', async () => {
    const ip = freshIp();
    const urls = [
      '/api/dapps',
      '/api/dapps/access?origin=https://a.example',
      '/api/resolve/alice.coin?asset=LTC',
    ];
    for (const url of [...urls, '/api/coins', '/api/config']) {
      const r = await req('GET', url, { ip });
      expect(r.statusCode).not.toBe(429);
    }
    for (const url of [...urls, '/api/coins', '/api/proof-of-reserves'])
      expect429(await req('GET', url, { ip }), 5, /5 requests per minute for this IP address/);
    expect((await req('GET', '/api/coins', { ip: freshIp() })).statusCode).toBe(200);
  });

  it('API_RATE_LIMITS: bucket=number pairs, checked', () => {
    expect(parseApiLimits('sign-in=10, public=600')).toEqual({ 'sign-in': 10, public: 600 });
    expect(parseApiLimits('')).toEqual({});
    expect(() => parseApiLimits('login=5')).toThrow(
      /"login=5" is not bucket=number with a bucket of challenge/,
    );
    expect(() => parseApiLimits('public=0')).toThrow(/public must be an integer from 1 to 1000000/);
    expect(() => parseApiLimits('public=1.5')).toThrow(/integer/);
  });
});
