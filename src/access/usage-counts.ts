/** One minute's usage counters in memory, until the recorder writes them (`usage.ts`). */
import { COST_BUCKETS } from './usage.ts';
import type { KeyOutcome } from './usage.ts';

// Counter layouts (indexes into the small arrays kept per key / plan).
export const K_ADMITTED = 0;
export const K_RATE_LIMITED = 1;
export const K_UNAUTHORIZED = 2;
export const KEY_INDEX: Readonly<Record<KeyOutcome, number>> = {
  admitted: K_ADMITTED,
  rateLimited: K_RATE_LIMITED,
  unauthorized: K_UNAUTHORIZED,
};
export const P_REQUESTS = 0;
export const P_CLIENT = 1;
export const P_SERVER = 2;
export const P_RATE_LIMITED = 3;
export const P_UNAUTHORIZED = 4;

/** The counts of one minute, in memory until the next flush. */
export class MinuteCounts {
  readonly keys = new Map<string, number[]>();
  readonly plans = new Map<string, number[]>();
  readonly costs: number[] = new Array<number>(COST_BUCKETS.length + 1).fill(0);
  costed = false;
}

/** The counts of one flush: minute start → counts. */
export type UsageBatch = ReadonlyMap<number, MinuteCounts>;

/** How many events a batch holds (requests, key events and costed operations). */
export function countOf(batch: UsageBatch): number {
  let n = 0;
  for (const m of batch.values()) {
    for (const v of m.keys.values()) n += (v[0] as number) + (v[1] as number) + (v[2] as number);
    for (const v of m.plans.values()) n += v[P_REQUESTS] as number;
    for (const c of m.costs) n += c;
  }
  return n;
}
