import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccess } from '../../src/access/access.ts';
import type { Access, AccessRequest } from '../../src/access/access.ts';
import { ApiKeyService } from '../../src/accounts/keys.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import { accessHook } from '../../src/rest/access-hook.ts';
import { registerErrorHandling } from '../../src/rest/errors.ts';
import { ApiError } from '../../src/core/errors.ts';
import type { Db } from '../../src/store/db.ts';
import { openDb } from '../../src/store/open.ts';

let db: Db;
let keys: ApiKeyService;

beforeAll(async () => {
  db = await openDb({});
  keys = new ApiKeyService(db, { pepper: 'test-pepper-0123456789abcdef' });
});
afterAll(async () => {
  await db.close();
});

/** A tiny app: a guarded `/v1/agg/ping` that reports what the route saw, and unguarded neighbours. */
async function app(
  partial: Pick<Access, 'check'> & Partial<Pick<Access, 'enter'>>,
): Promise<FastifyInstance & { routeCalls: number }> {
  const access = { enter: () => () => undefined, ...partial };
  const a = Fastify() as unknown as FastifyInstance & { routeCalls: number };
  a.routeCalls = 0;
  registerErrorHandling(a);
  accessHook(access, { prefixes: ['/v1/agg/'] })(a);
  accessHook(access, { prefixes: ['/api/resolve'] })(a); // a second service on the same app
  const seen = (req: { access: unknown }) => {
    a.routeCalls++;
    return { access: req.access };
  };
  a.get('/v1/agg/ping', seen);
  a.options('/v1/agg/ping', () => 'options');
  a.get('/v1/agg/bad', () => {
    throw new ApiError(400, 'INVALID_PARAMETER', 'vs_currency must be a supported currency');
  });
  a.get('/v1/agg/slow', () => slow.promise);
  a.get('/v1/aggx', seen);
  a.get('/healthz', seen);
  await a.ready();
  return a;
}

/** What `/v1/agg/slow` waits for, and how the test lets it go on. */
function deferred(): { promise: Promise<string>; resolve: (v: string) => void } {
  let resolve: (v: string) => void = () => undefined;
  const promise = new Promise<string>((r) => (resolve = r));
  return { promise, resolve };
}
let slow = deferred();

const limited = (keyless = 240) =>
  createAccess({ keys, limiter: createMemoryLimiter(), keylessPerMinute: keyless });

