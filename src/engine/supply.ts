/**
 * Supply verification and the figures derived from it (market cap, FDV). The rules are documented for API users
 * in docs/methodology.md ("Supply and market cap").
 */
import type { SupplyKind, SupplyRecord } from '../ingest/types.ts';
import { median } from './stats.ts';
import type { SupplyFigures, SupplyStatus } from './types.ts';

/** Options of {@link verifySupply}. */
export interface SupplyOptions {
  /** Relative tolerance for two sources to agree, against the median of the agreeing figures. Default 0.01 (1 %). */
  tolerance?: number;
  /** Records older than this (`now - ts > maxAgeMs`) are ignored. Default 7 days. */
  maxAgeMs?: number;
}

/** Default {@link SupplyOptions}. */
export const DEFAULT_SUPPLY_OPTIONS: Readonly<Required<SupplyOptions>> = Object.freeze({
  tolerance: 0.01,
  maxAgeMs: 7 * 86_400_000,
});

/** A record timestamped more than this far in the future is invalid and ignored. */
const MAX_FUTURE_SKEW_MS = 60_000;

/**
 * Verifies one asset's supply records.
 *
 * - Only the latest record per (source, kind) counts (on equal `ts`, the later one in `records`), and only when it
 *   is fresh (`now - ts <= maxAgeMs`, at most 60 s in the future) with a finite value.
 * - Circulating: the figures (> 0; a 0 is treated as a failed read) of distinct sources are clustered: a cluster is
 *   a set of figures that all lie within `tolerance × median` of the cluster's median. When the largest cluster
 *   holds at least two sources and no other cluster is as large, circulating is its median and `verified` is true.
 *   Otherwise (one source, disagreeing sources, or a tie between clusters) circulating is null. `status` says
 *   which, `readings` lists each source's figure (and whether it agrees), `spread` their widest relative deviation.
 * - Total: the median of the latest total figures (> 0), else null. No agreement needed.
 * - Max: the median of the latest max figures (> 0), else null. A max figure of exactly 0 from a source of kind
 *   `emission` means "no cap": `maxInfinite` is true and `max` is null, whatever other sources say.
 * - `updatedAt`: the newest `ts` among the records behind a non-null figure or `maxInfinite`, else null.
 *
 * @param records the asset's records (the `asset` field is not checked)
 * @param now UNIX milliseconds freshness is measured from
 * @param opts tolerance (default 0.01) and maxAgeMs (default 7 days)
 */
export function verifySupply(
  records: readonly SupplyRecord[],
  now: number,
  opts: SupplyOptions = {},
): SupplyFigures {
  const tolerance = opts.tolerance ?? DEFAULT_SUPPLY_OPTIONS.tolerance;
  const maxAgeMs = opts.maxAgeMs ?? DEFAULT_SUPPLY_OPTIONS.maxAgeMs;

  const latest = new Map<string, SupplyRecord>();
  for (const r of records) {
    if (!usableRecord(r, now, maxAgeMs)) continue;
    const key = `${r.kind}\u0000${r.source}`;
    const prev = latest.get(key);
    if (prev === undefined || r.ts >= prev.ts) latest.set(key, r);
  }
  const of = (kind: SupplyKind): SupplyRecord[] => [...latest.values()].filter((r) => r.kind === kind);
  let updatedAt: number | null = null;
  const use = (rs: readonly SupplyRecord[]): void => {
    for (const r of rs) if (updatedAt === null || r.ts > updatedAt) updatedAt = r.ts;
  };

  const circ = of('circulating')
    .filter((r) => r.value > 0)
    .sort((a, b) => (a.source < b.source ? -1 : 1));
  const cluster = largestCluster(circ, tolerance);
  if (cluster) use(cluster);
  const mid = circ.length > 0 ? median(circ.map((r) => r.value)) : 0;
  const status: SupplyStatus = cluster
    ? 'verified'
    : circ.length === 0
      ? 'no_source'
      : circ.length === 1
        ? 'single_source'
        : 'sources_disagree';

  const totals = of('total').filter((r) => r.value > 0);
  use(totals);

  const maxRecords = of('max');
  const uncapped = maxRecords.filter((r) => r.value === 0 && r.sourceKind === 'emission');
  const capped = maxRecords.filter((r) => r.value > 0);
  use(uncapped.length > 0 ? uncapped : capped);

  return {
    circulating: cluster ? median(cluster.map((r) => r.value)) : null,
    verified: cluster !== null,
    circulatingSources: circ.length,
    status,
    readings: circ.map((r) => ({
      source: r.source,
      sourceKind: r.sourceKind,
      value: r.value,
      ts: r.ts,
      agrees: cluster?.includes(r) ?? false,
    })),
    spread: circ.length < 2 ? null : Math.max(...circ.map((r) => Math.abs(r.value - mid))) / mid,
    total: totals.length > 0 ? median(totals.map((r) => r.value)) : null,
    max: uncapped.length === 0 && capped.length > 0 ? median(capped.map((r) => r.value)) : null,
    maxInfinite: uncapped.length > 0,
    updatedAt,
  };
}

