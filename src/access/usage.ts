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
 * The parts: this file (what is counted, the sink and read interfaces), `usage-counts.ts` (one minute's counters in
 * memory), `usage-store.ts` (the SQL writer and reader), `usage-recorder.ts` (the per-process recorder and its timer).
 *
 * What is counted (docs/plans-and-limits.md, "Usage and service statistics"):
 *
 * - per key and minute (the access layer, `createAccess({ usage })`): requests admitted, refused by the rate limit
 *   (429), refused for the key's state (401: pending, rejected, revoked);
 * - per plan and minute (the transports: the REST access hook, the router): every answered REST request and
 *   GraphQL operation with its status;
 * - per minute and cost bucket (the router): every GraphQL operation whose cost was estimated;
 * - per key, UTC day and operation (`usage-operations.ts`, `013_operation_usage.sql`): each trusted document of the
 *   key's app (the router) and each MCP tool call (`router/mcp/`), with errors, refusals and measured cost; kept
 *   {@link OPERATION_RETENTION_MS}.
 */
import type { CallerPlan } from './plans.ts';

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
  /** One answered REST request or GraphQL operation under `plan` (`keyless` also for an unknown key), with its status. */
  request(plan: CallerPlan, status: number): void;
  /** One GraphQL operation's estimated cost. */
  cost(estimated: number): void;
  /** One request of `keyId` for a trusted document of its app or an MCP tool, with its outcome and measured cost. */
  operation(keyId: string, op: OperationRef, outcome: OperationOutcome, cost: number): void;
}

/** What a request ran: a trusted document of one of its key's app versions, or an MCP tool (by name). */
export type OperationRef =
  { kind: 'document'; appId: string; version: string; hash: string } | { kind: 'tool'; name: string };

/**
 * How a counted operation ended: answered without error; answered with GraphQL errors or a 4xx/5xx after admission;
 * refused (by the key's state, its budget, its app's policy or origin).
 */
export type OperationOutcome = 'ok' | 'error' | 'refused';

export const DAY_MS = 86_400_000;

/** How long usage per operation is kept: 40 days, so that a 30-day window (the longest asked) is always whole. */
export const OPERATION_RETENTION_MS = 40 * DAY_MS;

/** The longest window of usage per operation a reader may ask, in days. */
export const OPERATION_MAX_DAYS = 35;

/** Start of the UTC day holding `t` (UNIX ms). */
export const dayOf = (t: number): number => Math.floor(t / DAY_MS) * DAY_MS;

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
  /** Usage per operation of each key (as asked) from the UTC day holding `from` on, summed. One SQL read. */
  operationsOfKeys(keyIds: readonly string[], from: number): Promise<KeyOperationUsage[][]>;
  /** Usage of each document of an app version (as asked; every key together) from the UTC day holding `from`. */
  documentUsageMany(refs: readonly DocumentRef[], from: number): Promise<OperationTotals[]>;
  serviceStats(from: number, to: number): Promise<ServiceStats>;
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

/** Counts of one operation over a window. */
export interface OperationTotals {
  requests: number;
  errors: number;
  refusals: number;
  cost: number;
}

/** One operation of one key over a window: a tool by name, or a document of an app version by hash. */
export interface KeyOperationUsage extends OperationTotals {
  kind: 'document' | 'tool';
  /** The tool's name, or the document's SHA-256 (lowercase hex). */
  operation: string;
  /** The app's id and version (documents); null for a tool. */
  appId: string | null;
  version: string | null;
}

/** A document of an app version, as its usage is asked. */
export interface DocumentRef {
  appId: string;
  version: string;
  /** SHA-256 of the body, lowercase hex. */
  hash: string;
}
