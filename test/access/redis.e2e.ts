import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccess } from '../../src/access/access.ts';
import type { Access, AccessRequest } from '../../src/access/access.ts';
import { ApiKeyService } from '../../src/accounts/keys.ts';
import { RedisRevision } from '../../src/access/revision.ts';
import { COST_KEY_PREFIX, createRedisLimiter } from '../../src/access/limiter.ts';
import type { Db } from '../../src/store/db.ts';
import { openDb } from '../../src/store/open.ts';
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
    // 650 concurrent requests, alternating between the two processes.
    const results = await Promise.all(
      Array.from({ length: 650 }, (_, i) => (i % 2 ? two : one).access.check(withKey(key))),
    );
    const admitted = results.filter((d) => d.ok).length;
    expect(admitted).toBe(600);
    const denied = results.filter((d) => !d.ok);
    expect(denied).toHaveLength(50);
    for (const d of denied) expect(d).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect((await one.access.check(withKey(key))).ok).toBe(false);
    expect((await two.access.check(withKey(key))).ok).toBe(false);
    expect(Number(await one.client.get(`cw:rl:key:${record.id}`))).toBe(652);
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
    expect(Number(await one.client.get(`cw:cb:key:${record.id}`))).toBe(20_000);
    expect(await one.client.get(`cw:rl:key:${record.id}`)).toBeNull(); // no request counted
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