/**
 * Whether {@link verifySupply} counts a record at `now`: fresh (`now - ts <= maxAgeMs`, at most 60 s in the future)
 * and with a finite value >= 0. Its answer is the only way `now` enters the verification.
 */
export function usableRecord(r: SupplyRecord, now: number, maxAgeMs: number): boolean {
  const age = now - r.ts;
  return !(!(age <= maxAgeMs) || age < -MAX_FUTURE_SKEW_MS || !(r.value >= 0 && r.value < Infinity));
}

/**
 * Why a circulating supply is verified or not, in one sentence for API users (REST and the graph say the same).
 * Null when it is verified.
 */
export function supplyStatusReason(
  s: SupplyFigures,
  tolerance = DEFAULT_SUPPLY_OPTIONS.tolerance,
): string | null {
  const pct = (x: number): string => `${Number((x * 100).toPrecision(3))} %`;
  switch (s.status) {
    case 'verified':
      return null;
    case 'no_source':
      return 'no source reported a circulating supply recently';
    case 'single_source':
      return `only one source (${s.readings[0]?.source}) reports a circulating supply; two independent sources must agree within ${pct(tolerance)}`;
    case 'sources_disagree':
      return `the ${s.readings.length} sources disagree: up to ${pct(s.spread ?? 0)} from their median, where no more than ${pct(tolerance)} is allowed`;
  }
}

/**
 * The unique largest set of at least two figures (one per source) that agree: every figure within
 * `tolerance × median` of the set's median. Candidates are runs of the figures sorted by value (an agreeing set is
 * always such a run). Null when no two figures agree or two different runs tie for largest.
 */
function largestCluster(rs: readonly SupplyRecord[], tolerance: number): SupplyRecord[] | null {
  const sorted = [...rs].sort((a, b) => a.value - b.value);
  let best: SupplyRecord[] | null = null;
  let tie = false;
  for (let size = sorted.length; size >= 2 && best === null; size--) {
    for (let i = 0; i + size <= sorted.length; i++) {
      const run = sorted.slice(i, i + size);
      const m = median(run.map((r) => r.value));
      const spread = Math.max(m - run[0]!.value, run[size - 1]!.value - m);
      if (!(spread <= tolerance * m)) continue;
      if (best === null) best = run;
      else tie = true;
    }
  }
  return tie ? null : best;
}

/**
 * Market cap in USD: price × verified circulating supply; null when the price is null or the circulating supply
 * is not verified.
 */
export function marketCap(priceUsd: number | null, s: SupplyFigures): number | null {
  if (priceUsd === null || s.circulating === null || !s.verified) return null;
  return priceUsd * s.circulating;
}

/**
 * Fully diluted valuation in USD: price × max supply; null when the price or the max supply is null (also for
 * uncapped coins). Independent of the circulating supply, so it is given even when the market cap is null.
 */
export function fdv(priceUsd: number | null, s: SupplyFigures): number | null {
  if (priceUsd === null || s.max === null) return null;
  return priceUsd * s.max;
}
