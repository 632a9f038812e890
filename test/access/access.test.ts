import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccess } from '../../src/access/access.ts';
import type { AccessDecision, AccessRequest } from '../../src/access/access.ts';
import { ApiKeyService } from '../../src/accounts/keys.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import { redactUrl } from '../../src/access/request-key.ts';
import type { Db } from '../../src/store/db.ts';
import { openDb } from '../../src/store/open.ts';
import { ApiError } from '../../src/core/errors.ts';

let db: Db;
let keys: ApiKeyService;

beforeAll(async () => {
  db = await openDb({});
  keys = new ApiKeyService(db, { pepper: 'test-pepper-0123456789abcdef' });
});
afterAll(async () => {
  await db.close();
});

const access = () => createAccess({ keys, limiter: createMemoryLimiter(), trustedProxies: ['10.0.0.0/8'] });
const req = (r: Partial<AccessRequest> = {}): AccessRequest => ({
  headers: {},
  query: {},
  socketIp: '203.0.113.1',
  ...r,
});

async function keyIn(status: 'pending' | 'approved' | 'rejected' | 'revoked', limitPerMinute?: number) {
  const { key, record } = await keys.create({
    plan: limitPerMinute ? 'enterprise' : 'pro',
    description: `${status} key`,
    ...(limitPerMinute ? { limitPerMinute } : {}),
  });
  if (status === 'approved' || status === 'revoked') await keys.approve(record.id);
  if (status === 'revoked') await keys.revoke(record.id);
  if (status === 'rejected') await keys.reject(record.id, 'secret internal note about owner acct-77');
  return { key, id: record.id };
}

function denial(d: AccessDecision) {
  if (d.ok) throw new Error('expected a denial');
  return d;
}

