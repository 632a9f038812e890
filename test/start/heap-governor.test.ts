/**
 * The heap governor (`src/start/heap-governor.ts`): a heap grown well past what the last collection kept is collected
 * once no expensive work runs, never while some does, and not again until it has outgrown the new live size. The heap
 * here is a stand-in with the governor's own view of it (used size, collect); that V8's full collection frees a heap's
 * garbage is `collect-garbage.test.ts`'s.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { governHeap } from '../../src/start/heap-governor.ts';

const MB = 1024 * 1024;
let stop: (() => void) | undefined;
afterEach(() => stop?.());

const turns = (n: number): Promise<void> => new Promise((r) => setTimeout(r, n * 10));

describe('heap governor', () => {
  it('collects an outgrown heap once idle, then waits until the heap outgrows what the collection kept', async () => {
    let used = 100 * MB;
    let idle = false;
    const collected: number[] = [];
    stop = governHeap({
      idle: () => idle,
      everyMs: 10,
      quietMs: 0,
      growth: 1.5,
      slackBytes: 64 * MB,
      heap: { used: () => used, collect: () => void (used = 110 * MB) },
      onCollect: (before) => collected.push(before / MB),
    });
    used = 160 * MB; // 1.6 times the live size but only 60 MB above it: not outgrown
    await turns(5);
    expect(collected).toEqual([]);
    used = 400 * MB;
    await turns(5);
    expect(collected).toEqual([]); // busy
    idle = true;
    await turns(5);
    expect(collected).toEqual([400]);
    used = 170 * MB; // above 110 MB, not 1.5 times it and 64 MB more
    await turns(5);
    expect(collected).toEqual([400]);
    used = 180 * MB;
    await turns(5);
    expect(collected).toEqual([400, 180]);
  });

  it('forces none within quietMs of the last collection', async () => {
    let used = 100 * MB;
    const collected: number[] = [];
    stop = governHeap({
      idle: () => true,
      everyMs: 10,
      quietMs: 60_000,
      heap: { used: () => used, collect: () => void (used = 100 * MB) },
      onCollect: (before) => collected.push(before / MB),
    });
    used = 900 * MB;
    await turns(5);
    expect(collected).toEqual([]);
  });
});