describe('accessHook', () => {
  it('admits keyless requests with headers, and the route sees the plan', async () => {
    const a = await app(limited());
    const r = await a.inject({ url: '/v1/agg/ping', remoteAddress: '198.51.100.7' });
    expect(r.statusCode).toBe(200);
    expect(r.headers).toMatchObject({
      'x-api-plan': 'keyless',
      'x-ratelimit-limit': '240',
      'x-ratelimit-remaining': '239',
    });
    expect(r.json()).toMatchObject({ access: { plan: 'keyless', identity: 'ip:198.51.100.7', key: null } });
  });

  it('admits a key from the query string', async () => {
    const { key, record } = await keys.create({ plan: 'free', description: 'hook', approve: true });
    const a = await app(limited());
    const r = await a.inject({ url: '/v1/agg/ping', query: { x_sp_api_key: key } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['x-api-plan']).toBe('free');
    expect(r.headers['x-ratelimit-limit']).toBe('600');
    expect(r.json()).toMatchObject({ access: { plan: 'free', key: { id: record.id } } });
  });

  it('keeps the rate-limit headers on an error response of the route', async () => {
    const a = await app(limited());
    const r = await a.inject({ url: '/v1/agg/bad' });
    expect(r.statusCode).toBe(400);
    expect(r.headers).toMatchObject({ 'x-api-plan': 'keyless', 'x-ratelimit-limit': '240' });
  });

  it('answers 401 with the JSON error before any route work', async () => {
    const a = await app(limited());
    const r = await a.inject({
      url: '/v1/agg/ping',
      headers: { 'x-cg-pro-api-key': 'cw_live_' + '5'.repeat(44) },
    });
    expect(r.statusCode).toBe(401);
    expect(r.json()).toEqual({ error: { code: 'API_KEY_UNKNOWN', message: expect.any(String) as string } });
    expect(a.routeCalls).toBe(0);
  });

  it('answers 429 with Retry-After', async () => {
    const a = await app(limited(1));
    expect((await a.inject({ url: '/v1/agg/ping' })).statusCode).toBe(200);
    const r = await a.inject({ url: '/v1/agg/ping' });
    expect(r.statusCode).toBe(429);
    expect(r.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(r.headers['x-ratelimit-remaining']).toBe('0');
    expect(r.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect(a.routeCalls).toBe(1);
  });

  it('leaves other paths and CORS preflights alone', async () => {
    const calls: AccessRequest[] = [];
    const spy: Pick<Access, 'check'> = {
      check: (req) => {
        calls.push(req);
        return Promise.resolve({
          ok: false,
          status: 401,
          code: 'API_KEY_UNKNOWN',
          message: 'no',
          headers: {},
        });
      },
    };
    const a = await app(spy);
    const health = await a.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.headers['x-api-plan']).toBeUndefined();
    expect(health.json()).toEqual({ access: null });
    expect((await a.inject({ url: '/v1/aggx' })).statusCode).toBe(200);
    const preflight = await a.inject({
      method: 'OPTIONS',
      url: '/v1/agg/ping',
      headers: { origin: 'https://dapp.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(200);
    expect(calls).toHaveLength(0);
    expect((await a.inject({ url: '/v1/agg/ping?x=1' })).statusCode).toBe(401);
    expect((await a.inject({ url: '/api/resolve/alice.ltc' })).statusCode).toBe(401);
    expect(calls).toHaveLength(2);
  });

  it('holds at most the plan’s requests in flight per caller (keyless 6): the seventh is 429 until one is answered', async () => {
    const a = await app(limited());
    await a.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(a.server.address() as { port: number }).port}`;
    slow = deferred();
    const held = Array.from({ length: 6 }, () => fetch(`${base}/v1/agg/slow`));
    // Wait until the six are in flight (each holds its place from its access check on).
    await new Promise((r) => setTimeout(r, 100));
    const seventh = await fetch(`${base}/v1/agg/slow`);
    expect(seventh.status).toBe(429);
    expect(seventh.headers.get('retry-after')).toBe('1');
    expect((await seventh.json()) as unknown).toMatchObject({ error: { code: 'TOO_MANY_CONCURRENT' } });
    slow.resolve('done');
    for (const r of await Promise.all(held)) expect(r.status).toBe(200);
    // Places given back: six more at once are admitted (already answered, they end at once).
    for (const r of await Promise.all(Array.from({ length: 6 }, () => fetch(`${base}/v1/agg/slow`))))
      expect(r.status).toBe(200);
    // A connection cut before its answer gives its place back too.
    slow = deferred();
    const cut = Array.from({ length: 6 }, () => {
      const c = new AbortController();
      return { c, r: fetch(`${base}/v1/agg/slow`, { signal: c.signal }).catch(() => null) };
    });
    await new Promise((r) => setTimeout(r, 100));
    for (const { c } of cut) c.abort();
    await Promise.all(cut.map((x) => x.r));
    await new Promise((r) => setTimeout(r, 100));
    const again = Array.from({ length: 6 }, () => fetch(`${base}/v1/agg/slow`));
    await new Promise((r) => setTimeout(r, 100));
    slow.resolve('done');
    for (const r of await Promise.all(again)) expect(r.status).toBe(200);
    await a.close();
  });

  it('turns a failing check into the 500 error body', async () => {
    const a = await app({ check: () => Promise.reject(new Error('db down')) });
    const r = await a.inject({ url: '/v1/agg/ping' });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toMatchObject({ error: { code: 'INTERNAL' } });
  });
});
