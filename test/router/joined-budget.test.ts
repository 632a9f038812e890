/**
 * A joined execution's answer carries the joining request's own cost budget (`withBudget`, `router/http-phase.ts`):
 * rewritten where it stands in the answer, the same as parsing the answer and writing it again would give.
 */
import { describe, expect, it } from 'vitest';
import { withBudget } from '../../router/http-phase.ts';
import type { Executed } from '../../router/engines/hive.ts';

const budget = { limit: 150_000, remaining: 123_456, resetMs: 30_000 };
/** What parsing and writing the whole answer again gives. */
function reparsed(body: string, b = budget): string {
  const parsed = JSON.parse(body) as { extensions?: { cost?: Record<string, unknown> } };
  if (parsed.extensions?.cost) parsed.extensions.cost['budget'] = { limit: b.limit, remaining: b.remaining };
  return JSON.stringify(parsed);
}
/** The executed answer the joining requests share. */
const shared = (body: string): Executed => ({ status: 200, headers: {}, body, cost: 3 });

describe('a joined answer’s budget', () => {
  it('is this request’s, even when the data has fields aliased extensions and budget', () => {
    for (const answer of [
      {
        data: { coin: { id: 'bitcoin' } },
        extensions: { cost: { estimated: 3, actual: 3, budget: { limit: 1, remaining: 0 } } },
      },
      {
        data: { extensions: { budget: { limit: 5 } }, budget: { limit: 7, remaining: 8 } },
        extensions: {
          cost: { estimated: 9, max: 10_000, plan: 'pro', budget: { limit: 150_000, remaining: 1 } },
        },
      },
      // Errors after the extensions (their own extensions, no budget): the whole answer read again.
      {
        data: null,
        extensions: { cost: { estimated: 1, budget: { limit: 2, remaining: 1 } } },
        errors: [{ message: 'x', extensions: { code: 'E' } }],
      },
    ]) {
      const body = JSON.stringify(answer);
      expect(withBudget(shared(body), budget)).toBe(reparsed(body));
    }
    // No cost in the answer: unchanged.
    const plain = JSON.stringify({ data: { a: 1 } });
    expect(withBudget(shared(plain), budget)).toBe(plain);
  });

  it('comes as bytes for a long answer, each joining request with its own budget', () => {
    const points = Array.from({ length: 4_000 }, (_, i) => ({ time: i, price: i / 7, name: 'ü→' }));
    const body = JSON.stringify({
      data: { chart: { points } },
      extensions: { cost: { estimated: 8_733, budget: { limit: 150_000, remaining: 1 } } },
    });
    const answer = shared(body);
    const second = { ...budget, remaining: 100 };
    const [a, b] = [withBudget(answer, budget), withBudget(answer, second)];
    expect(a).toBeInstanceOf(Buffer);
    expect(a.toString()).toBe(reparsed(body));
    expect(b.toString()).toBe(reparsed(body, second));
  });
});
