import { ApiError } from '../core/errors.ts';
import { clientIp } from './client-ip.ts';
import { ConcurrencyGate } from './concurrency.ts';
import type { GateBound, OnGone } from './concurrency.ts';
import { AccessRefusal, accessErrors } from './errors.ts';
import type { KeyLookup } from './key-lookup.ts';
import type { ApiKeyRecord } from './key-repo.ts';
import { COST_KEY_PREFIX, createMemoryLimiter } from './limiter.ts';
import type { RateLimitResult, RateLimitStore } from './limiter.ts';
import {
  CONCURRENCY_LIMITS,
  CONCURRENCY_QUEUE,
  CONCURRENCY_WAIT_MS,
  COST_BUDGETS,
  KEYLESS_PER_MINUTE,
  SUBSCRIPTION_IDS,
  SUBSCRIPTION_STREAMS,
} from './plans.ts';
import type { CallerPlan } from './plans.ts';
import { requestKey } from './request-key.ts';
import type { UsageSink } from './usage.ts';

export interface AccessOptions {
  /** Key lookups (and batched last-use notes). */
  keys: Pick<KeyLookup, 'lookup' | 'touch'>;
  /** Request counting: memory (one process) or Redis (shared). */
  limiter: RateLimitStore;
  /** Query-cost counting, the same way; default in this process's memory. */
  costLimiter?: RateLimitStore | undefined;
  /** Query cost per minute per plan; default {@link COST_BUDGETS}. */
  costBudgets?: Partial<Record<CallerPlan, number>> | undefined;
  /** Requests in flight at once per plan, in this process; default {@link CONCURRENCY_LIMITS}. */
  concurrency?: Partial<Record<CallerPlan, number>> | undefined;
  /** Requests waiting for a place in flight at once per plan, in this process; default {@link CONCURRENCY_QUEUE}. */
  concurrencyQueue?: Partial<Record<CallerPlan, number>> | undefined;
  /** The longest a request waits for a place in flight, ms; default {@link CONCURRENCY_WAIT_MS}. */
  concurrencyWaitMs?: number | undefined;
  /** Open subscriptions at once per plan, in this process; default {@link SUBSCRIPTION_STREAMS}. */
  subscriptionStreams?: Partial<Record<CallerPlan, number>> | undefined;
  /** Coins one subscription may ask for, per plan; default {@link SUBSCRIPTION_IDS}. */
  subscriptionIds?: Partial<Record<CallerPlan, number>> | undefined;
  /** Proxies whose `X-Forwarded-For` is believed (`TRUSTED_PROXIES`); default none: the socket peer is the client. */
  trustedProxies?: readonly string[] | undefined;
  /** Budget per client IP without a key; default 240 per minute. */
  keylessPerMinute?: number | undefined;
  /**
   * Request statistics per key (`src/access/usage.ts`): `admit` notes each admitted and each rate-limited request of
   * a key, `identify` each request refused for a known key's state (401). A counter increment, never awaited.
   */
  usage?: Pick<UsageSink, 'key'> | undefined;
}

/** What `check` needs of a request, whatever the transport (Fastify route, GraphQL router). */
export interface AccessRequest {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  query: Readonly<Record<string, unknown>>;
  /** The TCP peer's address. */
  socketIp: string;
}

export interface AccessGrant {
  ok: true;
  plan: CallerPlan;
  /** The rate-limit identity: `key:<id>` or `ip:<addr>`. */
  identity: string;
  key: ApiKeyRecord | null;
  /** `x-ratelimit-limit`, `x-ratelimit-remaining`, `x-ratelimit-reset` (seconds), `x-api-plan`. */
  headers: Record<string, string>;
}

/**
 * A refusal: 400/401 from the key step, 429 from a budget (with the rate-limit headers and `retry-after`, whole
 * seconds, at least 1), 503 `STORE_UNAVAILABLE` (with `retry-after`) when a key could not be looked up.
 */
export type AccessDecision = AccessGrant | AccessRefusal;

/** Who is calling, once the key (if any) is known to be usable: what {@link Access.admit} counts against. */
export interface Caller {
  plan: CallerPlan;
  /** The rate-limit identity: `key:<id>` or `ip:<addr>`. */
  identity: string;
  key: ApiKeyRecord | null;
  /** The per-minute budget of this identity. */
  limitPerMinute: number;
}

