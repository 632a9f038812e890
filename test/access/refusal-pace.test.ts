/**
 * Refusals paced for a caller who does not wait (`src/access/refusal-pace.ts`): the first refusals of a
 * `Retry-After` period go at once, the rest are held; the count starts again with the next period; callers apart.
 */
import { describe, expect, it } from 'vitest';
import { RefusalPace } from '../../src/access/refusal-pace.ts';

describe('refusal pace', () => {
  it('holds the refusals past the grace inside one Retry-After period, and starts again after it', () => {
    const pace = new RefusalPace({ grace: 3, holdMs: 500 });
    const t0 = 1_000_000;
    expect([1, 2, 3].map(() => pace.hold('ip:198.51.100.7', 2, t0))).toEqual([0, 0, 0]);
    expect(pace.hold('ip:198.51.100.7', 2, t0 + 100)).toBe(500);
    expect(pace.hold('ip:198.51.100.7', 2, t0 + 1_999)).toBe(500);
    expect(pace.holding()).toBe(2);
    // Another caller has a count of its own.
    expect(pace.hold('key:abc', 2, t0 + 1_999)).toBe(0);
    // The period named by the first refusal is over: the count starts again.
    expect(pace.hold('ip:198.51.100.7', 2, t0 + 2_000)).toBe(0);
    pace.release();
    pace.release();
    pace.release(); // never below zero
    expect(pace.holding()).toBe(0);
  });

  it('sends at once beyond the most held, and when holding is off', () => {
    const pace = new RefusalPace({ grace: 0, holdMs: 1_000, maxHeld: 2 });
    expect([1, 2, 3].map(() => pace.hold('ip:a', 60, 0))).toEqual([1_000, 1_000, 0]);
    pace.release();
    expect(pace.hold('ip:a', 60, 0)).toBe(1_000);
    const off = new RefusalPace({ grace: 0, holdMs: 0 });
    expect(off.hold('ip:a', 60, 0)).toBe(0);
  });

  it('forgets the oldest caller past the most remembered', () => {
    const pace = new RefusalPace({ grace: 1, maxCallers: 2 });
    pace.hold('ip:a', 60, 0);
    pace.hold('ip:b', 60, 0);
    pace.hold('ip:c', 60, 0); // `a` forgotten
    expect(pace.hold('ip:a', 60, 1)).toBe(0); // its first refusal again
    expect(pace.hold('ip:c', 60, 1)).toBe(1_000); // `c` remembered: its second
  });

  it('names the caller by its key, else by its address behind the trusted proxies', () => {
    const pace = new RefusalPace({ trustedProxies: ['127.0.0.1'] });
    expect(pace.callerOf('k1', '127.0.0.1', '203.0.113.9')).toBe('key:k1');
    expect(pace.callerOf(undefined, '127.0.0.1', '203.0.113.9')).toBe('ip:203.0.113.9');
    expect(pace.callerOf(undefined, '192.0.2.1', '203.0.113.9')).toBe('ip:192.0.2.1');
    expect(pace.callerOf(undefined, '::ffff:127.0.0.1', ['10.0.0.1', '203.0.113.9'])).toBe('ip:203.0.113.9');
  });
});
