/**
 * The FX rates as the store holds them (`fx_rates`: one per currency and UTC day, the newest observation; a later
 * one of the same time does not replace it), kept in memory beside the store for the history cache, as columns per
 * currency (no object per rate). Fed with what the store loaded and with what each successful write stored.
 */
import type { FxRate } from '../ingest/types.ts';
import { dayOf } from '../store/sql.ts';

const DAY_MS = 86_400_000;

/** One currency's rates, oldest day first: parallel columns. */
export interface FxColumns {
  usdPerUnit: number[];
  ts: number[];
  sources: string[];
}

export class StoredFx {
  private readonly byCurrency = new Map<string, FxColumns & { days: number[] }>();

  private columns(currency: string): FxColumns & { days: number[] } {
    let c = this.byCurrency.get(currency);
    if (!c) this.byCurrency.set(currency, (c = { days: [], usdPerUnit: [], ts: [], sources: [] }));
    return c;
  }

  /** Applies rates as `saveFx` stores them. */
  apply(rates: Iterable<FxRate>): void {
    for (const r of rates) {
      const c = this.columns(r.currency);
      const day = dayOf(r.ts);
      let i = c.days.length;
      while (i > 0 && (c.days[i - 1] as number) > day) i--;
      if (i > 0 && c.days[i - 1] === day) {
        if (r.ts > (c.ts[i - 1] as number)) {
          c.usdPerUnit[i - 1] = r.usdPerUnit;
          c.ts[i - 1] = r.ts;
          c.sources[i - 1] = r.source;
        }
      } else {
        c.days.splice(i, 0, day);
        c.usdPerUnit.splice(i, 0, r.usdPerUnit);
        c.ts.splice(i, 0, r.ts);
        c.sources.splice(i, 0, r.source);
      }
    }
  }

  /** Takes a currency's rates as they are stored (oldest day first), replacing what it held for that currency. */
  adopt(currency: string, c: FxColumns): void {
    this.byCurrency.set(currency, { ...c, days: c.ts.map(dayOf) });
  }

  /** The rates of the days that ended by `horizon`, by currency (in code order). */
  closedBy(horizon: number): Map<string, FxColumns> {
    const out = new Map<string, FxColumns>();
    for (const currency of [...this.byCurrency.keys()].sort()) {
      const c = this.byCurrency.get(currency) as FxColumns & { days: number[] };
      let n = 0;
      while (n < c.days.length && (c.days[n] as number) + DAY_MS <= horizon) n++;
      if (n > 0)
        out.set(currency, {
          usdPerUnit: c.usdPerUnit.slice(0, n),
          ts: c.ts.slice(0, n),
          sources: c.sources.slice(0, n),
        });
    }
    return out;
  }
}
