/**
 * Supply verification reused across the many aggregations of a backfill: an asset's figures change only when its
 * records change or when one of them becomes usable or unusable as time goes on (`usableRecord`), so between such
 * moments {@link verifySupply} would return the same figures. The memo checks exactly that and otherwise verifies.
 */
import type { SupplyRecord } from '../ingest/types.ts';
import type { MarketState } from './state.ts';
import type { SupplyOptions } from './supply.ts';
import { DEFAULT_SUPPLY_OPTIONS, usableRecord, verifySupply } from './supply.ts';
import type { SupplyFigures } from './types.ts';

interface Entry {
  version: number;
  maxAgeMs: number;
  /** `usableRecord` of each record, in the order of the state's map. */
  usable: boolean[];
  figures: SupplyFigures;
}

/** Remembers each asset's last verified figures; one memo per run of aggregations over one {@link MarketState}. */
export class SupplyMemo {
  private readonly entries = new Map<string, Entry>();

  /** `verifySupply(state.supplyOf(asset), now, opts)`, or the same figures remembered when they cannot differ. */
  figures(state: MarketState, asset: string, now: number, opts: SupplyOptions = {}): SupplyFigures {
    const maxAgeMs = opts.maxAgeMs ?? DEFAULT_SUPPLY_OPTIONS.maxAgeMs;
    const version = state.supplyVersion(asset);
    const records = state.supply.get(asset)?.values() ?? [];
    const usable: boolean[] = [];
    for (const r of records as Iterable<SupplyRecord>) usable.push(usableRecord(r, now, maxAgeMs));
    const e = this.entries.get(asset);
    if (e && e.version === version && e.maxAgeMs === maxAgeMs && same(e.usable, usable)) return e.figures;
    const figures = verifySupply(state.supplyOf(asset), now, opts);
    this.entries.set(asset, { version, maxAgeMs, usable, figures });
    return figures;
  }
}

function same(a: readonly boolean[], b: readonly boolean[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
