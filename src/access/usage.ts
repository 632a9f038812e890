/**
 * Request statistics for the developer portal (requests per minute of each key, with 429s and 401s) and the
 * administrator dashboard (request and error rates per plan, rate-limit hits, the query-cost distribution).
 *
 * The request path only increments counters in memory ({@link UsageSink}: a Map lookup and an addition, nothing
 * awaited, nothing that can throw on a store problem). A {@link UsageRecorder} adds them up per minute and writes
 * them every few seconds (and on `close`) with additive upserts (`n = t.n + EXCLUDED.n`) into the tables of
 * `008_usage.sql`, so several processes sharing one PostgreSQL add up. A failed write is logged and its counts are
 * dropped: statistics never fail or slow a request. Rows older than the retention (2 days) are deleted by the
 * writers now and then.
 *
 * What is counted (docs/plans-and-limits.md, "Usage and service statistics"):
 *
 * - per key and minute (the access layer, `createAccess({ usage })`): requests admitted, refused by the rate limit
 *   (429), refused for the key's state (401: pending, rejected, revoked);
 * - per plan and minute (the transports: the REST access hook, the router): every answered REST request and
 *   GraphQL operation with its status;
 * - per minute and cost bucket (the router): every GraphQL operation whose cost was estimated.
 */
import type { Plan } from './plans.ts';
import type { Queryable } from '../store/db.ts';

/** A request's plan in the statistics: a key's plan, or `keyless` (also for an unknown key). */
export type UsagePlan = Plan | 'keyless';

/** What happened to one request carrying a known key. */
export type KeyOutcome = 'admitted' | 'rateLimited' | 'unauthorized';

export const MINUTE_MS = 60_000;

/** Inclusive upper bounds of the query-cost buckets; a last bucket (`upTo: null`) takes everything above. */
export const COST_BUCKETS: readonly number[] = [
  0, 10, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 20_000,
];

/** How long rows are kept: 2 days (the widest window a reader may ask is 1 day). */
export const USAGE_RETENTION_MS = 2 * 24 * 3_600_000;

/** The write side, called on the request path. Every call is O(1) and synchronous; none throws. */
export interface UsageSink {
  /** One request with a known key: admitted, refused by its budget (429) or refused for its state (401). */
  key(keyId: string, outcome: KeyOutcome): void;
  /** One answered REST request or GraphQL operation under `plan`, with its HTTP status. */
  request(plan: UsagePlan, status: number): void;
  /** One GraphQL operation's estimated cost. */
  cost(estimated: number): void;
}

/** One minute of one key (`minute`: start of the minute, UNIX ms). */
export interface KeyUsageMinute {
  minute: number;
  admitted: number;
  rateLimited: number;
  unauthorized: number;
}

/** One minute of one plan. */
export interface PlanMinute {
  minute: number;
  plan: string;
  requests: number;
  clientErrors: number;
  serverErrors: number;
  rateLimited: number;
  unauthorized: number;
}

export interface CostBucket {
  /** Inclusive upper bound; null for the last bucket. */
  upTo: number | null;
  count: number;
}

export interface ServiceStats {
  from: number;
  to: number;
  /** Minutes with requests only, oldest first, then by plan. */
  perPlan: PlanMinute[];
  /** Every bucket of {@link COST_BUCKETS} in order, then the last (`upTo: null`), zeros included. */
  costHistogram: CostBucket[];
}

/**
 * The read side. Windows are UNIX ms `from`..`to`, both inclusive, and cover every minute they touch: the minutes
 * starting from `minuteOf(from)` to `minuteOf(to)`.
 */
export interface UsageReads {
  /** Per key id (as asked), one entry per minute of the window, oldest first, zeros included. One SQL read. */
  keyUsageMany(keyIds: readonly string[], from: number, to: number): Promise<KeyUsageMinute[][]>;
  keyUsage(keyId: string, from: number, to: number): Promise<KeyUsageMinute[]>;
  serviceStats(from: number, to: number): Promise<ServiceStats>;
}

