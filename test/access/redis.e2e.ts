import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccess } from '../../src/access/access.ts';
import type { Access, AccessRequest } from '../../src/access/access.ts';
import { ApiKeyService } from '../../src/accounts/keys.ts';
import { RedisRevision } from '../../src/access/revision.ts';
import { RedisFleet } from '../../src/access/fleet.ts';
import { COST_KEY_PREFIX, createRedisLimiter } from '../../src/access/limiter.ts';
import type { Db } from '../../src/store/db.ts';
import { openDb } from '../../src/store/open.ts';
import { startNginx } from '../support/nginx.ts';
import { startServe, waitForStatus } from '../support/process.ts';
import type { ServeProcess } from '../support/process.ts';
import { startTempRedis } from '../support/redis.ts';
import type { TempRedis } from '../support/redis.ts';

type Client = ReturnType<typeof createClient>;

/**
 * Two "processes" — each with its own Redis connection, key cache, limiter and database pool — against one real
 * redis-server and one PostgreSQL database: the scale-out deployment, in one test file.
 */
interface Proc {
  client: Client;
  db: Db & { lookups: number };
  keys: ApiKeyService;
  access: Access;
  fallbacks: unknown[];
}

const PEPPER = 'shared-pepper-0123456789abcdef';
let redis: TempRedis;
let url: string;
const procs: Proc[] = [];

async function proc(): Promise<Proc> {
  const client: Client = createClient({ url: redis.url });
  client.on('error', () => undefined); // reconnect noise once the server is stopped
  await client.connect();
  const inner = await openDb({ databaseUrl: url });
  const db = Object.create(inner) as Db & { lookups: number };
  db.lookups = 0;
  db.query = (sql, params) => {
    if (sql.includes('WHERE key_hash')) db.lookups++;
    return inner.query(sql, params);
  };
  db.close = () => inner.close();
  const keys = new ApiKeyService(db, { pepper: PEPPER, revision: new RedisRevision(client) });
  const fallbacks: unknown[] = [];
  const limiter = createRedisLimiter(client, { onFallback: (e) => fallbacks.push(e) });
  const costLimiter = createRedisLimiter(client, {
    onFallback: (e) => fallbacks.push(e),
    prefix: COST_KEY_PREFIX,
  });
  const p = { client, db, keys, access: createAccess({ keys, limiter, costLimiter }), fallbacks };
  procs.push(p);
  return p;
}

/** An identity's count in Redis: the sum of its sliding window's slots (0 when nothing is counted). */
const countOf = async (client: Client, key: string): Promise<number> =>
  Object.values(await client.hGetAll(key)).reduce((a, v) => a + Number(v), 0);

const withKey = (key: string): AccessRequest => ({
  headers: { 'x-sp-api-key': key },
  query: {},
  socketIp: '127.0.0.1',
});

let one: Proc;
let two: Proc;

