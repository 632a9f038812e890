import { describe, expect, it } from 'vitest';
import type { CategoryInfo } from '../../src/catalog/types.ts';
import { computeCategories } from '../../src/engine/categories.ts';
import { market, mapOf } from '../support/market-fixture.ts';

const cat = (id: string, members: string[]): CategoryInfo => ({
  id,
  name: id.toUpperCase(),
  description: `about ${id}`,
  members,
});
const NOW = 1_717_243_200_000;

describe('computeCategories', () => {
  const markets = mapOf(
    market('a', { cap: 110, ch24: 10, vol: 5 }),
    market('b', { cap: 90, ch24: -25, vol: 7 }),
    market('c', { cap: null, ch24: 3, vol: 1000 }),
    market('d', { cap: 50, ch24: null, vol: null }),
    market('e', { price: null }),
  );

  it('sums verified market caps and weights 24h changes by each member’s market cap 24h ago', () => {
    const [l1] = computeCategories([cat('l1', ['a', 'b', 'c', 'd', 'missing', 'a'])], markets, NOW);
    expect(l1).toEqual({
      id: 'l1',
      name: 'L1',
      content: 'about l1',
      marketCapUsd: 250,
      // a: 110 now, 100 a day ago; b: 90 now, 120 a day ago; d has no 24h change → (200 − 220) / 220
      marketCapChange24hPct: expect.closeTo(-9.090909, 5),
      volume24hUsd: 1012,
      top3: ['a', 'b', 'd'],
      coinsCount: 4,
      verifiedCount: 3,
      updatedAt: NOW,
    });
  });

  it('gives null, not 0, when no member has the figure', () => {
    const [unverified, ghost] = computeCategories(
      [cat('u', ['c', 'e']), cat('ghost', ['missing'])],
      markets,
      NOW,
    );
    expect(unverified).toMatchObject({
      marketCapUsd: null,
      marketCapChange24hPct: null,
      volume24hUsd: 1000,
      top3: ['c', 'e'],
      coinsCount: 2,
      verifiedCount: 0,
    });
    expect(ghost).toMatchObject({
      marketCapUsd: null,
      marketCapChange24hPct: null,
      volume24hUsd: null,
      top3: [],
      coinsCount: 0,
    });
    const [onlyD] = computeCategories([cat('d', ['d'])], markets, NOW);
    expect(onlyD).toMatchObject({
      marketCapUsd: 50,
      marketCapChange24hPct: null,
      volume24hUsd: null,
      verifiedCount: 1,
    });
  });

  it('orders the top 3 by market cap, then volume, then id, and keeps the input order of categories', () => {
    const m = mapOf(
      market('x', { cap: 10, vol: 1 }),
      market('y', { cap: 10, vol: 2 }),
      market('w', { cap: 10, vol: 2 }),
      market('v', { cap: 20, vol: null }),
    );
    const out = computeCategories([cat('t', ['x', 'y', 'w', 'v']), cat('s', ['x'])], m, NOW);
    expect(out.map((c) => c.id)).toEqual(['t', 's']);
    expect(out[0]?.top3).toEqual(['v', 'w', 'y']);
  });
});
