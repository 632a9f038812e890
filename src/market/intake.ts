/**
 * How a raw snapshot enters the engine: validated (every reject counted, for `/healthz` and `ingest_rejects`),
 * checked against the ingest log (a snapshot already ingested is not applied again), then applied to the in-memory
 * state (a chain whose height goes backwards is rejected). Shared by ticks and backfills.
 */
import type { MarketState } from '../engine/state.ts';
import type { PreparedSnapshot } from '../ingest/pipeline.ts';
import { prepareSnapshot } from '../ingest/pipeline.ts';
import type { SourceSnapshot } from '../ingest/types.ts';
import { RejectCounter } from '../ingest/validate.ts';
import type { Queryable } from '../store/db.ts';
import { loggedSnapshots } from '../store/inputs.ts';

/** A snapshot's key in the ingest log (and in a backfill's own memory of what it applied). */
export const snapshotKey = (p: PreparedSnapshot): string => `${p.source}|${p.ts}|${p.digest}`;

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
    for (const [source, list] of bySource)
      for (const k of await loggedSnapshots(db, source, list)) out.add(`${source}|${k}`);
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
