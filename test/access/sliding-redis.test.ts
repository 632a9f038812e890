import { createClient } from 'redis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRedisLimiter } from '../../src/access/limiter.ts';
import type { SharedRateLimitStore } from '../../src/access/limiter.ts';
import { startTempRedis } from '../support/redis.ts';
import type { TempRedis } from '../support/redis.ts';

/**
 * The shared limiter's scripts against a real redis-server: the sliding rule (no window of the limit's length holds
 * more than the limit, wherever it falls), the figures its headers come from, corrections and the carry-over. Windows
 * of 1–2 s (slots of 100–200 ms) so that the clock is Redis's own, as in production, and the test takes seconds.
 */

type Client = ReturnType<typeof createClient>;
let redis: TempRedis;
let client: Client;
const fallbacks: unknown[] = [];
let n = 0;
/** A fresh identity per test: counts never leak between them. */
let id = '';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const limiter = (windowSeconds: number): SharedRateLimitStore =>
  createRedisLimiter(client, { windowSeconds, prefix: 'cw:t-sliding', onFallback: (e) => fallbacks.push(e) });
/** The identity's count in Redis: the sum of its slots. */
const stored = async () =>
  Object.values(await client.hGetAll(`cw:t-sliding:${id}`)).reduce((a, v) => a + Number(v), 0);

beforeAll(async () => {
  redis = await startTempRedis();
  client = createClient({ url: redis.url });
  client.on('error', () => undefined);
  await client.connect();
});
afterAll(async () => {
  client?.destroy();
  await redis?.stop();
});
beforeEach(() => {
  id = `key:${++n}`;
  fallbacks.length = 0;
});

describe('sliding window in Redis', () => {
  it('refuses the limit spent at the end of one window again at the start of the next (a fixed window admits it)', async () => {
    const rl = limiter(2);
    const t0 = performance.now();
    expect(await rl.consume(id, 10)).toMatchObject({ allowed: true, remaining: 9, consumed: 1 });
    await sleep(1_700 - (performance.now() - t0)); // the end of the first 2 s
    for (let i = 0; i < 9; i++) expect((await rl.consume(id, 10)).allowed).toBe(true);
    // Past where a fixed window would start again, and where the first request has left (11 slots of 200 ms after
    // its slot's start, at most 2.2 s); the 9 of 1.7 s have not.
    await sleep(2_300 - (performance.now() - t0));
    expect(await rl.consume(id, 10)).toMatchObject({ allowed: true, remaining: 0, consumed: 10 });
    expect(await rl.consume(id, 10)).toMatchObject({ allowed: false, remaining: 0, consumed: 11 });
    expect(await stored()).toBe(10); // a refusal counts nothing
    expect(fallbacks).toEqual([]);
  });

  it('says when the next call fits (resetMs), and a caller who waits that long is admitted', async () => {
    const rl = limiter(1);
    for (let i = 0; i < 5; i++) expect((await rl.consume(id, 5)).allowed).toBe(true);
    const refused = await rl.consume(id, 5);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, consumed: 6 });
    // All five in one slot of 100 ms: they leave 1.0–1.1 s from now.
    expect(refused.resetMs).toBeGreaterThan(900);
    expect(refused.resetMs).toBeLessThanOrEqual(1_100);
    await sleep(refused.resetMs - 150);
    expect((await rl.consume(id, 5)).allowed).toBe(false);
    await sleep(160);
    expect((await rl.consume(id, 5)).allowed).toBe(true);
  });

  it('a call of many points waits until enough of the oldest slots have left (a cost budget)', async () => {
    const rl = limiter(1);
    expect(await rl.consume(id, 100, 30)).toMatchObject({ allowed: true, remaining: 70 });
    await sleep(400);
    expect(await rl.consume(id, 100, 60)).toMatchObject({ allowed: true, remaining: 10 });
    const admitted = await rl.consume(id, 100, 10);
    expect(admitted).toMatchObject({ allowed: true, remaining: 0 });
    // Admitted: resetMs is when the oldest (the 30) leave, about 0.7 s from now.
    expect(admitted.resetMs).toBeGreaterThan(100);
    expect(admitted.resetMs).toBeLessThanOrEqual(800);
    const refused = await rl.consume(id, 100, 50);
    // 50 more fit only once the 60 have left too (the 30 are not enough): about 1.1 s from now.
    expect(refused).toMatchObject({ allowed: false, consumed: 150 });
    expect(refused.resetMs).toBeGreaterThan(admitted.resetMs);
    expect(refused.resetMs).toBeGreaterThan(800);
    expect(refused.resetMs).toBeLessThanOrEqual(1_200);
    // Over the whole budget: never fits; told when everything counted has left.
    expect((await rl.consume(id, 100, 101)).allowed).toBe(false);
  });

  it('under steady load at twice the limit, no sliding window holds more than the limit', async () => {
    const rl = limiter(1);
    const LIMIT = 20;
    const ok: { sent: number; answered: number }[] = [];
    const t0 = performance.now();
    // Two calls in flight at any time, for 3.5 windows.
    await Promise.all(
      [0, 1].map(async () => {
        while (performance.now() - t0 < 3_500) {
          const sent = performance.now() - t0;
          if ((await rl.consume(id, LIMIT)).allowed) ok.push({ sent, answered: performance.now() - t0 });
          await sleep(20);
        }
      }),
    );
    // For each moment an admission was answered, the admissions surely counted within the second before it (sent
    // after its start, answered by then): whatever the calls' latency, never more than the limit.
    const most = Math.max(
      ...ok.map(({ answered: x }) => ok.filter((o) => o.sent > x - 1_000 && o.answered <= x).length),
    );
    expect(most).toBeLessThanOrEqual(LIMIT);
    expect(most).toBeGreaterThanOrEqual(LIMIT - 2); // the limit is reached: the load is over it
    expect(ok.length).toBeGreaterThanOrEqual(2.5 * LIMIT); // served all along: the first window and as counts leave
  });

  it('corrects a count: a refund from the newest slots back, never below zero; a charge in the current slot', async () => {
    const rl = limiter(1);
    await rl.consume(id, 100, 40);
    await sleep(250);
    await rl.consume(id, 100, 30);
    await rl.adjust(id, 100, -35); // the 30 of the newest slot, then 5 of the older
    expect(await stored()).toBe(35);
    expect(Object.keys(await client.hGetAll(`cw:t-sliding:${id}`))).toHaveLength(1); // an emptied slot is removed
    await rl.adjust(id, 100, -1_000);
    expect(await client.exists(`cw:t-sliding:${id}`)).toBe(0);
    await rl.adjust(id, 100, 90);
    expect(await rl.consume(id, 100, 11)).toMatchObject({ allowed: false, remaining: 0 });
    expect(await rl.consume(id, 100, 10)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('keeps a key for the span only (its TTL), and replaces the counter of the fixed windows', async () => {
    const rl = limiter(2);
    await rl.consume(id, 10);
    const ttl = await client.pTTL(`cw:t-sliding:${id}`);
    // Until the slot leaves the span: 2–2.2 s after the count (read a few ms later).
    expect(ttl).toBeGreaterThan(1_800);
    expect(ttl).toBeLessThanOrEqual(2_200);
    // An earlier release's counter (a string with a TTL) under the same name: counted afresh, not an error.
    await client.set(`cw:t-sliding:${id}-old`, '7', { PX: 60_000 });
    id = `${id}-old`;
    expect(await rl.consume(id, 10)).toMatchObject({ allowed: true, remaining: 9 });
    expect(fallbacks).toEqual([]);
  });
});
