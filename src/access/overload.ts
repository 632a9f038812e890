/**
 * Load shedding: before the event loop drowns, new expensive work is refused (503 `OVERLOADED` with `Retry-After`)
 * so that what is already admitted, cheap answers from memory and the probes go on. The process counts as overloaded
 * while its event loop lags past `maxLagMs` — every timer of the last `window` samples late by more, so that one long
 * task (a start-up step, a garbage collection) is not taken for a drowning loop — or while `maxInFlight` pieces of
 * expensive work are under way.
 *
 * Heavy work admitted (a graph operation estimated at `heavyCost` or more) runs one piece at a time, each started in
 * a turn of the event loop of its own: a burst of heavy operations would otherwise run back to back on the loop while
 * the cheap requests that arrived meanwhile wait for all of them.
 */
import type { ApiError } from '../core/errors.ts';
import { accessErrors } from './errors.ts';

export interface LoadShedderOptions {
  /** Lag of the event loop above which new expensive work is refused, ms; 0: never for lag. Default 250. */
  maxLagMs?: number;
  /** Expensive work under way at once above which new work is refused; 0: no bound. Default 256. */
  maxInFlight?: number;
  /** How often the lag is sampled, ms. Default 50. */
  sampleMs?: number;
  /** Samples that must all be late (the window is about `sampleMs × window` plus the lag). Default 3. */
  window?: number;
  /** Estimated cost from which a graph operation is heavy work, run one at a time; 0: none is. Default 1,000. */
  heavyCost?: number;
}

export class LoadShedder {
  private readonly maxLagMs: number;
  private readonly maxInFlight: number;
  private readonly sampleMs: number;
  private readonly lags: number[];
  private next = 0;
  private inFlight = 0;
  private timer: NodeJS.Timeout | null = null;
  private shed = 0;
  private readonly heavyCost: number;
  /** Whether a piece of heavy work runs now; the ones waiting for their turn, first come first served. */
  private heavyRunning = false;
  private readonly heavyWaiting: (() => void)[] = [];

  constructor(opts: LoadShedderOptions = {}) {
    this.heavyCost = opts.heavyCost ?? 1_000;
    this.maxLagMs = opts.maxLagMs ?? 250;
    this.maxInFlight = opts.maxInFlight ?? 256;
    this.sampleMs = opts.sampleMs ?? 50;
    this.lags = new Array<number>(opts.window ?? 3).fill(0);
  }

  /** Starts sampling the event loop's lag (a timer that keeps nothing alive); `stop` ends it. */
  start(): this {
    if (this.timer || this.maxLagMs === 0) return this;
    let expected = Date.now() + this.sampleMs;
    this.timer = setInterval(() => {
      const now = Date.now();
      this.lags[this.next] = Math.max(0, now - expected);
      this.next = (this.next + 1) % this.lags.length;
      expected = now + this.sampleMs;
    }, this.sampleMs).unref();
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The lag the event loop has kept up over the window (the smallest of its samples), ms. */
  lagMs(): number {
    return Math.min(...this.lags);
  }

  /** Whether no admitted expensive work is under way. */
  idle(): boolean {
    return this.inFlight === 0;
  }

  overloaded(): boolean {
    return (
      (this.maxLagMs > 0 && this.lagMs() > this.maxLagMs) ||
      (this.maxInFlight > 0 && this.inFlight >= this.maxInFlight)
    );
  }

  /**
   * Admits one piece of expensive work: the function that ends it, or the refusal to answer with when the process
   * is overloaded.
   */
  begin(): (() => void) | ApiError {
    if (this.overloaded()) {
      this.shed++;
      return overloaded(Math.max(1, Math.ceil(this.lagMs() / 1000)));
    }
    this.inFlight++;
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.inFlight--;
    };
  }

  /**
   * The turn of admitted work of estimated `cost`: null when it is not heavy (it runs at once), else the promise of
   * its turn — at once when no heavy work runs, else after the heavy work before it, in a later turn of the event
   * loop — resolved with the function that ends it (call it once the work is answered, or given up).
   */
  heavyTurn(cost: number): Promise<() => void> | null {
    if (this.heavyCost === 0 || cost < this.heavyCost) return null;
    let ended = false;
    const once = () => {
      if (ended) return;
      ended = true;
      this.nextHeavy();
    };
    if (!this.heavyRunning) {
      this.heavyRunning = true;
      return Promise.resolve(once);
    }
    return new Promise((resolve) => this.heavyWaiting.push(() => resolve(once)));
  }

  /** The lane to the next heavy work waiting, in a turn of the event loop after what arrived meanwhile; else free. */
  private nextHeavy(): void {
    const next = this.heavyWaiting.shift();
    if (next) setImmediate(next);
    else this.heavyRunning = false;
  }

  /** Expensive work refused since start, and under way now (the metrics). */
  stats(): { shed: number; inFlight: number; lagMs: number } {
    return { shed: this.shed, inFlight: this.inFlight, lagMs: this.lagMs() };
  }
}

export const overloaded = accessErrors.overloaded;
