/** The usage tables of `008_usage.sql`: additive writes of a flushed batch, pruning, and the reads (`usage.ts`). */
import type { Queryable } from '../store/db.ts';
import { isUuid } from '../core/ids.ts';
import {
  K_ADMITTED,
  K_RATE_LIMITED,
  K_UNAUTHORIZED,
  P_CLIENT,
  P_RATE_LIMITED,
  P_REQUESTS,
  P_SERVER,
  P_UNAUTHORIZED,
} from './usage-counts.ts';
import type { UsageBatch } from './usage-counts.ts';
import { COST_BUCKETS, costBucket, MINUTE_MS, minuteOf } from './usage.ts';
import type {
  CostBucket,
  DocumentRef,
  KeyOperationUsage,
  KeyUsageMinute,
  OperationTotals,
  ServiceStats,
  UsageReads,
} from './usage.ts';
import { documentUsageMany, operationsOfKeys } from './usage-operations.ts';

/** Stored value of the last bucket's bound (`up_to` is part of the primary key, so it cannot be null). */
const OPEN_BUCKET = -1;

/**
 * Adds a batch to the store: three statements at most (keys, plans, costs), each one additive upsert over arrays
 * (`unnest`), so N keys cost one statement, not N.
 */
export async function writeUsage(q: Queryable, batch: UsageBatch): Promise<void> {
  const k = {
    ids: [] as string[],
    minutes: [] as number[],
    a: [] as number[],
    r: [] as number[],
    u: [] as number[],
  };
  const p = {
    minutes: [] as number[],
    plans: [] as string[],
    req: [] as number[],
    ce: [] as number[],
    se: [] as number[],
    rl: [] as number[],
    ua: [] as number[],
  };
  const c = { minutes: [] as number[], upTo: [] as number[], n: [] as number[] };
  for (const [minute, m] of batch) {
    for (const [id, v] of m.keys) {
      k.ids.push(id);
      k.minutes.push(minute);
      k.a.push(v[K_ADMITTED] as number);
      k.r.push(v[K_RATE_LIMITED] as number);
      k.u.push(v[K_UNAUTHORIZED] as number);
    }
    for (const [plan, v] of m.plans) {
      p.minutes.push(minute);
      p.plans.push(plan);
      p.req.push(v[P_REQUESTS] as number);
      p.ce.push(v[P_CLIENT] as number);
      p.se.push(v[P_SERVER] as number);
      p.rl.push(v[P_RATE_LIMITED] as number);
      p.ua.push(v[P_UNAUTHORIZED] as number);
    }
    if (m.costed)
      m.costs.forEach((n, i) => {
        if (n === 0) return;
        c.minutes.push(minute);
        c.upTo.push(COST_BUCKETS[i] ?? OPEN_BUCKET);
        c.n.push(n);
      });
  }
  if (k.ids.length > 0)
    await q.query(
      `INSERT INTO usage_key_minutes AS t (key_id, minute, admitted, rate_limited, unauthorized)
       SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::int[], $4::int[], $5::int[])
       ON CONFLICT (key_id, minute) DO UPDATE SET
         admitted = t.admitted + EXCLUDED.admitted,
         rate_limited = t.rate_limited + EXCLUDED.rate_limited,
         unauthorized = t.unauthorized + EXCLUDED.unauthorized`,
      [k.ids, k.minutes, k.a, k.r, k.u],
    );
  if (p.plans.length > 0)
    await q.query(
      `INSERT INTO usage_plan_minutes AS t
         (minute, plan, requests, client_errors, server_errors, rate_limited, unauthorized)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[])
       ON CONFLICT (minute, plan) DO UPDATE SET
         requests = t.requests + EXCLUDED.requests,
         client_errors = t.client_errors + EXCLUDED.client_errors,
         server_errors = t.server_errors + EXCLUDED.server_errors,
         rate_limited = t.rate_limited + EXCLUDED.rate_limited,
         unauthorized = t.unauthorized + EXCLUDED.unauthorized`,
      [p.minutes, p.plans, p.req, p.ce, p.se, p.rl, p.ua],
    );
  if (c.n.length > 0)
    await q.query(
      `INSERT INTO usage_cost_minutes AS t (minute, up_to, count)
       SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[])
       ON CONFLICT (minute, up_to) DO UPDATE SET count = t.count + EXCLUDED.count`,
      [c.minutes, c.upTo, c.n],
    );
}

