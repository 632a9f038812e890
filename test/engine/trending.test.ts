import { describe, expect, it } from 'vitest';
import { computeTrending } from '../../src/engine/trending.ts';
import { market, mapOf } from '../support/market-fixture.ts';

describe('computeTrending', () => {
  const history: Record<string, number[]> = {
    // mean 100 → surge 3; |5%| → weight 1.5; value 4.5
    steady: [100, 100, 100],
    // only the last 7 days count: mean 100 → surge 10; |−80%| capped at 50 → weight 6; value 60
    crash: [1_000_000, 100, 100, 100, 100, 100, 100, 100],
    // mean (50+150+100)/3 = 100 → surge 2; 0% → weight 1; value 2
    flat: [50, 150, 100],
    // NaN and negative entries are ignored: [200, 200, 200] → surge 1.5; |+20%| → weight 3; value 4.5 (ties
    // steady)
    noisy: [200, NaN, 200, -5, 200],
    short: [100, 100], // < 3 days: not eligible
    zero: [0, 0, 0, 0], // mean 0: not eligible
    unpriced: [100, 100, 100],
    nochange: [100, 100, 100],
  };
  const markets = mapOf(
    market('steady', { vol: 300, ch24: 5 }),
    market('crash', { vol: 1000, ch24: -80 }),
    market('flat', { vol: 200, ch24: 0 }),
    market('noisy', { vol: 300, ch24: 20 }),
    market('short', { vol: 1e9, ch24: 10 }),
    market('zero', { vol: 1e9, ch24: 10 }),
    market('unpriced', { price: null, vol: 1e9, ch24: 10 }),
    market('nochange', { vol: 1e9, ch24: null }),
    market('novolume', { vol: null, ch24: 10 }),
  );
  const volumes = (id: string): number[] => history[id] ?? [100, 100, 100];

  it('ranks by surge × weight on a hand-worked example', () => {
    const out = computeTrending(markets, volumes);
    expect(out).toEqual([
      { id: 'crash', score: 0, surge: 10, weight: 6, value: 60 },
      { id: 'noisy', score: 1, surge: 1.5, weight: 3, value: 4.5 },
      { id: 'steady', score: 2, surge: 3, weight: 1.5, value: 4.5 },
      { id: 'flat', score: 3, surge: 2, weight: 1, value: 2 },
    ]);
  });

  it('returns at most `limit` entries, 15 by default', () => {
    expect(computeTrending(markets, volumes, { limit: 2 }).map((e) => e.id)).toEqual(['crash', 'noisy']);
    expect(computeTrending(markets, volumes, { limit: 0 })).toEqual([]);
    const many = mapOf(
      ...Array.from({ length: 20 }, (_, i) =>
        market(`c${String(i).padStart(2, '0')}`, { vol: 100 + i, ch24: 1 }),
      ),
    );
    const top = computeTrending(many, () => [100, 100, 100]);
    expect(top).toHaveLength(15);
    expect(top[0]).toMatchObject({ id: 'c19', score: 0 });
    expect(top[14]).toMatchObject({ id: 'c05', score: 14 });
  });
});
