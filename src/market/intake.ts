/**
 * How a raw snapshot enters the engine: validated (every reject counted, for `/healthz` and `ingest_rejects`),
 * checked against the ingest log (a snapshot already ingested is not applied again), then applied to the in-memory
 * state (a chain whose height goes backwards is rejected). Shared by ticks and backfills.
 */
import type { MarketState } from '../engine/state.ts';
import { isLegacyDigest, legacySnapshotDigest } from '../ingest/digest.ts';
import type { PreparedSnapshot } from '../ingest/pipeline.ts';
import { prepareSnapshot } from '../ingest/pipeline.ts';
import type { SourceSnapshot } from '../ingest/types.ts';
import { RejectCounter } from '../ingest/validate.ts';
import type { Queryable } from '../store/db.ts';
import { loggedFrom, loggedSnapshots } from '../store/inputs.ts';

/** A snapshot's key in the ingest log (and in a backfill's own memory of what it applied). */
export const snapshotKey = (p: PreparedSnapshot): string => `${p.source}|${p.ts}|${p.digest}`;

/**
 * Whether `keys` (`ts|digest`, of `p`'s source in the ingest log) hold `p`: by its digest, or by the digest a store
 * kept before (`isLegacyDigest`), computed only where the log has one of those at `p`'s time. So a recording
 * replayed again after an upgrade is still known. `p` as validated (before `Intake.apply`).
 */
function holds(keys: ReadonlySet<string>, p: PreparedSnapshot): boolean {
  if (keys.has(`${p.ts}|${p.digest}`)) return true;
  if (!legacyTimes(keys).has(p.ts)) return false;
  return keys.has(`${p.ts}|${legacySnapshotDigest(p)}`);
}

/** The times at which `keys` have a legacy digest, found once per set of keys. */
const legacy = new WeakMap<ReadonlySet<string>, Set<number>>();
function legacyTimes(keys: ReadonlySet<string>): Set<number> {
  let times = legacy.get(keys);
  if (!times) {
    times = new Set();
    for (const k of keys) {
      const bar = k.indexOf('|');
      if (isLegacyDigest(k.slice(bar + 1))) times.add(Number(k.slice(0, bar)));
    }
    legacy.set(keys, times);
  }
  return times;
}

export class Intake {
  /** Every rejected input record since start, with recent examples (reported by `/healthz`). */
  readonly rejects = new RejectCounter();
  /** Rejects not yet written to `ingest_rejects`. */
  readonly unsaved = new RejectCounter();
  /** Last accepted chain height per `source|asset`: a source whose height goes backwards is rejected. */
  private readonly heights = new Map<string, number>();

  /** @param known the catalog's asset ids; @param now the service's clock */
  constructor(
    private readonly known: ReadonlySet<string>,
    private readonly now: () => number,
  ) {}

  private reject(source: string): (reason: string, record: unknown) => void {
    return (reason, record) => {
      this.rejects.add(reason, record, source);
      this.unsaved.add(reason, record, source);
    };
  }

  /** Validates every record of a raw snapshot (at `now`, or the clock when later); null when it is not one. */
  validate(raw: SourceSnapshot, now: number): PreparedSnapshot | null {
    return prepareSnapshot(raw, this.known, this.reject(raw.source), Math.max(now, this.now()));
  }

  /** Keys (`snapshotKey`) of those of `snapshots` the ingest log already holds: one read per source. */
  async logged(db: Queryable, snapshots: readonly (PreparedSnapshot | null)[]): Promise<Set<string>> {
    const bySource = new Map<string, PreparedSnapshot[]>();
    for (const p of snapshots) {
      if (!p) continue;
      const list = bySource.get(p.source);
      if (list) list.push(p);
      else bySource.set(p.source, [p]);
    }
    const out = new Set<string>();
    for (const [source, list] of bySource) {
      const keys = await loggedSnapshots(db, source, list);
      for (const p of list) if (holds(keys, p)) out.add(snapshotKey(p));
    }
    return out;
  }

  /** Applies a validated snapshot to the state (its chain figures first checked against the heights seen). */
  apply(state: MarketState, p: PreparedSnapshot): void {
    const reject = this.reject(p.source);
    p.mining = p.mining.filter((m) => {
      // A chain never gets shorter for long: a height below the last one this source reported is absurd.
      const key = `${m.source}|${m.asset}`;
      const last = this.heights.get(key);
      if (m.height !== null && last !== undefined && m.height < last) {
        reject('mining.height: must not go backwards', { ...m, previousHeight: last });
        p.rejected++;
        return false;
      }
      if (m.height !== null) this.heights.set(key, m.height);
      return true;
    });
    for (const t of p.tickers) state.applyTicker(t);
    for (const s of p.supply) state.applySupply(s);
    for (const f of p.fx) state.applyFx(f);
  }
}

/**
 * Which snapshots of a time-ordered replay the ingest log holds, read ahead by time a slice of the log at a time
 * (one read for a replay into a store without its snapshots) rather than a read per snapshot, and without holding
 * snapshots back: a replay applies each snapshot as soon as it is validated. `forget` after a write of the replay's
 * own snapshots (the next question reads them back).
 */
export class LogReader {
  private readonly read = new Map<string, { from: number; through: number; keys: Set<string> }>();

  constructor(
    private readonly db: Queryable,
    private readonly slice = 1000,
  ) {}

  async has(p: PreparedSnapshot): Promise<boolean> {
    let w = this.read.get(p.source);
    if (!w || p.ts < w.from || p.ts > w.through) {
      const got = await loggedFrom(this.db, p.source, p.ts, this.slice);
      // A slice of one time only (the limit reached within it): all of that time, however many.
      const through = got.through < p.ts ? p.ts : got.through;
      const keys = got.through < p.ts ? await loggedSnapshots(this.db, p.source, [p]) : got.keys;
      w = { from: p.ts, through, keys };
      this.read.set(p.source, w);
    }
    return holds(w.keys, p);
  }

  forget(): void {
    this.read.clear();
  }
}
