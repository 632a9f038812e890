import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConcurrencyGate } from '../../src/access/concurrency.ts';
import type { OnGone, Turn } from '../../src/access/concurrency.ts';

const BOUND = { places: 2, queue: 3, waitMs: 1_000 };

/** A client that can be made to leave; `listening` says whether the gate still listens for it. */
function client(): { gone: OnGone; leave(): void; listening(): boolean } {
  let listener: (() => void) | null = null;
  return {
    gone: (l) => {
      listener = l;
      return () => (listener = null);
    },
    leave: () => listener?.(),
    listening: () => listener !== null,
  };
}

const release = (t: Turn) => {
  if (typeof t !== 'function') throw new Error(`no place: ${t}`);
  t();
};

describe('ConcurrencyGate', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives a place at once below the bound, then queues first in, first out', async () => {
    const gate = new ConcurrencyGate();
    const [a, b] = await Promise.all([gate.enter('ip:a', BOUND), gate.enter('ip:a', BOUND)]);
    const order: string[] = [];
    const waiting = ['c', 'd', 'e'].map((n) => gate.enter('ip:a', BOUND).then((t) => (order.push(n), t)));
    expect([gate.count('ip:a'), gate.waiting('ip:a')]).toEqual([2, 3]);
    expect(await gate.enter('ip:a', BOUND)).toBe('full');
    release(a as Turn);
    release(b as Turn);
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['c', 'd']);
    // A place passed on stays taken: a newcomer queues behind `e` instead of overtaking it.
    const late = gate.enter('ip:a', BOUND).then((t) => (order.push('late'), t));
    expect([gate.count('ip:a'), gate.waiting('ip:a')]).toEqual([2, 2]);
    release(await (waiting[0] as Promise<Turn>));
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['c', 'd', 'e']);
    for (const t of [await waiting[1], await waiting[2]]) release(t as Turn);
    release(await late);
    expect(order).toEqual(['c', 'd', 'e', 'late']);
    // Everyone gone: nothing is kept for the identity. Four waited (the refused one did not).
    expect([gate.count('ip:a'), gate.waiting('ip:a')]).toEqual([0, 0]);
    expect(gate.waited()).toBe(4);
  });

  it('times a wait out at waitMs, leaving its place in the queue to the next', async () => {
    const gate = new ConcurrencyGate();
    const held = await gate.enter('key:k', { ...BOUND, places: 1 });
    const first = gate.enter('key:k', { ...BOUND, places: 1 });
    await vi.advanceTimersByTimeAsync(600);
    const second = gate.enter('key:k', { ...BOUND, places: 1 });
    await vi.advanceTimersByTimeAsync(400);
    expect(await first).toBe('timeout');
    expect(gate.waiting('key:k')).toBe(1);
    release(held);
    release(await second);
    expect(gate.count('key:k')).toBe(0);
  });

  it('drops a waiting request whose client leaves, and stops listening once a wait ends', async () => {
    const gate = new ConcurrencyGate();
    const held = await gate.enter('ip:b', { ...BOUND, places: 1, queue: 1 });
    const left = client();
    const leaving = gate.enter('ip:b', { ...BOUND, places: 1, queue: 1 }, left.gone);
    expect(left.listening()).toBe(true);
    left.leave();
    expect(await leaving).toBe('gone');
    expect(left.listening()).toBe(false);
    // Its slot in the queue is free again: the next one waits instead of being refused.
    const stays = client();
    const next = gate.enter('ip:b', { ...BOUND, places: 1, queue: 1 }, stays.gone);
    expect(gate.waiting('ip:b')).toBe(1);
    release(held);
    const turn = await next;
    expect(typeof turn).toBe('function');
    expect(stays.listening()).toBe(false);
    // A client already gone when the wait would begin: dropped at once.
    const already: OnGone = (l) => (l(), () => {});
    expect(await gate.enter('ip:b', { ...BOUND, places: 1, queue: 1 }, already)).toBe('gone');
    expect(gate.waiting('ip:b')).toBe(0);
    release(turn);
  });

  it('tryEnter never waits; a place given back twice counts once', () => {
    const gate = new ConcurrencyGate();
    const one = gate.tryEnter('s', 1);
    expect(one).toBeTypeOf('function');
    expect(gate.tryEnter('s', 1)).toBeNull();
    one?.();
    one?.();
    expect(gate.count('s')).toBe(0);
    expect(gate.tryEnter('s', 0)).toBeNull();
    expect(gate.count('s')).toBe(0);
  });
});
