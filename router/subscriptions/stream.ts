/**
 * One subscriber's events as the transports read them (graphql-sse and graphql-ws both iterate an async generator and
 * call its `return()` when the client goes away): events are pushed by the hub, read in order, and the stream ends
 * either by `end()` (the server's: after a last event such as a revocation's error) or by `return()` (the client's,
 * or the transport's on a closed connection). The `onEnded` callbacks run once, whichever side ended it.
 */
import type { ExecutionResult } from 'graphql';

/** Why the server ended a stream, when it did: the code of its last event (the WebSocket transport closes on some). */
export interface EndReason {
  code: string;
  message: string;
}

export class PushStream implements AsyncGenerator<ExecutionResult, undefined, unknown> {
  private readonly queue: ExecutionResult[] = [];
  private waiting: ((r: IteratorResult<ExecutionResult, undefined>) => void) | null = null;
  private ended = false;
  /** Set when the server ended the stream with a coded last event. */
  endReason: EndReason | null = null;

  private ends: (() => void)[] = [];

  /** Calls `fn` once the stream ends (at once when it already has). */
  onEnded(fn: () => void): void {
    if (this.ended) fn();
    else this.ends.push(fn);
  }

  /** True until the stream ended (either side). */
  get open(): boolean {
    return !this.ended;
  }

  /** Queues an event (ignored once ended). */
  push(event: ExecutionResult): void {
    if (this.ended) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w({ value: event, done: false });
    } else this.queue.push(event);
  }

  /** Ends the stream after the events already queued (and `last`, when given): the reader then sees `done`. */
  end(last?: ExecutionResult, reason?: EndReason): void {
    if (this.ended) return;
    if (last) this.push(last);
    if (reason) this.endReason = reason;
    this.ended = true;
    this.finish();
    if (this.waiting && this.queue.length === 0) {
      const w = this.waiting;
      this.waiting = null;
      w({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<ExecutionResult, undefined>> {
    const e = this.queue.shift();
    if (e) return Promise.resolve({ value: e, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** The reader is done (the client unsubscribed or went away): nothing more is delivered. */
  return(): Promise<IteratorResult<ExecutionResult, undefined>> {
    this.queue.length = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(err: unknown): Promise<IteratorResult<ExecutionResult, undefined>> {
    void this.return();
    return Promise.reject(err);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.return();
  }

  private finish(): void {
    const ends = this.ends;
    this.ends = [];
    for (const f of ends) f();
  }
}
