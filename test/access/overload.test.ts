import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/core/errors.ts';
import { LoadShedder } from '../../src/access/overload.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('load shedding', () => {
  it('refuses new work while the event loop keeps lagging past the bound, not for one long task', () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const s = new LoadShedder({ maxLagMs: 100, sampleMs: 50, window: 3 }).start();
    const late = (ms: number) => {
      vi.setSystemTime(Date.now() + ms);
      vi.advanceTimersByTime(50);
    };
    vi.advanceTimersByTime(500);
    expect(s.overloaded()).toBe(false);
    // One long task (300 ms): a single late timer, then punctual ones.
    late(300);
    expect(s.overloaded()).toBe(false);
    // A drowning loop: every timer late by 200 ms or more.
    late(250);
    late(200);
    late(400);
    expect(s.lagMs()).toBe(200);
    const refused = s.begin();
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 503, code: 'OVERLOADED', headers: { 'retry-after': '1' } });
    expect((refused as ApiError).message).toMatch(
      /^the server is under more load than it can answer in time/,
    );
    // One punctual timer ends it.
    vi.advanceTimersByTime(50);
    expect(s.overloaded()).toBe(false);
    expect(typeof s.begin()).toBe('function');
    expect(s.stats()).toEqual({ shed: 1, inFlight: 1, lagMs: 0 });
    s.stop();
  });

  it('refuses new work while the bound of work under way is reached; ending one (once) makes room', () => {
    const s = new LoadShedder({ maxLagMs: 0, maxInFlight: 2 });
    const a = s.begin();
    const b = s.begin();
    if (typeof a !== 'function' || typeof b !== 'function') throw new Error('expected admissions');
    expect(s.begin()).toMatchObject({ code: 'OVERLOADED' });
    a();
    a();
    expect(s.stats().inFlight).toBe(1);
    expect(typeof s.begin()).toBe('function');
    expect(s.begin()).toMatchObject({ code: 'OVERLOADED' });
  });

  it('never refuses when both bounds are off', () => {
    const s = new LoadShedder({ maxLagMs: 0, maxInFlight: 0 }).start();
    for (let i = 0; i < 1_000; i++) expect(typeof s.begin()).toBe('function');
    s.stop();
  });

  it('runs heavy work one at a time, first come first served, each later one in a turn of the event loop of its own', async () => {
    const s = new LoadShedder({ heavyCost: 100 });
    expect(s.heavyTurn(99)).toBeNull();
    const order: string[] = [];
    const endA = await (s.heavyTurn(100) as Promise<() => void>);
    const b = (s.heavyTurn(5_000) as Promise<() => void>).then((end) => (order.push('b'), end));
    const c = (s.heavyTurn(100) as Promise<() => void>).then((end) => (order.push('c'), end));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]); // a still runs
    // What arrived before a ends (here: an immediate queued by a request's I/O) goes before b.
    setImmediate(() => order.push('arrived meanwhile'));
    endA();
    endA(); // ended twice: one turn handed on, not two
    await Promise.resolve();
    expect(order).toEqual([]);
    const endB = await b;
    expect(order).toEqual(['arrived meanwhile', 'b']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['arrived meanwhile', 'b']); // c waits for b
    endB();
    (await c)();
    expect(order).toEqual(['arrived meanwhile', 'b', 'c']);
    // The lane is free again: the next heavy work starts at once.
    const next = s.heavyTurn(100) as Promise<() => void>;
    let started = false;
    void next.then(() => (started = true));
    await Promise.resolve();
    expect(started).toBe(true);
    expect(new LoadShedder({ heavyCost: 0 }).heavyTurn(1e9)).toBeNull();
  });
});
