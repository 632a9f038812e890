/**
 * Usage per operation (`013_operation_usage.sql`): the counts of one flush in memory, their additive write (one
 * `unnest` upsert whatever the number of rows), pruning, and the per-key read. The per-app reads are
 * `src/accounts/app-usage.ts`'s.
 */
import type { Queryable } from '../store/db.ts';
import { isUuid } from '../core/ids.ts';
import { dayOf } from './usage.ts';
import type {
  DocumentRef,
  KeyOperationUsage,
  OperationOutcome,
  OperationRef,
  OperationTotals,
} from './usage.ts';

/** One row of a flush: a key's operation on one day, and its counts. */
export interface OperationCounts {
  keyId: string;
  day: number;
  kind: 'document' | 'tool';
  /** The document's SHA-256 (lowercase hex) or the tool's name. */
  operation: string;
  /** Empty for a tool. */
  appId: string;
  version: string;
  requests: number;
  errors: number;
  refusals: number;
  cost: number;
}

/** The counts of one flush, by row (key, day, operation). */
export type OperationBatch = Map<string, OperationCounts>;

/** Adds one event to `batch` (what the recorder calls on the request path: a string key and a Map lookup). */
export function countOperation(
  batch: OperationBatch,
  at: number,
  keyId: string,
  op: OperationRef,
  outcome: OperationOutcome,
  cost: number,
): void {
  const day = dayOf(at);
  const [kind, operation, appId, version] =
    op.kind === 'tool'
      ? (['tool', op.name, '', ''] as const)
      : (['document', op.hash, op.appId, op.version] as const);
  const id = `${day}\u0000${keyId}\u0000${kind}\u0000${operation}\u0000${appId}\u0000${version}`;
  let c = batch.get(id);
  if (!c) {
    c = { keyId, day, kind, operation, appId, version, requests: 0, errors: 0, refusals: 0, cost: 0 };
    batch.set(id, c);
  }
  c.requests++;
  if (outcome === 'error') c.errors++;
  else if (outcome === 'refused') c.refusals++;
  if (Number.isFinite(cost) && cost > 0) c.cost += Math.round(cost);
}

/** How many requests a batch holds. */
export function operationCountOf(batch: OperationBatch): number {
  let n = 0;
  for (const c of batch.values()) n += c.requests;
  return n;
}

/** Adds a batch to the store in one statement (rows whose key is not a UUID are left out: no key row to count on). */
export async function writeOperationUsage(q: Queryable, batch: OperationBatch): Promise<void> {
  const rows = [...batch.values()].filter((c) => isUuid(c.keyId));
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO usage_operation_days AS t
       (key_id, day, kind, operation, app_id, version, requests, errors, refusals, cost)
     SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[],
                          $7::int[], $8::int[], $9::int[], $10::bigint[])
     ON CONFLICT (key_id, day, kind, operation, app_id, version) DO UPDATE SET
       requests = t.requests + EXCLUDED.requests,
       errors = t.errors + EXCLUDED.errors,
       refusals = t.refusals + EXCLUDED.refusals,
       cost = t.cost + EXCLUDED.cost`,
    [
      rows.map((c) => c.keyId),
      rows.map((c) => c.day),
      rows.map((c) => c.kind),
      rows.map((c) => c.operation),
      rows.map((c) => c.appId),
      rows.map((c) => c.version),
      rows.map((c) => c.requests),
      rows.map((c) => c.errors),
      rows.map((c) => c.refusals),
      rows.map((c) => c.cost),
    ],
  );
}

/** Deletes every row of a day before the day holding `before` (UNIX ms). */
export async function pruneOperationUsage(q: Queryable, before: number): Promise<void> {
  await q.query('DELETE FROM usage_operation_days WHERE day < $1', [dayOf(before)]);
}

/**
 * The operations of many keys from the UTC day holding `from` on (one read): per key as asked, tools then documents,
 * most requested first.
 */
export async function operationsOfKeys(
  q: Queryable,
  keyIds: readonly string[],
  from: number,
): Promise<KeyOperationUsage[][]> {
  const wanted = [...new Set(keyIds.filter(isUuid).map((id) => id.toLowerCase()))];
  const byKey = new Map<string, KeyOperationUsage[]>();
  if (wanted.length > 0) {
    const r = await q.query<{
      key_id: string;
      kind: 'document' | 'tool';
      operation: string;
      app_id: string;
      version: string;
      requests: number;
      errors: number;
      refusals: number;
      cost: number;
    }>(
      `SELECT key_id, kind, operation, app_id, version, sum(requests)::bigint AS requests,
              sum(errors)::bigint AS errors, sum(refusals)::bigint AS refusals, sum(cost)::bigint AS cost
       FROM usage_operation_days WHERE key_id = ANY($1::uuid[]) AND day >= $2
       GROUP BY key_id, kind, operation, app_id, version
       ORDER BY key_id, kind DESC, sum(requests) DESC, operation, version`,
      [wanted, dayOf(from)],
    );
    for (const row of r.rows) {
      const id = String(row.key_id).toLowerCase();
      let list = byKey.get(id);
      if (!list) byKey.set(id, (list = []));
      list.push({
        kind: row.kind,
        operation: row.operation,
        appId: row.kind === 'tool' ? null : row.app_id,
        version: row.kind === 'tool' ? null : row.version,
        requests: Number(row.requests),
        errors: Number(row.errors),
        refusals: Number(row.refusals),
        cost: Number(row.cost),
      });
    }
  }
  return keyIds.map((id) => (byKey.get(id.toLowerCase()) ?? []).map((e) => ({ ...e })));
}

/** The usage of many documents of app versions (all keys together) from the UTC day holding `from` on: one read. */
export async function documentUsageMany(
  q: Queryable,
  refs: readonly DocumentRef[],
  from: number,
): Promise<OperationTotals[]> {
  const id = (r: { appId: string; version: string; hash: string }) =>
    `${r.appId}\u0000${r.version}\u0000${r.hash}`;
  const found = new Map<string, OperationTotals>();
  const apps = [...new Set(refs.map((r) => r.appId.toLowerCase()))];
  if (apps.length > 0) {
    const r = await q.query<{
      app_id: string;
      version: string;
      operation: string;
      requests: number;
      errors: number;
      refusals: number;
      cost: number;
    }>(
      `SELECT app_id, version, operation, sum(requests)::bigint AS requests, sum(errors)::bigint AS errors,
              sum(refusals)::bigint AS refusals, sum(cost)::bigint AS cost
       FROM usage_operation_days WHERE kind = 'document' AND app_id = ANY($1::text[]) AND day >= $2
       GROUP BY app_id, version, operation`,
      [apps, dayOf(from)],
    );
    for (const row of r.rows)
      found.set(id({ appId: row.app_id, version: row.version, hash: row.operation }), {
        requests: Number(row.requests),
        errors: Number(row.errors),
        refusals: Number(row.refusals),
        cost: Number(row.cost),
      });
  }
  return refs.map(
    (r) =>
      found.get(id({ ...r, appId: r.appId.toLowerCase() })) ?? {
        requests: 0,
        errors: 0,
        refusals: 0,
        cost: 0,
      },
  );
}