export interface UsageLog {
  warn(msg: string, data?: Record<string, unknown>): void;
}

/** Start of the minute holding `t` (UNIX ms). */
export const minuteOf = (t: number): number => Math.floor(t / MINUTE_MS) * MINUTE_MS;

/** Index of the bucket of `cost` in {@link COST_BUCKETS}; `COST_BUCKETS.length` for the last one. */
export function costBucket(cost: number): number {
  const b = COST_BUCKETS;
  let i = 0;
  while (i < b.length && cost > (b[i] as number)) i++;
  return i;
}

// Counter layouts (indexes into the small arrays kept per key / plan).
const K_ADMITTED = 0;
const K_RATE_LIMITED = 1;
const K_UNAUTHORIZED = 2;
const KEY_INDEX: Readonly<Record<KeyOutcome, number>> = {
  admitted: K_ADMITTED,
  rateLimited: K_RATE_LIMITED,
  unauthorized: K_UNAUTHORIZED,
};
const P_REQUESTS = 0;
const P_CLIENT = 1;
const P_SERVER = 2;
const P_RATE_LIMITED = 3;
const P_UNAUTHORIZED = 4;

/** The counts of one minute, in memory until the next flush. */
class MinuteCounts {
  readonly keys = new Map<string, number[]>();
  readonly plans = new Map<string, number[]>();
  readonly costs: number[] = new Array<number>(COST_BUCKETS.length + 1).fill(0);
  costed = false;
}

/** The counts of one flush: minute start → counts. */
export type UsageBatch = ReadonlyMap<number, MinuteCounts>;

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

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads straight from the store (what a process that records nothing, or a test, uses). */
export class UsageReader implements UsageReads {
  constructor(private readonly db: Queryable) {}