describe('keyed requests', () => {
  it('admits an approved key with the plan headers', async () => {
    const { key, id } = await keyIn('approved');
    const d = await access().check(req({ headers: { 'x-sp-api-key': key } }));
    expect(d).toMatchObject({
      ok: true,
      plan: 'pro',
      identity: `key:${id}`,
      key: { id, status: 'approved' },
    });
    expect(d.headers).toEqual({
      'x-ratelimit-limit': '3000',
      'x-ratelimit-remaining': '2999',
      'x-ratelimit-reset': expect.stringMatching(/^6[0-6]$/) as string,
      'x-api-plan': 'pro',
    });
    // When this request leaves the sliding window: 11 tenths of a minute after its tenth began.
    expect(Number(d.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(66);
  });

  it.each([
    ['x-cg-pro-api-key', 'header'],
    ['x-cg-demo-api-key', 'header'],
    ['x_sp_api_key', 'query'],
    ['x_cg_pro_api_key', 'query'],
    ['x_cg_demo_api_key', 'query'],
  ])('accepts the key in %s (%s)', async (name, where) => {
    const { key, id } = await keyIn('approved');
    const r = where === 'header' ? req({ headers: { [name]: key } }) : req({ query: { [name]: key } });
    expect(await access().check(r)).toMatchObject({ ok: true, identity: `key:${id}` });
  });

  it('accepts the same key sent twice', async () => {
    const { key } = await keyIn('approved');
    const d = await access().check(
      req({ headers: { 'x-sp-api-key': key }, query: { x_cg_demo_api_key: key } }),
    );
    expect(d.ok).toBe(true);
  });

  it('refuses two different keys with 400 API_KEY_CONFLICT', async () => {
    const a = await keyIn('approved');
    const b = await keyIn('approved');
    const d = denial(
      await access().check(req({ headers: { 'x-sp-api-key': a.key }, query: { x_sp_api_key: b.key } })),
    );
    expect(d).toMatchObject({ status: 400, code: 'API_KEY_CONFLICT' });
    const twice = await access().check(req({ headers: { 'x-sp-api-key': [a.key, b.key] } }));
    expect(denial(twice).code).toBe('API_KEY_CONFLICT');
  });

  it.each([
    ['pending', 'API_KEY_PENDING', /awaiting review/],
    ['rejected', 'API_KEY_REJECTED', /rejected/],
    ['revoked', 'API_KEY_REVOKED', /revoked/],
  ] as const)('refuses a %s key with 401 %s', async (status, code, text) => {
    const { key, id } = await keyIn(status);
    const d = denial(await access().check(req({ headers: { 'x-sp-api-key': key } })));
    expect(d).toMatchObject({ status: 401, code, headers: {} });
    expect(d.message).toMatch(text);
    // Nothing about the key's record or owner leaks into the error.
    expect(d.message).not.toContain(id);
    expect(d.message).not.toContain('acct-77');
    expect(d.message).not.toContain('secret internal note');
  });

  it('refuses an unknown key with 401 API_KEY_UNKNOWN', async () => {
    for (const k of ['cw_live_' + '4'.repeat(44), 'CG-abc123', 'nonsense']) {
      const d = denial(await access().check(req({ query: { x_cg_pro_api_key: k } })));
      expect(d).toMatchObject({ status: 401, code: 'API_KEY_UNKNOWN' });
    }
  });

  it('applies the key limit with 429, Retry-After and the rate-limit headers', async () => {
    const { key } = await keyIn('approved', 2);
    const a = access();
    const r = req({ headers: { 'x-sp-api-key': key } });
    expect((await a.check(r)).headers['x-ratelimit-remaining']).toBe('1');
    expect((await a.check(r)).headers['x-ratelimit-remaining']).toBe('0');
    const d = denial(await a.check(r));
    expect(d).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(d.message).toContain('2 requests per minute');
    expect(d.headers).toMatchObject({
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '0',
      'x-api-plan': 'enterprise',
    });
    const retry = Number(d.headers['retry-after']);
    expect(Number.isInteger(retry) && retry >= 1 && retry <= 66).toBe(true);
    expect(d.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  });

  it('notes the use of the key (written in a batch)', async () => {
    const { key, id } = await keyIn('approved');
    await access().check(req({ headers: { 'x-sp-api-key': key } }));
    await keys.flush();
    expect((await keys.get(id)).lastUsedAt).not.toBeNull();
  });
});

describe('keyless requests', () => {
  it('are admitted per client IP at 240 per minute', async () => {
    const a = access();
    const d = await a.check(req({ socketIp: '198.51.100.50' }));
    expect(d).toMatchObject({ ok: true, plan: 'keyless', identity: 'ip:198.51.100.50', key: null });
    expect(d.headers).toMatchObject({
      'x-ratelimit-limit': '240',
      'x-ratelimit-remaining': '239',
      'x-api-plan': 'keyless',
    });
    for (let i = 0; i < 239; i++) await a.check(req({ socketIp: '198.51.100.50' }));
    const over = denial(await a.check(req({ socketIp: '198.51.100.50' })));
    expect(over).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(over.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect((await a.check(req({ socketIp: '198.51.100.51' }))).ok).toBe(true);
  });

  it('honour X-Forwarded-For only from trusted proxies', async () => {
    const a = access();
    const xff = { 'x-forwarded-for': '192.0.2.9' };
    expect(await a.check(req({ socketIp: '10.0.0.5', headers: xff }))).toMatchObject({
      identity: 'ip:192.0.2.9',
    });
    expect(await a.check(req({ socketIp: '203.0.113.9', headers: xff }))).toMatchObject({
      identity: 'ip:203.0.113.9',
    });
  });

  it('take a smaller keyless budget when configured', async () => {
    const a = createAccess({ keys, limiter: createMemoryLimiter(), keylessPerMinute: 1 });
    expect((await a.check(req())).ok).toBe(true);
    expect(denial(await a.check(req())).status).toBe(429);
  });

  it('treat an empty key as no key', async () => {
    expect(await access().check(req({ headers: { 'x-sp-api-key': '' } }))).toMatchObject({
      ok: true,
      plan: 'keyless',
    });
  });
});

describe('redactUrl', () => {
  it('hides key values in logged URLs', () => {
    expect(redactUrl('/v1/agg/ping?x_sp_api_key=cw_live_abc&vs=usd')).toBe(
      '/v1/agg/ping?x_sp_api_key=[redacted]&vs=usd',
    );
    expect(redactUrl('/a?x%5Fcg_demo_api_key=k')).toBe('/a?x%5Fcg_demo_api_key=[redacted]');
    expect(redactUrl('/a?b=1')).toBe('/a?b=1');
  });
});

describe('cost budgets', () => {
  const keyless = { plan: 'keyless' as const, identity: 'ip:203.0.113.9' };

  it('charges query cost per minute per caller: keyless 5,000 by default; over it 429 with Retry-After', async () => {
    const a = access();
    expect(await a.charge(keyless, 4_000)).toMatchObject({ ok: true, limit: 5_000, remaining: 1_000 });
    const refused = await a.charge(keyless, 1_500);
    expect(refused).toMatchObject({
      ok: false,
      status: 429,
      code: 'COST_BUDGET_EXHAUSTED',
      headers: { 'x-cost-budget-limit': '5000', 'x-cost-budget-remaining': '1000' },
    });
    // Until the 4,000 leave the sliding window: 60–66 s (11 tenths of a minute after their tenth began).
    const retry = 'headers' in refused ? Number(refused.headers['retry-after']) : 0;
    expect(retry).toBeGreaterThanOrEqual(60);
    expect(retry).toBeLessThanOrEqual(66);
    expect('message' in refused && refused.message).toMatch(
      /^query cost budget of 5000 per minute spent for requests without an API key from this address: this operation costs 1500 and 1000 is left; retry after 6\d s/,
    );
    // The refused charge counted nothing: a smaller operation still fits what is left, and no more than that.
    expect(await a.charge(keyless, 1_000)).toMatchObject({ ok: true, remaining: 0 });
    expect(await a.charge(keyless, 1)).toMatchObject({ ok: false, code: 'COST_BUDGET_EXHAUSTED' });
    // Each caller has its own budget; a plan's budget is configurable.
    expect(await a.charge({ plan: 'keyless', identity: 'ip:203.0.113.10' }, 10)).toMatchObject({
      remaining: 4_990,
    });
    const custom = createAccess({ keys, limiter: createMemoryLimiter(), costBudgets: { pro: 7 } });
    expect(await custom.charge({ plan: 'pro', identity: 'key:x' }, 7)).toMatchObject({
      ok: true,
      remaining: 0,
    });
  });

  it('corrects a charge to the measured cost: a refund, or the rest charged', async () => {
    const a = access();
    const free = { plan: 'free' as const, identity: 'key:corrected' };
    expect(await a.charge(free, 1_000)).toMatchObject({ remaining: 19_000 });
    a.correct(free, -900); // measured at 100
    await new Promise((r) => setImmediate(r));
    expect(await a.charge(free, 100)).toMatchObject({ remaining: 19_800 });
    a.correct(free, 200); // measured at 300
    await new Promise((r) => setImmediate(r));
    expect(await a.charge(free, 0)).toMatchObject({ remaining: 19_600 });
  });
});

describe('concurrency caps', () => {
  it('admits a plan’s places per caller (keyless 6), queues the next 64 in order, refuses the one after with 429', async () => {
    const a = access();
    const caller = { plan: 'keyless' as const, identity: 'ip:198.51.100.1' };
    const held = await Promise.all(Array.from({ length: 6 }, () => a.enter(caller)));
    for (const h of held) expect(typeof h).toBe('function');
    const admitted: number[] = [];
    const queued = Array.from({ length: 64 }, (_, i) =>
      a.enter(caller).then((turn) => {
        admitted.push(i);
        return turn;
      }),
    );
    // A refusal is an ApiError (issue 33): matched field by field, since no Error equals a plain object.
    const refused = await a.enter(caller);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      ok: false,
      status: 429,
      plan: 'keyless',
      code: 'TOO_MANY_CONCURRENT',
      message:
        '6 requests in flight and 64 waiting is the most for requests without an API key from this address: send fewer requests at once, and retry after 1 s',
      headers: { 'retry-after': '1' },
    });
    expect(refused).toHaveProperty('keyId', undefined);
    // Another caller is not held up by this one's queue.
    expect(typeof (await a.enter({ plan: 'keyless', identity: 'ip:198.51.100.2' }))).toBe('function');
    // Each place given back (twice counts once) admits the first waiting: first in, first out.
    const first = held[0] as () => void;
    first();
    first();
    await new Promise((r) => setImmediate(r));
    expect(admitted).toEqual([0]);
    for (const h of held.slice(1)) (h as () => void)();
    await new Promise((r) => setImmediate(r));
    expect(admitted).toEqual([0, 1, 2, 3, 4, 5]);
    // Each admitted request ending admits the next one waiting, down the queue.
    for (const turn of queued) {
      const t = await turn;
      expect(typeof t).toBe('function');
      (t as () => void)();
    }
    expect(admitted).toEqual(Array.from({ length: 64 }, (_, i) => i));
    expect(typeof (await access().enter({ plan: 'pro', identity: 'key:p' }))).toBe('function');
  });

  it('refuses a request that waited its longest; one whose client left is dropped (null)', async () => {
    const a = createAccess({
      keys,
      limiter: createMemoryLimiter(),
      concurrency: { free: 1 },
      concurrencyQueue: { free: 2 },
      concurrencyWaitMs: 50,
    });
    const caller = { plan: 'free' as const, identity: 'key:f' };
    const held = await a.enter(caller);
    expect(typeof held).toBe('function');
    let leave = () => {};
    const gone = a.enter(caller, (listener) => ((leave = listener), () => {}));
    const waited = a.enter(caller);
    leave();
    expect(await gone).toBeNull();
    expect(await waited).toMatchObject({
      status: 429,
      code: 'TOO_MANY_CONCURRENT',
      message:
        'no place in flight came free within 0.05 s; 1 requests in flight and 2 waiting is the most for this API key (free plan): send fewer requests at once, and retry after 1 s',
      headers: { 'retry-after': '1' },
    });
  });
});
