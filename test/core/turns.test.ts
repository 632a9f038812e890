/** `nextTurn` (`src/core/turns.ts`): each turn asked for resolves in a later turn of the event loop than the last. */
import { describe, expect, it } from 'vitest';
import { nextTurn } from '../../src/core/turns.ts';

describe('nextTurn', () => {
  it('resolves the turns asked for together one per turn of the loop, in order', async () => {
    const order: string[] = [];
    const a = nextTurn().then(() => {
      order.push('a');
      // Queued for the next turn of the loop: it comes before `b`, which has a turn of its own.
      setImmediate(() => order.push('between'));
    });
    const b = nextTurn().then(() => order.push('b'));
    const c = nextTurn().then(() => order.push('c'));
    await Promise.all([a, b, c]);
    expect(order).toEqual(['a', 'between', 'b', 'c']);
  });

  it('a turn asked for later still comes after the earlier ones', async () => {
    const order: number[] = [];
    const first = nextTurn().then(() => order.push(1));
    await Promise.resolve();
    const second = nextTurn().then(() => order.push(2));
    await Promise.all([first, second]);
    expect(order).toEqual([1, 2]);
  });
});