  async keyUsageMany(keyIds: readonly string[], from: number, to: number): Promise<KeyUsageMinute[][]> {
    const first = minuteOf(from);
    const n = Math.max(0, (minuteOf(to) - first) / MINUTE_MS + 1);
    const wanted = [...new Set(keyIds.filter((id) => UUID_RE.test(id)).map((id) => id.toLowerCase()))];
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

export interface UsageRecorderOptions {
  /** Clock, UNIX ms; default `Date.now`. */
  now?: () => number;
  /** How long counts wait in memory before they are written; default 5,000 ms. */
  flushIntervalMs?: number;
  /** Rows older than this are deleted; default {@link USAGE_RETENTION_MS}. */
  retentionMs?: number;
  /** How often a flush also deletes old rows; default every 10 minutes. */
  pruneIntervalMs?: number;
  /** Where failed writes are reported (at most once a minute); default nowhere. */
  log?: UsageLog;
}

/**
 * One per process: counts in memory ({@link UsageSink}), writes every `flushIntervalMs` while there is something to
 * write (no timer when idle; the timer never keeps the process alive), and reads through the store
 * ({@link UsageReads}, after writing its own pending counts, so a process reads what it has recorded).
 */
export class UsageRecorder implements UsageSink, UsageReads {
  private pending = new Map<number, MinuteCounts>();
  /** The bucket of the minute recorded last: most calls find their minute here without a Map lookup. */
  private curMinute = Number.NaN;
  private cur: MinuteCounts | null = null;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> = Promise.resolve();
  private lastPrune = Number.NEGATIVE_INFINITY;
  private lastWarn = Number.NEGATIVE_INFINITY;
  private closed = false;
  private readonly now: () => number;
  private readonly flushIntervalMs: number;
  private readonly retentionMs: number;
  private readonly pruneIntervalMs: number;
  private readonly reader: UsageReader;
  /** Counts dropped because their write failed (for tests and diagnostics). */
  dropped = 0;

  constructor(
    private readonly db: Queryable,
    private readonly opts: UsageRecorderOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.flushIntervalMs = opts.flushIntervalMs ?? 5_000;
    this.retentionMs = opts.retentionMs ?? USAGE_RETENTION_MS;
    this.pruneIntervalMs = opts.pruneIntervalMs ?? 600_000;
    this.reader = new UsageReader(db);
  }

  private bucket(): MinuteCounts {
    const m = minuteOf(this.now());
    if (m === this.curMinute && this.cur) return this.cur;
    let b = this.pending.get(m);
    if (!b) {
      b = new MinuteCounts();
      this.pending.set(m, b);
    }
    this.curMinute = m;
    this.cur = b;
    if (this.timer === null && !this.closed) {
      this.timer = setTimeout(() => void this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
    return b;
  }

  key(keyId: string, outcome: KeyOutcome): void {
    const keys = this.bucket().keys;
    let v = keys.get(keyId);
    if (!v) keys.set(keyId, (v = [0, 0, 0]));
    (v[KEY_INDEX[outcome]] as number)++;
  }

  request(plan: UsagePlan, status: number): void {
    const plans = this.bucket().plans;
    let v = plans.get(plan);
    if (!v) plans.set(plan, (v = [0, 0, 0, 0, 0]));
    (v[P_REQUESTS] as number)++;
    const i =
      status === 401
        ? P_UNAUTHORIZED
        : status === 429
          ? P_RATE_LIMITED
          : status >= 500
            ? P_SERVER
            : status >= 400
              ? P_CLIENT
              : -1;
    if (i >= 0) (v[i] as number)++;
  }

  cost(estimated: number): void {
    if (!Number.isFinite(estimated)) return;
    const b = this.bucket();
    (b.costs[costBucket(estimated)] as number)++;
    b.costed = true;
  }

  /**
   * Writes what is pending now (a flush already under way finishes first). Never rejects: a failed write is logged
   * and its counts dropped (counting them again later could count them twice if the write did land).
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    this.cur = null;
    this.curMinute = Number.NaN;
    this.inFlight = this.inFlight.then(() => this.write(batch)).catch(() => undefined);
    return this.inFlight;
  }

  private async write(batch: UsageBatch): Promise<void> {
    // Nothing recorded, nothing to do (a process that only reads, or the CLI, never writes nor prunes).
    if (batch.size === 0) return;
    try {
      await writeUsage(this.db, batch);
    } catch (err) {
      this.dropped += countOf(batch);
      this.warn('usage statistics write failed: counts dropped', err);
    }
    const now = this.now();
    if (now - this.lastPrune < this.pruneIntervalMs) return;
    this.lastPrune = now;
    try {
      await pruneUsage(this.db, minuteOf(now - this.retentionMs));
    } catch (err) {
      this.warn('usage statistics retention failed', err);
    }
  }

  private warn(msg: string, err: unknown): void {
    const now = Date.now();
    if (now - this.lastWarn < 60_000) return;
    this.lastWarn = now;
    this.opts.log?.warn(msg, {
      error: err instanceof Error ? err.message : String(err),
      dropped: this.dropped,
    });
  }

  /** Writes what is pending and stops scheduling writes (counts recorded later wait for an explicit flush). */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  async keyUsageMany(keyIds: readonly string[], from: number, to: number): Promise<KeyUsageMinute[][]> {
    await this.flush();
    return this.reader.keyUsageMany(keyIds, from, to);
  }

  async keyUsage(keyId: string, from: number, to: number): Promise<KeyUsageMinute[]> {
    await this.flush();
    return this.reader.keyUsage(keyId, from, to);
  }

  async serviceStats(from: number, to: number): Promise<ServiceStats> {
    await this.flush();
    return this.reader.serviceStats(from, to);
  }
}

/** How many events a batch holds (requests, key events and costed operations). */
function countOf(batch: UsageBatch): number {
  let n = 0;
  for (const m of batch.values()) {
    for (const v of m.keys.values()) n += (v[0] as number) + (v[1] as number) + (v[2] as number);
    for (const v of m.plans.values()) n += v[P_REQUESTS] as number;
    for (const c of m.costs) n += c;
  }
  return n;
}
