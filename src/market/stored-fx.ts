/**
 * The FX rates as the store holds them (`fx_rates`: one per currency and UTC day, the newest observation; a later
 * one of the same time does not replace it), kept in memory beside the store for the history cache. Fed with what the
 * store loaded and with what each successful write stored.
 */
import type { FxRate } from '../ingest/types.ts';
import { dayOf } from '../store/sql.ts';

export class StoredFx {
  private readonly byCurrency = new Map<string, Map<number, FxRate>>();

  /** Applies rates as `saveFx` stores them. */
  apply(rates: Iterable<FxRate>): void {
    for (const r of rates) {
      let days = this.byCurrency.get(r.currency);
      if (!days) this.byCurrency.set(r.currency, (days = new Map()));
      const day = dayOf(r.ts);
      const prev = days.get(day);
      if (!prev || r.ts > prev.ts) days.set(day, r);
    }
  }

  /** The rates of the days that ended by `horizon`, by currency (in code order), oldest day first. */
  closedBy(horizon: number): Map<string, FxRate[]> {
    const out = new Map<string, FxRate[]>();
    for (const currency of [...this.byCurrency.keys()].sort()) {
      const days = this.byCurrency.get(currency) as Map<number, FxRate>;
      const rates = [...days.entries()]
        .filter(([day]) => day + 86_400_000 <= horizon)
        .sort((a, b) => a[0] - b[0])
        .map(([, r]) => r);
      if (rates.length > 0) out.set(currency, rates);
    }
    return out;
  }
}
