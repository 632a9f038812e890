/**
 * The market's snapshots as an async iterator: the current one first (when there is one), then each one the service
 * publishes. A reader slower than the ticks gets the newest snapshot, never a backlog (a snapshot is the whole state,
 * so an older one has nothing the newer lacks). `return()` unsubscribes and ends the iteration.
 */
import type { MarketSnapshot } from '../engine/snapshot.ts';
import type { MarketService } from './service.ts';

export function snapshotStream(
  market: Pick<MarketService, 'snapshot' | 'onSnapshot'>,
): AsyncIterableIterator<MarketSnapshot> {
  let pending: MarketSnapshot | null = market.snapshot;
  let waiting: ((r: IteratorResult<MarketSnapshot>) => void) | null = null;
  let done = false;
  const off = market.onSnapshot((s) => {
    if (waiting) {
      const w = waiting;
      waiting = null;
      w({ value: s, done: false });
    } else pending = s;
  });
  const finish = (): Promise<IteratorResult<MarketSnapshot>> => {
    done = true;
    off();
    pending = null;
    waiting?.({ value: undefined, done: true });
    waiting = null;
    return Promise.resolve({ value: undefined, done: true });
  };
  return {
    next() {
      if (done) return Promise.resolve({ value: undefined, done: true });
      if (pending) {
        const value = pending;
        pending = null;
        return Promise.resolve({ value, done: false });
      }
      return new Promise((resolve) => (waiting = resolve));
    },
    return: finish,
    throw: (err: unknown) => finish().then(() => Promise.reject(err)),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
