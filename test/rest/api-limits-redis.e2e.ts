/**
 * The `/api` rate limits in Redis (`REDIS_URL`): two "processes", each with its own Redis connection, limiter and
 * accounts API, against one real redis-server — a client's sign-in budget is one budget across them.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiLimiter } from '../../src/access/api-limits.ts';
import { createRedisLimiter } from '../../src/access/limiter.ts';
import { call, harness, wallet } from '../accounts/harness.ts';
import type { Harness } from '../accounts/harness.ts';
import { startTempRedis } from '../support/redis.ts';
import type { TempRedis } from '../support/redis.ts';

type Client = ReturnType<typeof createClient>;

let redis: TempRedis;
const clients: Client[] = [];
const procs: Harness[] = [];
const fallbacks: unknown[] = [];

beforeAll(async () => {
  redis = await startTempRedis();
  for (let i = 0; i < 2; i++) {
    const client: Client = createClient({ url: redis.url });
    client.on('error', () => undefined);
    await client.connect();
    clients.push(client);
    const store = createRedisLimiter(client, { onFallback: (e) => fallbacks.push(e) });
    procs.push(
      await harness({
        limits: { limiter: createApiLimiter(store, { challenge: 4, 'sign-in': 3 }), trustedProxies: [] },
      }),
    );
  }
});
afterAll(async () => {
  for (const p of procs) await p.close();
  for (const c of clients) await c.quit().catch(() => undefined);
  await redis?.stop();
});

describe('/api rate limits shared through Redis', () => {
  it('challenges and sign-in attempts of one client IP are counted once across processes', async () => {
    const [a, b] = procs as [Harness, Harness];
    const w = wallet('p2wpkh');
    const ask = (h: Harness) => call(h, 'POST', '/api/auth/challenge', { body: { address: w.address } });
    expect((await ask(a)).status).toBe(200);
    expect((await ask(b)).status).toBe(200);
    expect((await ask(a)).status).toBe(200);
    expect((await ask(b)).status).toBe(200);
    const over = await ask(a);
    expect([over.status, over.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(over.raw.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await ask(b)).code).toBe('RATE_LIMITED');
    // Refused credentials in one process and sign-in attempts in the other share the sign-in bucket.
    expect((await call(a, 'GET', '/api/account/me', { token: 'cws_' + 'B'.repeat(43) })).code).toBe(
      'INVALID_SESSION',
    );
    const attempt = (h: Harness) =>
      call(h, 'POST', '/api/auth/session', { body: { address: w.address, signature: 'AAAA' } });
    expect((await attempt(b)).code).toBe('MALFORMED_SIGNATURE');
    expect((await attempt(a)).code).toBe('MALFORMED_SIGNATURE');
    expect((await attempt(b)).code).toBe('RATE_LIMITED');
    // Counted in Redis under the limits' own identities, apart from the price API's budgets.
    const keys = (await clients[0]?.keys('cw:rl:api:*'))?.sort();
    expect(keys).toEqual(['cw:rl:api:challenge:127.0.0.1', 'cw:rl:api:sign-in:127.0.0.1']);
    expect(fallbacks).toEqual([]);
  });
});
