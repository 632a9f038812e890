/** `src/core/turns.ts`: `nextTurn` resolves each turn asked for in a later turn of the event loop than the last; `breathe` lets a long chain of awaits give the loop a turn. */
import { describe, expect, it } from 'vitest';
import { breathe, nextTurn } from '../../src/core/turns.ts';

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

describe('breathe', () => {
  it('lets the loop turn in a long chain of awaits: a timer due meanwhile runs before the chain ends', async () => {
    let fired = -1;
    const start = performance.now();
    setTimeout(() => (fired = performance.now() - start), 5);
    // 300 ms of work in steps that never leave the microtask queue but for breathe().
    while (performance.now() - start < 300) {
      const until = performance.now() + 2;
      while (performance.now() < until);
      await breathe(50);
    }
    expect(fired).toBeGreaterThan(0);
    expect(fired).toBeLessThan(150);
  });

  it('resolves at once while the loop is free: no turn is taken', async () => {
    let turned = false;
    setImmediate(() => (turned = true));
    await breathe(50);
    await breathe(50);
    expect(turned).toBe(false);
  });
});
