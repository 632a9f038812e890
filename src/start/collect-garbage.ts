/**
 * A full garbage collection on demand, for the end of a process's warm-up. Node exposes `gc` only with
 * `--expose-gc`; setting the flag at run time exposes it to contexts made afterwards, so one new context hands it
 * over (made once).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** Collects all garbage now, compacting the heap: a pause of its own, taken before the process serves. */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
