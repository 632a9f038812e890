/**
 * The graph benchmark's varied workload (bench/graph/workload.ts): the Zipf draws, the seeded bodies, the `data`
 * bytes compared across variants, and the check of every answer against the reference's for its own body.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/demo/random.ts';
import type { Catalog } from '../../bench/graph/workload.ts';
import {
  bodies,
  currencyRanks,
  dataOf,
  distinctBodies,
  Expected,
  NAMES,
  PAGE_SIZES,
  VARIED,
  zipf,
} from '../../bench/graph/workload.ts';

const catalog: Catalog = {
  coinIds: ['bitcoin', 'ethereum', 'litecoin', 'dogecoin'],
  currencies: currencyRanks(['aed', 'btc', 'chf', 'eur', 'usd']),
};

describe('zipf', () => {
  it('draws rank k with weight 1/k, the long tail included', () => {
    const items = Array.from({ length: 10 }, (_, i) => i + 1);
    const draw = zipf(items, mulberry32(7));
    const counts = new Map<number, number>();
    const n = 200_000;
    for (let i = 0; i < n; i++) {
      const k = draw();
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const h = items.reduce((s, k) => s + 1 / k, 0);
    for (const k of items) expect((counts.get(k) ?? 0) / n).toBeCloseTo(1 / k / h, 2);
  });
});

describe('the varied bodies', () => {
  it('ranks the majors first, then the rest in the catalog order', () => {
    expect(catalog.currencies).toEqual(['usd', 'eur', 'btc', 'aed', 'chf']);
    expect(PAGE_SIZES.slice(0, 4)).toEqual([10, 25, 50, 100]);
    expect([...PAGE_SIZES].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('are a seeded stream: the same seed gives the same bodies, another seed others', () => {
    const take = (seed: number) => {
      const next = bodies('coins(first: $n, $currency)', catalog, seed);
      return Array.from({ length: 50 }, next);
    };
    expect(take(1)).toEqual(take(1));
    expect(take(2)).not.toEqual(take(1));
  });

  it('send the operation with variables drawn from the catalog, over many distinct bodies', () => {
    const next = bodies('coin($id, $currency)', catalog, 3);
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const body = next();
      seen.add(body);
      const { query, variables } = JSON.parse(body) as {
        query: string;
        variables: { id: string; currency: string };
      };
      expect(query).toBe(VARIED['coin($id, $currency)']);
      expect(catalog.coinIds).toContain(variables.id);
      expect(catalog.currencies).toContain(variables.currency);
    }
    // 4 ids × 5 currencies: every pair is drawn, the rarest too.
    expect(seen.size).toBe(distinctBodies('coin($id, $currency)', catalog));

    const nested = JSON.parse(bodies('nested($n, $name)', catalog, 3)()) as { variables: object };
    expect(Object.keys(nested.variables)).toEqual(['n', 'name']);
    expect(NAMES).toHaveLength(40);
    expect(distinctBodies('nested($n, $name)', catalog)).toBe(4_000);
  });
});

describe('dataOf', () => {
  it('is the bytes of `data`, with or without the extensions our router adds', () => {
    expect(dataOf('{"data":{"coin":{"id":"x"}},"extensions":{"cost":{"remaining":9}}}')).toBe(
      '{"coin":{"id":"x"}}',
    );
    expect(dataOf('{"data":{"coin":{"id":"x"}}}')).toBe('{"coin":{"id":"x"}}');
  });

  it('leaves anything else whole, so it matches no answer', () => {
    const refused = '{"errors":[{"message":"no","extensions":{"code":"RATE_LIMITED"}}]}';
    expect(dataOf(refused)).toBe(refused);
  });
});

describe('Expected', () => {
  const answer = (data: string, remaining = 1) =>
    `{"data":${data},"extensions":{"cost":{"remaining":${remaining}}}}`;

  it('asks the reference once per body and counts every answer that differs from its', async () => {
    const asked: string[] = [];
    const expected = new Expected(async (body) => {
      asked.push(body);
      return `{"data":{"v":${JSON.parse(body).v}}}`;
    });
    await expected.of('{"v":1}');

    const run = expected.run();
    run.check('{"v":1}', answer('{"v":1}', 5)); // known, same data (another `remaining`)
    run.check('{"v":1}', answer('{"v":9}')); // known, different
    run.check('{"v":2}', answer('{"v":2}')); // unknown yet: settled after the run
    run.check('{"v":2}', answer('{"v":2}'));
    run.check('{"v":3}', answer('{"v":4}'));
    run.check('{"v":3}', '{"errors":[{"message":"x"}]}');
    const found = await run.settle();

    expect(found.mismatches).toBe(3);
    expect(found.distinct).toBe(3);
    expect(found.example).toEqual({ body: '{"v":1}', got: '{"v":9}', want: '{"v":1}' });
    expect(asked.sort()).toEqual(['{"v":1}', '{"v":2}', '{"v":3}']);

    // A later run checks the bodies settled before without asking again.
    const again = expected.run();
    again.check('{"v":2}', answer('{"v":2}'));
    expect(await again.settle()).toEqual({ mismatches: 0, distinct: 1, example: null });
    expect(asked).toHaveLength(3);
  });
});
