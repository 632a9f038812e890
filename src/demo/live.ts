/**
 * The live demo source: each poll evaluates the same random-access paths as the recording at the current time, so
 * live data continues the recorded history without a seam.
 */
import type { SourceSnapshot, TickerSource } from '../ingest/types.ts';
import type { DemoInputs } from './model.ts';
import { createDemoModel } from './model.ts';
import { snapshotAt } from './snapshot.ts';

/** Options of `createDemoSource`. */
export interface DemoSourceOptions extends DemoInputs {
  /** Clock, UNIX ms; default `Date.now`. */
  now?: () => number;
}

/** Id of the live demo source. */
export const DEMO_LIVE_SOURCE_ID = 'demo:live';

/**
 * A `TickerSource` (kind `replay`, id `demo:live`) whose every poll returns a snapshot at `now()` with the tickers
 * of all demo markets, plus supply and FX records. Never exhausted.
 */
export function createDemoSource(opts: DemoSourceOptions): TickerSource {
  const model = createDemoModel(opts);
  const now = opts.now ?? Date.now;
  return {
    id: DEMO_LIVE_SOURCE_ID,
    kind: 'replay',
    async poll(signal: AbortSignal): Promise<SourceSnapshot | null> {
      signal.throwIfAborted();
      // Whole milliseconds: record timestamps must be integers.
      return snapshotAt(model, Math.floor(now()), true);
    },
  };
}
