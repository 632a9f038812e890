/**
 * Requests in flight per identity (`key:<id>`, `ip:<addr>`) in this process, so that no caller holds every worker of
 * the process. A request over its caller's places waits its turn in that caller's queue — first in, first out, at
 * most `queue` requests waiting, each for `waitMs` at most — and is refused only past those bounds: a page or a
 * dashboard that asks for twenty things at once is served a few at a time instead of refused. A place given back
 * passes straight to the first request waiting, so a request arriving meanwhile never overtakes the queue. A request
 * whose client goes away leaves the queue at once.
 *
 * Open streams use {@link ConcurrencyGate.tryEnter} instead: a stream lasts, so a turn might never come, and it is
 * refused at once.
 */

/** How many requests of one caller are served at once, and how many may wait, for how long. */
export interface GateBound {
  /** Requests of one caller in flight at once. */
  places: number;
  /** Requests of one caller waiting for a place at once; 0: none waits. */
  queue: number;
  /** The longest one request waits for its place, ms. */
  waitMs: number;
}

/**
 * Subscribes `listener` to the client's going away (its connection closed); returns the function that unsubscribes.
 * A client already gone calls `listener` at once.
 */
export type OnGone = (listener: () => void) => () => void;

/**
 * How a request's wait ended: its place (the function that gives it back; calling it again does nothing), or why it
 * has none: `full` (the queue was at its bound when it came), `timeout` (it waited `waitMs`), `gone` (its client
 * went away while it waited).
 */
export type Turn = (() => void) | 'full' | 'timeout' | 'gone';

/** One identity's requests: how many hold a place, and those waiting for one in arrival order. */
interface Line {
  inFlight: number;
  waiting: Set<(release: () => void) => void>;
}

export class ConcurrencyGate {
  private readonly lines = new Map<string, Line>();
  /** Requests that waited for their place since start, whatever the end of their wait. */
  private waitedTotal = 0;

  /**
   * A place of `identity` for a request: at once while fewer than `bound.places` are in flight, else its turn in the
   * identity's queue (see the module's comment). `gone` lets a waiting request leave when its client does.
   */
  enter(identity: string, bound: GateBound, gone?: OnGone): Promise<Turn> {
    const line = this.lines.get(identity);
    if (!line || line.inFlight < bound.places) {
      const admitted = this.tryEnter(identity, bound.places);
      if (admitted) return Promise.resolve(admitted);
    }
    if (!line || line.waiting.size >= bound.queue) return Promise.resolve('full');
    const queue = line.waiting;
    this.waitedTotal++;
    return new Promise<Turn>((resolve) => {
      const client: { off: (() => void) | undefined } = { off: undefined };
      let settled = false;
      const settle = (turn: Turn) => {
        if (settled) return;
        settled = true;
        queue.delete(admit);
        clearTimeout(timer);
        client.off?.();
        resolve(turn);
      };
      // A Set iterates in insertion order: the first waiting is the first in.
      const admit = (release: () => void) => settle(release);
      queue.add(admit);
      const timer = setTimeout(() => settle('timeout'), bound.waitMs);
      client.off = gone?.(() => settle('gone'));
      if (settled) client.off?.(); // gone already: it called back before it could be unsubscribed
    });
  }

  /**
   * One of `identity`'s `limit` places with no wait: the function that gives it back (calling it again does nothing),
   * or null when all are taken.
   */
  tryEnter(identity: string, limit: number): (() => void) | null {
    let line = this.lines.get(identity);
    if ((line?.inFlight ?? 0) >= limit) return null;
    if (!line) this.lines.set(identity, (line = { inFlight: 0, waiting: new Set() }));
    line.inFlight++;
    return this.place(identity, line);
  }

  /** Requests of `identity` in flight now. */
  count(identity: string): number {
    return this.lines.get(identity)?.inFlight ?? 0;
  }

  /** Requests of `identity` waiting for a place now. */
  waiting(identity: string): number {
    return this.lines.get(identity)?.waiting.size ?? 0;
  }

  /** Requests that have waited for their place since start (a counter: the bursts this process smoothed). */
  waited(): number {
    return this.waitedTotal;
  }

  /** A place held: giving it back hands it to the first request waiting, else frees it. */
  private place(identity: string, line: Line): () => void {
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const first = line.waiting.values().next();
      if (!first.done) {
        first.value(this.place(identity, line));
        return;
      }
      line.inFlight--;
      if (line.inFlight === 0 && this.lines.get(identity) === line) this.lines.delete(identity);
    };
  }
}
