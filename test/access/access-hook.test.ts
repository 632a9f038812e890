import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccess } from '../../src/access/access.ts';
import type { Access, AccessRequest } from '../../src/access/access.ts';
import { ApiKeyService } from '../../src/accounts/keys.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import { accessHook } from '../../src/rest/access-hook.ts';
import { registerErrorHandling } from '../../src/server/host/render.ts';
import { ApiError } from '../../src/core/errors.ts';
import { AccessRefusal } from '../../src/access/errors.ts';
import type { Db } from '../../src/store/db.ts';
import { openDb } from '../../src/store/open.ts';

let db: Db;
let keys: ApiKeyService;

beforeAll(async () => {
  db = await openDb({});
  keys = new ApiKeyService(db, { pepper: 'test-pepper-0123456789abcdef' });
}, 60_000); // an embedded store's start, slow on a busy machine
afterAll(async () => {
  await db.close();
});

/** A tiny app: a guarded `/v1/agg/ping` that reports what the route saw, and unguarded neighbours. */
async function app(
  partial: Pick<Access, 'check'> & Partial<Pick<Access, 'enter'>>,
): Promise<FastifyInstance & { routeCalls: number }> {
  const access = { enter: () => Promise.resolve(() => undefined), ...partial };
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
  a.get('/v1/agg/slow', (req) => {
    entered.push(String((req.query as { n?: string }).n));
    return slow.promise;
  });
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

/** Keyless callers with `places` in flight and `queue` waiting (for `waitMs`, default 5 s). */
const queued = (o: { places: number; queue: number; waitMs?: number }) =>
  createAccess({
    keys,
    limiter: createMemoryLimiter(),
    concurrency: { keyless: o.places },
    concurrencyQueue: { keyless: o.queue },
    concurrencyWaitMs: o.waitMs ?? 5_000,
  });

/** The `n` of each `/v1/agg/slow` request, in the order the route began them. */
let entered: string[] = [];

async function listening(a: FastifyInstance): Promise<string> {
  entered = [];
  await a.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(a.server.address() as { port: number }).port}`;
}

/** Until `cond` holds (checked every 5 ms, for 5 s at most). */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
}

/** Long enough for a request sent on loopback to reach its hook (or a close to reach the server). */
const settle = () => new Promise((r) => setTimeout(r, 50));

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
        return Promise.resolve(new AccessRefusal(new ApiError(401, 'API_KEY_UNKNOWN', 'no')));
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

  it('serves a caller’s places at once and queues the rest in order; past the queue 429 with Retry-After', async () => {
    const a = await app(queued({ places: 2, queue: 2 }));
    const base = await listening(a);
    slow = deferred();
    const first = [1, 2].map((n) => fetch(`${base}/v1/agg/slow?n=${n}`));
    await until(() => entered.length === 2);
    const waiting: Promise<Response>[] = [];
    for (const n of [3, 4]) {
      waiting.push(fetch(`${base}/v1/agg/slow?n=${n}`));
      await settle(); // 3 reaches the queue before 4
    }
    const fifth = await fetch(`${base}/v1/agg/slow?n=5`);
    expect(fifth.status).toBe(429);
    expect(fifth.headers.get('retry-after')).toBe('1');
    expect((await fifth.json()) as unknown).toEqual({
      error: {
        code: 'TOO_MANY_CONCURRENT',
        message:
          '2 requests in flight and 2 waiting is the most for requests without an API key from this address: send fewer requests at once, and retry after 1 s',
      },
    });
    slow.resolve('done');
    for (const r of await Promise.all([...first, ...waiting])) expect(r.status).toBe(200);
    expect(entered).toEqual(['1', '2', '3', '4']);
    await a.close();
  });

  it('refuses a request that waited its longest, 429 TOO_MANY_CONCURRENT', async () => {
    const a = await app(queued({ places: 1, queue: 4, waitMs: 200 }));
    const base = await listening(a);
    slow = deferred();
    const held = fetch(`${base}/v1/agg/slow?n=1`);
    await until(() => entered.length === 1);
    const t0 = performance.now();
    const late = await fetch(`${base}/v1/agg/slow?n=2`);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
    expect(late.status).toBe(429);
    expect(late.headers.get('retry-after')).toBe('1');
    expect((await late.json()) as unknown).toMatchObject({
      error: {
        code: 'TOO_MANY_CONCURRENT',
        message: expect.stringMatching(/^no place in flight came free within 0.2 s; /),
      },
    });
    slow.resolve('done');
    expect((await held).status).toBe(200);
    expect(entered).toEqual(['1']);
    await a.close();
  });

  it('lets a request whose client leaves while queued out of the queue; a cut connection gives its place back', async () => {
    const a = await app(queued({ places: 1, queue: 1 }));
    const base = await listening(a);
    slow = deferred();
    const held = fetch(`${base}/v1/agg/slow?n=1`);
    await until(() => entered.length === 1);
    const c = new AbortController();
    const leaving = fetch(`${base}/v1/agg/slow?n=2`, { signal: c.signal }).catch(() => null);
    await settle();
    c.abort();
    await leaving;
    await settle();
    // The queue's one slot is free again: this one waits instead of being refused, and the one that left never ran.
    const next = fetch(`${base}/v1/agg/slow?n=3`);
    await settle();
    slow.resolve('done');
    expect((await held).status).toBe(200);
    expect((await next).status).toBe(200);
    expect(entered).toEqual(['1', '3']);
    // A connection cut before its answer gives its place back: the next request is served.
    slow = deferred();
    const cut = new AbortController();
    const cutting = fetch(`${base}/v1/agg/slow?n=4`, { signal: cut.signal }).catch(() => null);
    await until(() => entered.length === 3);
    cut.abort();
    await cutting;
    await settle();
    slow.resolve('done');
    expect((await fetch(`${base}/v1/agg/slow?n=5`)).status).toBe(200);
    expect(entered).toEqual(['1', '3', '4', '5']);
    await a.close();
  });

  it('turns a failing check into the 500 error body', async () => {
    const a = await app({ check: () => Promise.reject(new Error('db down')) });
    const r = await a.inject({ url: '/v1/agg/ping' });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toMatchObject({ error: { code: 'INTERNAL' } });
  });
});
