import type { DemoProgress } from '../start/demo.ts';
import type { Progress } from './progress.ts';
import { createProgress } from './progress.ts';

/** A progress reporter over several phases (generate, then aggregate), one bar or line set per phase. */
export function phasedProgress(stream: NodeJS.WriteStream = process.stderr): DemoProgress {
  let bar: Progress | null = null;
  let label = '';
  let size = -1;
  return {
    phase(l, total) {
      if (l === label && total === size && bar) return;
      label = l;
      size = total;
      bar = createProgress(l, total, stream);
    },
    update(done) {
      bar?.update(done);
    },
    finish(message) {
      bar?.done(message);
      bar = null;
      label = '';
      size = -1;
    },
  };
}