/** A charge against a cost budget that was admitted: what is left of the budget, and the headers that say so. */
export interface CostGrant {
  ok: true;
  /** The budget: query cost per minute. */
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export interface Access {
  /** The key step then the budget step: what the REST services run before each request. */
  check(req: AccessRequest): Promise<AccessDecision>;
  /**
   * The key step alone: which key (if any) and whether it may be used (400/401 denials). Counts nothing against the
   * budget (a 401 for a known key is noted in the usage statistics).
   */
  identify(req: AccessRequest): Promise<Caller | AccessRefusal>;
  /** The budget step alone: counts one request of `caller` (429 when the budget is spent). */
  admit(caller: Caller): Promise<AccessDecision>;
  /**
   * The 429 of a caller whose request budget this process has already seen spent, until its window resets: what a
   * transport answers before it reads a body. Null otherwise (then `admit` decides). Counted as a rate-limited
   * request of the key.
   */
  spent(caller: Caller): AccessRefusal | null;
  /**
   * Charges `points` of query cost to the caller's per-minute cost budget: 429 `COST_BUDGET_EXHAUSTED` (with
   * `retry-after`) when fewer are left, the refused points not counted.
   */
  charge(caller: Pick<Caller, 'plan' | 'identity'>, points: number): Promise<CostGrant | AccessRefusal>;
  /** Corrects an admitted charge by `points` (negative: a refund) once the cost is measured; in the background. */
  correct(caller: Pick<Caller, 'plan' | 'identity'>, points: number): void;
  /**
   * Takes one of the caller's places in flight in this process, waiting for it in the caller's queue when all are
   * taken (`src/access/concurrency.ts`): the function that gives it back when the request ends; 429
   * `TOO_MANY_CONCURRENT` when the queue is full or the wait too long; null when the client went away while it
   * waited (`gone`): there is nobody to answer.
   */
  enter(
    caller: Pick<Caller, 'plan' | 'identity'>,
    gone?: OnGone,
  ): Promise<(() => void) | AccessRefusal | null>;
  /** Requests that have waited for a place in flight in this process since start (a counter). */
  waited(): number;
  /**
   * Takes one of the caller's open-subscription places in this process: the function that gives it back when the
   * stream ends, or 429 `TOO_MANY_SUBSCRIPTIONS` when its plan's limit is reached.
   */
  openStream(caller: Pick<Caller, 'plan' | 'identity'>): (() => void) | AccessRefusal;
  /** The most coins one subscription of `plan` may ask for. */
  idsPerStream(plan: CallerPlan): number;
}

/** The refusal of a key in each state but approved. */
const STATE_ERROR = {
  pending: accessErrors.keyPending,
  rejected: accessErrors.keyRejected,
  revoked: accessErrors.keyRevoked,
} as const;

/**
 * The access check shared by every REST service and the GraphQL router: which key (if any), whether it may be used,
 * and whether its per-minute budget allows this request. Pure wiring over request-key, keys, client-ip and limiter.
 */
export function createAccess(opts: AccessOptions): Access {
  const trusted = opts.trustedProxies ?? [];
  const keyless = opts.keylessPerMinute ?? KEYLESS_PER_MINUTE;

  const usage = opts.usage;
  const costLimiter = opts.costLimiter ?? createMemoryLimiter(COST_KEY_PREFIX);
  const costBudgets = { ...COST_BUDGETS, ...opts.costBudgets };
  const concurrency = { ...CONCURRENCY_LIMITS, ...opts.concurrency };
  const queue = { ...CONCURRENCY_QUEUE, ...opts.concurrencyQueue };
  const waitMs = opts.concurrencyWaitMs ?? CONCURRENCY_WAIT_MS;
  const gate = new ConcurrencyGate();
  const streams = { ...SUBSCRIPTION_STREAMS, ...opts.subscriptionStreams };
  const streamIds = { ...SUBSCRIPTION_IDS, ...opts.subscriptionIds };
  const streamGate = new ConcurrencyGate();

  const identify = async (req: AccessRequest): Promise<Caller | AccessRefusal> => {
    const found = requestKey(req.headers, req.query);
    if (found.kind === 'conflict') return new AccessRefusal(accessErrors.keyConflict());
    if (found.kind === 'invalid') return new AccessRefusal(accessErrors.keyUnknown());
    if (found.kind === 'none') {
      const ip = clientIp(req.socketIp, req.headers['x-forwarded-for'], trusted);
      return { plan: 'keyless', identity: `ip:${ip || 'unknown'}`, key: null, limitPerMinute: keyless };
    }
    let key: ApiKeyRecord | null;
    try {
      key = await opts.keys.lookup(found.key);
    } catch (e) {
      // The store did not answer (503 STORE_UNAVAILABLE): every transport answers it as a refusal, never a 500.
      if (e instanceof ApiError && e.status === 503)
        return new AccessRefusal(e, { headers: { ...e.headers } });
      throw e;
    }
    if (!key) return new AccessRefusal(accessErrors.keyUnknown());
    if (key.status !== 'approved') {
      usage?.key(key.id, 'unauthorized');
      return new AccessRefusal(STATE_ERROR[key.status](), { plan: key.plan, keyId: key.id });
    }
    return { plan: key.plan, identity: `key:${key.id}`, key, limitPerMinute: key.limitPerMinute };
  };

  /** Identities this process saw over their request budget → when their window resets (ms), a bounded few. */
  const spentUntil = new Map<string, number>();
  const admit = async (caller: Caller): Promise<AccessDecision> => {
    const counted = await opts.limiter.consume(caller.identity, caller.limitPerMinute);
    const decision = decide(counted, caller.plan, caller.identity, caller.key);
    if (!counted.allowed) {
      if (spentUntil.size >= MAX_SPENT) spentUntil.clear();
      spentUntil.set(caller.identity, Date.now() + counted.resetMs);
    }
    if (caller.key) {
      if (decision.ok) opts.keys.touch(caller.key.id);
      usage?.key(caller.key.id, decision.ok ? 'admitted' : 'rateLimited');
    }
    return decision;
  };

  const charge = async (caller: Pick<Caller, 'plan' | 'identity'>, points: number) => {
    const limit = costBudgets[caller.plan];
    const r = await costLimiter.consume(caller.identity, limit, points);
    if (r.allowed) return { ok: true as const, limit, remaining: r.remaining, resetMs: r.resetMs };
    // Refused: nothing was counted, so a smaller operation may still fit what is left.
    return costDenial(caller.plan, limit, points, r);
  };

  const spent = (caller: Caller): AccessRefusal | null => {
    const until = spentUntil.get(caller.identity);
    if (until === undefined) return null;
    const left = until - Date.now();
    if (left <= 0) {
      spentUntil.delete(caller.identity);
      return null;
    }
    if (caller.key) usage?.key(caller.key.id, 'rateLimited');
    const d = decide(
      { allowed: false, limit: caller.limitPerMinute, remaining: 0, resetMs: left },
      caller.plan,
      caller.identity,
      caller.key,
    );
    return d.ok ? null : d;
  };

  return {
    identify,
    admit,
    spent,
    charge,
    correct(caller, points) {
      void costLimiter.adjust(caller.identity, costBudgets[caller.plan], points);
    },
    async enter(caller, gone) {
      const bound = { places: concurrency[caller.plan], queue: queue[caller.plan], waitMs };
      const turn = await gate.enter(caller.identity, bound, gone);
      if (typeof turn === 'function') return turn;
      if (turn === 'gone') return null;
      return concurrencyDenial(caller.plan, bound, turn);
    },
    waited: () => gate.waited(),
    openStream(caller) {
      const limit = streams[caller.plan];
      return streamGate.tryEnter(caller.identity, limit) ?? streamDenial(caller.plan, limit);
    },
    idsPerStream: (plan) => streamIds[plan],
    async check(req) {
      const who = await identify(req);
      return 'ok' in who ? who : admit(who);
    },
  };
}

function decide(
  r: RateLimitResult,
  plan: CallerPlan,
  identity: string,
  key: ApiKeyRecord | null,
): AccessDecision {
  const reset = Math.ceil(r.resetMs / 1000);
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(r.limit),
    'x-ratelimit-remaining': String(r.remaining),
    'x-ratelimit-reset': String(reset),
    'x-api-plan': plan,
  };
  if (r.allowed) return { ok: true, plan, identity, key, headers };
  const retry = Math.max(1, reset);
  headers['retry-after'] = String(retry);
  return new AccessRefusal(accessErrors.rateLimited(r.limit, plan, retry), { headers, plan, keyId: key?.id });
}

/** Identities kept as over their request budget at most (beyond, the list starts again: each is seen anew by `admit`). */
const MAX_SPENT = 10_000;

function costDenial(plan: CallerPlan, limit: number, points: number, r: RateLimitResult): AccessRefusal {
  const retry = Math.max(1, Math.ceil(r.resetMs / 1000));
  // What was left before this operation (`consumed` is what the count would have been with it).
  const left = Math.max(0, limit - ((r.consumed ?? limit) - points));
  return new AccessRefusal(accessErrors.costBudgetExhausted(limit, plan, points, left, retry), { plan });
}

/** The refusal of a request that found its caller's queue full, or waited its longest without a place. */
function concurrencyDenial(plan: CallerPlan, bound: GateBound, why: 'full' | 'timeout'): AccessRefusal {
  const error =
    why === 'full'
      ? accessErrors.queueFull(plan, bound.places, bound.queue)
      : accessErrors.waitedTooLong(plan, bound.places, bound.queue, bound.waitMs / 1000);
  return new AccessRefusal(error, { plan });
}

function streamDenial(plan: CallerPlan, limit: number): AccessRefusal {
  return new AccessRefusal(accessErrors.tooManySubscriptions(plan, limit), { plan });
}
