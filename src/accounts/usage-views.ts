/**
 * Request statistics as an account reads them in the graph (`ApiKey.usage`, `ApiKey.operations`,
 * `AppDocument.usage`): batch reads over the process's `UsageReads` (the access layer's recorder, or a reader over the
 * store), each batch read once over the widest window it asks and each answer cut to its own window. Built once per
 * process (`src/services.ts`); the accounts subgraph's loaders wrap these methods.
 */
import { MINUTE_MS, minuteOf } from '../access/usage.ts';
import type { KeyUsageMinute, OperationTotals, UsageReads } from '../access/usage.ts';
import type { Queryable } from '../store/db.ts';
import { namedOperations, windowStart } from './app-usage.ts';
import type { NamedKeyOperation } from './app-usage.ts';

/** A key's last `minutes` minutes (1–1440, checked by the caller). */
export interface KeyUsageRequest {
  keyId: string;
  minutes: number;
}

/** A document of an app version over the last `days` UTC days (1–35, checked by the caller). */
export interface DocumentUsageRequest {
  appId: string;
  version: string;
  hash: string;
  days: number;
}

export class UsageViews {
  constructor(
    /** The statistics read (the process's recorder writes its pending counts first). */
    readonly usage: UsageReads,
    private readonly db: Queryable,
  ) {}

  /**
   * The usage of many (key, minutes) pairs in one read: each pair's last `minutes` minutes up to the minute of `now`,
   * oldest first, zeros included.
   */
  async keyUsage(reqs: readonly KeyUsageRequest[], now: number): Promise<KeyUsageMinute[][]> {
    if (reqs.length === 0) return [];
    const widest = Math.max(...reqs.map((r) => r.minutes));
    const ids = [...new Set(reqs.map((r) => r.keyId))];
    const series = await this.usage.keyUsageMany(ids, minuteOf(now) - (widest - 1) * MINUTE_MS, now);
    const byId = new Map(ids.map((id, i) => [id, series[i] ?? []]));
    return reqs.map((r) => (byId.get(r.keyId) ?? []).slice(widest - r.minutes));
  }

  /** The usage of many documents, one read per distinct `days` (one per request in practice). */
  async documentUsage(reqs: readonly DocumentUsageRequest[], now: number): Promise<OperationTotals[]> {
    const byDays = new Map<number, DocumentUsageRequest[]>();
    for (const r of reqs) byDays.set(r.days, [...(byDays.get(r.days) ?? []), r]);
    const out = new Map<DocumentUsageRequest, OperationTotals>();
    for (const [days, list] of byDays) {
      const totals = await this.usage.documentUsageMany(list, windowStart(now, days));
      list.forEach((r, i) => out.set(r, totals[i] as OperationTotals));
    }
    return reqs.map((r) => out.get(r) as OperationTotals);
  }

  /** The usage per operation of many keys, named (the documents' operation names, the apps' names): two reads. */
  async keyOperations(
    reqs: readonly { keyId: string; days: number }[],
    now: number,
  ): Promise<NamedKeyOperation[][]> {
    const out: NamedKeyOperation[][] = [];
    for (const days of new Set(reqs.map((r) => r.days))) {
      const list = reqs.filter((r) => r.days === days);
      const named = await namedOperations(
        this.db,
        await this.usage.operationsOfKeys(
          list.map((r) => r.keyId),
          windowStart(now, days),
        ),
      );
      list.forEach((r, i) => (out[reqs.indexOf(r)] = named[i] ?? []));
    }
    return out;
  }
}
