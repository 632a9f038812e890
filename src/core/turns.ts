/**
 * Long work split across turns of the event loop. `nextTurn()` resolves in a later turn than every `nextTurn()` asked
 * for before it, one per turn, so that the pieces of a long answer (a request's many long charts, a heavy answer's
 * execution and its serialisation) each run as a task of their own with the loop's I/O between them, instead of one
 * task that every other request waits behind.
 */
let last: Promise<void> = Promise.resolve();

export function nextTurn(): Promise<void> {
  const turn = last.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  last = turn;
  return turn;
}

/** Since when a turn of the event loop has been awaited without coming ({@link breathe}); 0: none is awaited. */
let waitingSince = 0;

/**
 * Lets the event loop turn when it has been held for `maxMs`: resolves at once (one microtask) while the loop turns
 * as usual, and in a later turn once a turn asked for `maxMs` ago has still not come. Long chains of awaits that never
 * leave the microtask queue (a start-up's thousands of engine steps, a run of store calls) call it between steps, so
 * that the process meanwhile answers its probes and its signals (SIGTERM during a warm-up ends it at once, not when
 * the warm-up is done). Cheap enough for every store call: no yield at all while the loop is free.
 */
export async function breathe(maxMs = 50): Promise<void> {
  const now = performance.now();
  if (waitingSince === 0) {
    waitingSince = now;
    setImmediate(() => {
      waitingSince = 0;
    });
    return;
  }
  if (now - waitingSince < maxMs) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
}
