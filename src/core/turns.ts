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