beforeAll(async () => {
  redis = await startTempRedis();
  const base = inject('databaseUrl');
  const admin = await openDb({ databaseUrl: base });
  const schema = `t_access_${Date.now().toString(36)}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.close();
  const u = new URL(base);
  u.searchParams.set('options', `-c search_path=${schema}`);
  url = u.toString();
  one = await proc();
  two = await proc();
});

afterAll(async () => {
  for (const p of procs) {
    p.client.destroy();
    await p.db.close();
  }
  await redis?.stop();
});

describe('scale-out access through Redis', () => {
  it('shares one budget per key across processes: 600 admitted in total, then 429', async () => {
    const { key, record } = await one.keys.create({
      plan: 'free',
      description: 'shared budget',
      approve: true,
    });
    await Promise.all([one.keys.lookup(key), two.keys.lookup(key)]);
    // Each process's first count warms its connection and Redis's script cache (another identity), so that the burst
    // measures counting alone.
    await Promise.all(
      [one, two].map((p) => p.access.check({ headers: {}, query: {}, socketIp: '10.0.0.9' })),
    );
    // 650 concurrent requests, alternating between the two processes. On a loaded machine answers take several
    // hundred ms; each is awaited while Redis keeps answering, so Redis alone decides (slowestMs shown on failure).
    let slowestMs = 0;
    const results = await Promise.all(
      Array.from({ length: 650 }, async (_, i) => {
        const t = performance.now();
        const d = await (i % 2 ? two : one).access.check(withKey(key));
        slowestMs = Math.max(slowestMs, Math.round(performance.now() - t));
        return d;
      }),
    );
    const admitted = results.filter((d) => d.ok).length;
    expect({ admitted, slowestMs }).toMatchObject({ admitted: 600 });
    const denied = results.filter((d) => !d.ok);
    expect(denied).toHaveLength(50);
    for (const d of denied) expect(d).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect((await one.access.check(withKey(key))).ok).toBe(false);
    expect((await two.access.check(withKey(key))).ok).toBe(false);
    expect(await countOf(one.client, `cw:rl:key:${record.id}`)).toBe(600); // refusals count nothing
    expect([...one.fallbacks, ...two.fallbacks]).toEqual([]); // counted in Redis, not in memory
  });

  it('shares one cost budget per key across processes, apart from its request budget', async () => {
    const { key, record } = await one.keys.create({
      plan: 'free',
      description: 'cost budget',
      approve: true,
    });
    const caller = await one.access.identify(withKey(key));
    if ('ok' in caller) throw new Error('expected a caller');
    expect(await one.access.charge(caller, 15_000)).toMatchObject({
      ok: true,
      limit: 20_000,
      remaining: 5_000,
    });
    expect(await two.access.charge(caller, 6_000)).toMatchObject({
      ok: false,
      status: 429,
      code: 'COST_BUDGET_EXHAUSTED',
      headers: { 'x-cost-budget-remaining': '5000' },
    });
    two.access.correct(caller, -3_000); // measured at 12,000
    await new Promise((r) => setTimeout(r, 50));
    expect(await two.access.charge(caller, 8_000)).toMatchObject({ ok: true, remaining: 0 });
    expect(await countOf(one.client, `cw:cb:key:${record.id}`)).toBe(20_000);
    expect(await one.client.exists(`cw:rl:key:${record.id}`)).toBe(0); // no request counted
    expect([...one.fallbacks, ...two.fallbacks]).toEqual([]);
  });

  it('exactly 600 admitted when sent one by one, split across the processes', async () => {
    const { key } = await one.keys.create({ plan: 'free', description: 'sequential', approve: true });
    let admitted = 0;
    for (let i = 0; i < 601; i++) if ((await (i % 3 ? two : one).access.check(withKey(key))).ok) admitted++;
    expect(admitted).toBe(600);
    const last = await two.access.check(withKey(key));
    expect(last).toMatchObject({
      ok: false,
      status: 429,
      headers: { 'x-ratelimit-limit': '600', 'x-api-plan': 'free' },
    });
  });

  it('a revocation through one process is seen by the other on its very next request', async () => {
    const { key, record } = await one.keys.create({ plan: 'pro', description: 'to revoke', approve: true });
    expect((await two.access.check(withKey(key))).ok).toBe(true);
    const before = two.db.lookups;
    expect((await two.access.check(withKey(key))).ok).toBe(true);
    expect(two.db.lookups).toBe(before); // served from the cache
    await one.keys.revoke(record.id);
    expect(await two.access.check(withKey(key))).toMatchObject({
      ok: false,
      status: 401,
      code: 'API_KEY_REVOKED',
    });
    expect(two.db.lookups).toBe(before + 1);
  });

  it('never reuses a revision after Redis loses its data', async () => {
    const rev = new RedisRevision(one.client);
    await rev.bump();
    const before = await rev.current();
    await one.client.flushAll();
    const after = await rev.current();
    expect(after).toBeGreaterThan(before);
  });

  it('keeps serving from memory and the database when Redis goes away', async () => {
    const { key } = await one.keys.create({ plan: 'free', description: 'outage', approve: true });
    await redis.stop();
    const end = Date.now() + 10_000;
    while (one.client.isReady && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    const d = await one.access.check(withKey(key));
    expect(d).toMatchObject({
      ok: true,
      headers: { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '599' },
    });
    expect(one.fallbacks.length).toBeGreaterThan(0);
    const { record } = await one.keys.create({
      plan: 'free',
      description: 'revoked during outage',
      approve: true,
    });
    await one.keys.revoke(record.id); // the write succeeds; the bump is retried in the background
    expect((await one.keys.get(record.id)).status).toBe('revoked');
  });
});

/** Waits until `ok()` holds, polling every 20 ms (never a fixed sleep). */
async function until(ok: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Redis stopped (the test above) and started again on its port, empty: the clients reconnect to it. */
async function redisAgain(): Promise<void> {
  if (one.client.isReady) return;
  redis = await startTempRedis(15_000, redis.port);
  await until(() => one.client.isReady && two.client.isReady, 'clients reconnected');
}

describe('limits degrade to local, never to none (Redis stopped and started again)', () => {
  it('learns the fleet from Redis: the processes that count, and ROUTER_PROCESSES as a floor', async () => {
    await redisAgain();
    await until(() => one.client.isReady && two.client.isReady, 'clients reconnected');
    const a = new RedisFleet(one.client, { id: 'a' });
    const b = new RedisFleet(two.client, { id: 'b', configured: 3 });
    a.join();
    b.join();
    await b.beat();
    await a.beat();
    expect([a.size(), b.size()]).toEqual([2, 3]);
    await b.close();
    await a.beat();
    expect(a.size()).toBe(1);
    await a.close();
    expect(await one.client.zCard('cw:limiter:processes')).toBe(0);
  });

  it("counts each process's share while Redis is away, and carries the window's counts back", async () => {
    await redisAgain();
    const fleet = { size: () => 2, join: () => undefined };
    const [l1, l2] = [one, two].map((p) =>
      createRedisLimiter(p.client, { fleet, prefix: 'cw:t-carry', timeoutMs: 1_000 }),
    ) as [ReturnType<typeof createRedisLimiter>, ReturnType<typeof createRedisLimiter>];
    for (let i = 0; i < 10; i++) await l1.consume('key:c', 600);
    await redis.stop();
    await until(() => !one.client.isReady && !two.client.isReady, 'clients disconnected');
    // l1 saw 10 counted: 600 / 2 less its part of the 10, 295 for it; l2 saw nothing: 300.
    let admitted = 0;
    for (let i = 0; i < 400; i++) if ((await (i % 2 ? l2 : l1).consume('key:c', 600)).allowed) admitted++;
    expect([l1.state(), l2.state()]).toEqual(['degraded', 'degraded']);
    expect(admitted).toBe(400);
    for (let i = 0; i < 300; i++) await l1.consume('key:c', 600);
    expect((await l1.consume('key:c', 600)).allowed).toBe(false);
    // Redis comes back empty: the next count carries the window over first.
    redis = await startTempRedis(15_000, redis.port);
    await until(() => one.client.isReady && two.client.isReady, 'clients reconnected');
    // Counts made while the clients reconnect (local, then carried) are counted too: every admission, exactly once.
    let more = 0;
    const counts = async (l: typeof l1) => (await l.consume('key:c', 600), more++, l.state() === 'shared');
    await until(() => counts(l1), 'l1 shared');
    await until(() => counts(l2), 'l2 shared');
    // Each process's admissions carried as each one's (times 2): 10 + 2 × (295 + 200), then those counted in Redis.
    // Carried into the current slot of the sliding count: it lasts the span (11 tenths of the window) from now.
    const counted = await countOf(one.client, 'cw:t-carry:key:c');
    expect(counted).toBeGreaterThanOrEqual(10 + 2 * 495);
    expect(counted).toBeLessThanOrEqual(10 + 2 * 495 + 2 * more);
    expect((await l1.consume('key:c', 600)).allowed).toBe(false);
    const ttl = await one.client.pTTL('cw:t-carry:key:c');
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(66_000);
  });

  describe('two routers behind nginx, a free key under load', () => {
    const WINDOW_S = 3;
    let dir: string;
    const routers: ServeProcess[] = [];
    let lb: { url: string; stop(): Promise<void> };

    beforeAll(async () => {
      await redisAgain();
      dir = mkdtempSync(join(tmpdir(), 'cw-limiter-'));
      const env = {
        DATABASE_URL: url,
        REDIS_URL: redis.url,
        API_KEY_PEPPER: PEPPER,
        // No subgraph is needed: `{ __typename }` is answered by the router itself.
        SUBGRAPH_URLS: ['markets', 'identity', 'bridge', 'accounts']
          .map((n) => `${n}=http://127.0.0.1:9/graphql`)
          .join(','),
        READY_REQUIRES_SUBGRAPHS: 'false',
        RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_S),
        ROUTER_PROCESSES: '2',
        REFUSAL_HOLD_MS: '0',
        METRICS_PORT: '0',
      };
      routers.push(
        ...(await Promise.all(
          [0, 1].map((i) =>
            startServe({ ...env, DATA_DIR: join(dir, `r${i}`) }, 60_000, [], ['--only', 'router']),
          ),
        )),
      );
      await Promise.all(routers.map((r) => waitForStatus(`${r.url}/readyz`, 200, 30_000)));
      lb = await startNginx(
        join(dir, 'lb'),
        routers.map((r) => r.url),
      );
    }, 90_000);

    afterAll(async () => {
      await lb?.stop();
      for (const r of routers) await r.stop('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    });

    const health = async (r: ServeProcess) =>
      ((await (await fetch(`${r.url}/healthz`)).json()) as { limiter?: string }).limiter;
    const scrape = async (r: ServeProcess) =>
      (await fetch(/coinwallet: metrics at (\S+)/.exec(r.output())?.[1] ?? '')).text();

    /**
     * The case is a free key (600 a minute), and the mechanism is the same for every limit (the plan only
     * picks the number). But 600 successes in a 3-second window need over 200 graph requests a second, more than two
     * routers sustain on this shared 2-core machine (about 100 measured under a load average of 9): a budget the load
     * never spends cannot show a fleet admitting twice its plan. So the key has a limit of 120, spent within each window.
     */
    const LIMIT = 120;

    it('admits at most the limit in any sliding window, across the outage and the return', async () => {
      const { key, record } = await one.keys.create({
        plan: 'enterprise',
        limitPerMinute: LIMIT,
        description: 'outage',
        approve: true,
      });
      const done: { t: number; status: number }[] = [];
      let stop = false;
      let [down, up] = [0, 0];
      const t0 = Date.now();
      const send = (base: string) =>
        fetch(`${base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-sp-api-key': key },
          body: '{"query":"{ __typename }"}',
        }).then(
          async (r) => (await r.arrayBuffer(), r.status),
          () => 0, // no answer: counted as such, and refused by the assertion on statuses below
        );
      const worker = async () => {
        while (!stop) done.push({ status: await send(lb.url), t: Date.now() - t0 });
      };
      // Each router warmed up first (its first count compiles Redis's script), then the load through nginx.
      for (const r of routers) await send(r.url);
      const load = Promise.all(Array.from({ length: 6 }, worker));
      try {
        await until(() => done.length > 0 && Date.now() - t0 > 1_500, 'load under way');
        // The routers' first counts (warm-up, a cold start under load) may have degraded them for a moment.
        await until(
          async () => (await Promise.all(routers.map(health))).every((s) => s === 'shared'),
          'shared',
        );
        await redis.stop();
        down = Date.now() - t0;
        await until(
          async () => (await Promise.all(routers.map(health))).every((s) => s === 'degraded'),
          'degraded',
        );
        const metrics = await Promise.all(routers.map(scrape));
        for (const m of metrics) {
          expect(m).toMatch(/^rate_limiter_degraded\{[^}]*\} 1$/m);
          expect(m).toMatch(/^rate_limiter_processes\{[^}]*\} 2$/m);
        }
        // Two windows away: the routers count on their own once Redis's admissions have left the window.
        await until(() => Date.now() - t0 > down + 2 * WINDOW_S * 1000, 'outage');
        redis = await startTempRedis(15_000, redis.port);
        up = Date.now() - t0;
        await until(
          async () => (await Promise.all(routers.map(health))).every((s) => s === 'shared'),
          'shared',
          15_000,
        );
        await until(() => Date.now() - t0 > up + WINDOW_S * 1000 + 500, 'after the return');
      } finally {
        stop = true;
        await load;
      }

      const statuses = new Set(done.map((d) => d.status));
      expect([...statuses].sort()).toEqual([200, 429]);
      const ok = done
        .filter((d) => d.status === 200)
        .map((d) => d.t)
        .sort((a, b) => a - b);
      // Any window of WINDOW_S (less 100 ms: times are taken at the client, a few ms after the router counted).
      let most = 0;
      for (let i = 0, j = 0; i < ok.length; i++) {
        while ((ok[j] as number) <= (ok[i] as number) - (WINDOW_S * 1000 - 100)) j++;
        most = Math.max(most, i - j + 1);
      }
      // Successes per quarter second, shown when the assertion fails.
      const timeline: number[] = [];
      for (const t of ok) timeline[Math.floor(t / 250)] = (timeline[Math.floor(t / 250)] ?? 0) + 1;
      const during = ok.filter((t) => t > down && t < up).length;
      // Served during the outage too: degraded to each router's share (LIMIT / 2 a window), not to nothing.
      expect({
        most,
        atMost: most <= LIMIT,
        servedDuringOutage: during >= LIMIT / 2,
        timeline: Array.from(timeline, (x) => x ?? 0).join(','),
        down,
        up,
      }).toMatchObject({
        atMost: true,
        servedDuringOutage: true,
      });
      await until(() => one.client.isReady, 'client reconnected');
      expect(await countOf(one.client, `cw:rl:key:${record.id}`)).toBeGreaterThan(0);
    }, 60_000);
  });
});
