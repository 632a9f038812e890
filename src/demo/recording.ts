/**
 * The demo recording: snapshots at the engine's history resolutions, oldest first. Daily for the old part, hourly
 * for the last 95 days, every 5 minutes for the last 2 days, so replaying it fills the 1d/1h/5m bars.
 */
import type { SourceSnapshot } from '../ingest/types.ts';
import type { DemoInputs } from './model.ts';
import { createDemoModel } from './model.ts';
import { snapshotAt } from './snapshot.ts';

const FIVE_MIN = 300_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Default length of a recording, days. */
export const DEFAULT_DEMO_DAYS = 420;

/** Options of `generateRecording`. */
export interface RecordingOptions extends DemoInputs {
  /** Time of the last snapshot, UNIX ms; rounded down to a multiple of 5 minutes. */
  end: number;
  /** How many days the recording covers before `end`; default 420. */
  days?: number;
}

/** `end` rounded down to a multiple of 5 minutes. */
export function alignEnd(end: number): number {
  return Math.floor(end / FIVE_MIN) * FIVE_MIN;
}

/**
 * Snapshot times, ascending: one per day from end−days to end−95d (exclusive), one per hour to end−2d (exclusive),
 * one per 5 minutes to `end` inclusive. Every time is `end` minus a multiple of 5 minutes.
 */
export function snapshotTimes(end: number, days: number = DEFAULT_DEMO_DAYS): number[] {
  const e = alignEnd(end);
  const start = e - Math.max(0, Math.floor(days)) * DAY;
  const out: number[] = [];
  const run = (from: number, to: number, step: number): void => {
    // Stay on the grid of `end`: from = end − k·step.
    const first = e - Math.floor((e - from) / step) * step;
    for (let t = first; t < to; t += step) out.push(t);
  };
  run(start, e - 95 * DAY, DAY);
  run(Math.max(start, e - 95 * DAY), e - 2 * DAY, HOUR);
  run(Math.max(start, e - 2 * DAY), e, FIVE_MIN);
  out.push(e);
  return out;
}

/** Whether a snapshot at `t` carries supply and FX records: once per day (at end − k days) and the last one. */
export function carriesSupply(end: number, t: number): boolean {
  return (alignEnd(end) - t) % DAY === 0;
}

/**
 * Generates the demo recording lazily, one snapshot at a time (ascending ts). Deterministic: the same options give
 * identical snapshots.
 */
export function* generateRecording(opts: RecordingOptions): Generator<SourceSnapshot, void, undefined> {
  const model = createDemoModel(opts);
  const end = alignEnd(opts.end);
  for (const t of snapshotTimes(end, opts.days ?? DEFAULT_DEMO_DAYS))
    yield snapshotAt(model, t, carriesSupply(end, t));
}
