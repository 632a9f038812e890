/**
 * A full collection when the heap has long outgrown what the last major collection kept. After a burst, V8 raises its
 * old-generation limit to the burst's size, and the steady traffic's promoted garbage then fills that room for
 * minutes (90–130 s in the soak, bench/README.md) before V8 collects again: the process holds hundreds of MB it does
 * not use. Here, every `everyMs`, a heap grown past `growth` times the live size of the last major collection (and by
 * at least `slackBytes`), with no major collection for `quietMs`, is collected at once, at a moment no expensive work
 * is under way (`idle`): a pause of its own (tens of ms for a heap of this product's size), once, instead of a heap
 * that stays large until traffic drops.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import type { PerformanceEntry } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { collectGarbage } from './collect-garbage.ts';

export interface HeapGovernorOptions {
  /** Whether no expensive work runs now (a collection then delays no answer under way). */
  idle: () => boolean;
  /** How often the heap is looked at, ms; default 5,000. */
  everyMs?: number;
  /** How long after a major collection none is forced, ms; default 30,000. */
  quietMs?: number;
  /** Heap used above this many times the last live size is outgrown; default 1.5. */
  growth?: number;
  /** …and above the live size by at least this many bytes; default 64 MiB. */
  slackBytes?: number;
  /** Told of each collection it forced (for the log). */
  onCollect?: (before: number, after: number, ms: number) => void;
  /** The heap: V8's used size and a full collection by default. */
  heap?: { used(): number; collect(): void };
}

const V8_HEAP = { used: (): number => getHeapStatistics().used_heap_size, collect: collectGarbage };

/** Starts governing the heap; the function returned stops it. */
export function governHeap(opts: HeapGovernorOptions): () => void {
  const quietMs = opts.quietMs ?? 30_000;
  const growth = opts.growth ?? 1.5;
  const slack = opts.slackBytes ?? 64 * 1024 * 1024;
  const heap = opts.heap ?? V8_HEAP;
  const used = (): number => heap.used();
  let live = used();
  let lastMajor = performance.now();
  // V8's own major collections: the live size is what one leaves (read once it is done, in a later turn).
  const observer = new PerformanceObserver((list) => {
    if (list.getEntries().some(isMajor)) {
      lastMajor = performance.now();
      setImmediate(() => (live = used()));
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const timer = setInterval(() => {
    const now = performance.now();
    const before = used();
    if (now - lastMajor < quietMs || before < Math.max(live * growth, live + slack) || !opts.idle()) return;
    heap.collect();
    live = used();
    lastMajor = performance.now();
    opts.onCollect?.(before, live, lastMajor - now);
  }, opts.everyMs ?? 5_000);
  timer.unref();
  return () => {
    clearInterval(timer);
    observer.disconnect();
  };
}

const isMajor = (e: PerformanceEntry): boolean =>
  ((e as { detail?: { kind?: number } }).detail?.kind ?? 0) === constants.NODE_PERFORMANCE_GC_MAJOR;
