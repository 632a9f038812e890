import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../src/start/collect-garbage.ts';

describe('collectGarbage', () => {
  it('collects what nothing reaches any more, each time it is called', async () => {
    for (let i = 0; i < 2; i++) {
      const ref = new WeakRef({ filler: new Array<number>(100_000).fill(i) });
      expect(ref.deref()).toBeDefined();
      // A WeakRef's target stays alive until the job that made or read it has ended.
      await new Promise((resolve) => setTimeout(resolve, 0));
      collectGarbage();
      expect(ref.deref()).toBeUndefined();
    }
  });
});