/** Deletes every row of a minute before `before` (UNIX ms). */
export async function pruneUsage(q: Queryable, before: number): Promise<void> {
  for (const table of ['usage_key_minutes', 'usage_plan_minutes', 'usage_cost_minutes'])
    await q.query(`DELETE FROM ${table} WHERE minute < $1`, [before]);
}

/** Reads straight from the store (what a process that records nothing, or a test, uses). */
export class UsageReader implements UsageReads {
  constructor(private readonly db: Queryable) {}

  async keyUsageMany(keyIds: readonly string[], from: number, to: number): Promise<KeyUsageMinute[][]> {
    const first = minuteOf(from);
    const n = Math.max(0, (minuteOf(to) - first) / MINUTE_MS + 1);
    const wanted = [...new Set(keyIds.filter(isUuid).map((id) => id.toLowerCase()))];
    const byKey = new Map<string, KeyUsageMinute[]>();
    const series = (id: string): KeyUsageMinute[] => {
      let s = byKey.get(id);
      if (!s) {
        s = Array.from({ length: n }, (_, i) => ({
          minute: first + i * MINUTE_MS,
          admitted: 0,
          rateLimited: 0,
          unauthorized: 0,
        }));
        byKey.set(id, s);
      }
      return s;
    };
    if (wanted.length > 0 && n > 0) {
      const r = await this.db.query<{
        key_id: string;
        minute: number;
        admitted: number;
        rate_limited: number;
        unauthorized: number;
      }>(
        `SELECT key_id, minute, admitted, rate_limited, unauthorized FROM usage_key_minutes
         WHERE key_id = ANY($1::uuid[]) AND minute BETWEEN $2 AND $3`,
        [wanted, first, minuteOf(to)],
      );
      for (const row of r.rows) {
        const e = series(String(row.key_id).toLowerCase())[(Number(row.minute) - first) / MINUTE_MS];
        if (!e) continue;
        e.admitted += Number(row.admitted);
        e.rateLimited += Number(row.rate_limited);
        e.unauthorized += Number(row.unauthorized);
      }
    }
    // Each key its own copy (the same id asked twice gets equal, not shared, arrays).
    return keyIds.map((id) => series(id.toLowerCase()).map((e) => ({ ...e })));
  }

  async keyUsage(keyId: string, from: number, to: number): Promise<KeyUsageMinute[]> {
    return (await this.keyUsageMany([keyId], from, to))[0] ?? [];
  }

  operationsOfKeys(keyIds: readonly string[], from: number): Promise<KeyOperationUsage[][]> {
    return operationsOfKeys(this.db, keyIds, from);
  }

  documentUsageMany(refs: readonly DocumentRef[], from: number): Promise<OperationTotals[]> {
    return documentUsageMany(this.db, refs, from);
  }

  async serviceStats(from: number, to: number): Promise<ServiceStats> {
    const lo = minuteOf(from);
    const hi = minuteOf(to);
    const plans = await this.db.query<{
      minute: number;
      plan: string;
      requests: number;
      client_errors: number;
      server_errors: number;
      rate_limited: number;
      unauthorized: number;
    }>(
      `SELECT minute, plan, requests, client_errors, server_errors, rate_limited, unauthorized
       FROM usage_plan_minutes WHERE minute BETWEEN $1 AND $2 AND requests > 0 ORDER BY minute, plan`,
      [lo, hi],
    );
    const costs = await this.db.query<{ up_to: number; n: number }>(
      `SELECT up_to, sum(count)::bigint AS n FROM usage_cost_minutes WHERE minute BETWEEN $1 AND $2 GROUP BY up_to`,
      [lo, hi],
    );
    const histogram: CostBucket[] = [...COST_BUCKETS, null].map((upTo) => ({ upTo, count: 0 }));
    for (const row of costs.rows) {
      const upTo = Number(row.up_to);
      // A bound no longer in the list (the buckets changed) counts in the bucket its operations now fall in.
      const i = upTo === OPEN_BUCKET ? COST_BUCKETS.length : costBucket(upTo);
      (histogram[i] as CostBucket).count += Number(row.n);
    }
    return {
      from,
      to,
      perPlan: plans.rows.map((r) => ({
        minute: Number(r.minute),
        plan: r.plan,
        requests: Number(r.requests),
        clientErrors: Number(r.client_errors),
        serverErrors: Number(r.server_errors),
        rateLimited: Number(r.rate_limited),
        unauthorized: Number(r.unauthorized),
      })),
      costHistogram: histogram,
    };
  }
}
