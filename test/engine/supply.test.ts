import { describe, expect, it } from 'vitest';
import type { SupplyRecord } from '../../src/ingest/types.ts';
import { fdv, marketCap, supplyStatusReason, verifySupply } from '../../src/engine/supply.ts';
import type { SupplyFigures } from '../../src/engine/types.ts';

const NOW = Date.UTC(2026, 10, 21, 12);
const DAY = 86_400_000;

function rec(
  kind: SupplyRecord['kind'],
  value: number,
  source: string,
  patch: Partial<SupplyRecord> = {},
): SupplyRecord {
  return { asset: 'litecoin', kind, value, source, sourceKind: 'explorer', ts: NOW - 1000, ...patch };
}

describe('verifySupply: circulating', () => {
  it('verifies circulating when two independent sources agree within 1 %', () => {
    const s = verifySupply([rec('circulating', 75_000_000, 'a'), rec('circulating', 75_500_000, 'b')], NOW);
    expect(s).toMatchObject({
      circulating: 75_250_000,
      verified: true,
      circulatingSources: 2,
      status: 'verified',
    });
    expect(s.readings.map((r) => [r.source, r.value, r.agrees])).toEqual([
      ['a', 75_000_000, true],
      ['b', 75_500_000, true],
    ]);
    expect(supplyStatusReason(s)).toBeNull();
    expect(marketCap(80, s)).toBe(80 * 75_250_000);
  });

  it('leaves circulating null with a single source, and FDV still present when max is known', () => {
    const s = verifySupply(
      [rec('circulating', 75_000_000, 'a'), rec('max', 84_000_000, 'emission', { sourceKind: 'emission' })],
      NOW,
    );
    expect(s).toMatchObject({ circulating: null, verified: false, circulatingSources: 1, max: 84_000_000 });
    expect(s).toMatchObject({ status: 'single_source', spread: null });
    expect(supplyStatusReason(s)).toBe(
      'only one source (a) reports a circulating supply; two independent sources must agree within 1 %',
    );
    expect(marketCap(80, s)).toBeNull();
    expect(fdv(80, s)).toBe(80 * 84_000_000);
  });

  it('leaves circulating null when sources disagree', () => {
    const s = verifySupply([rec('circulating', 120, 'b'), rec('circulating', 100, 'a')], NOW);
    expect(s).toMatchObject({ circulating: null, verified: false, circulatingSources: 2 });
    // The reason is visible: which sources, what each says, by how much they differ.
    expect(s.status).toBe('sources_disagree');
    expect(s.readings.map((r) => [r.source, r.value, r.agrees])).toEqual([
      ['a', 100, false],
      ['b', 120, false],
    ]);
    expect(s.spread).toBeCloseTo(10 / 110, 12);
    expect(supplyStatusReason(s)).toBe(
      'the 2 sources disagree: up to 9.09 % from their median, where no more than 1 % is allowed',
    );
    expect(marketCap(1, s)).toBeNull();
  });

  it('does not count two records of the same source as two sources', () => {
    const s = verifySupply(
      [rec('circulating', 100, 'a', { ts: NOW - 2000 }), rec('circulating', 100, 'a')],
      NOW,
    );
    expect(s).toMatchObject({ circulating: null, verified: false, circulatingSources: 1 });
  });

  it('takes the median of the largest agreeing cluster', () => {
    const s = verifySupply(
      [
        rec('circulating', 100, 'a'),
        rec('circulating', 100.4, 'b'),
        rec('circulating', 100.6, 'c'),
        rec('circulating', 130, 'd'),
      ],
      NOW,
    );
    expect(s).toMatchObject({ circulating: 100.4, verified: true, circulatingSources: 4 });
    expect(s.readings.map((r) => r.agrees)).toEqual([true, true, true, false]);
  });

  it('refuses to choose between two equally large clusters', () => {
    // 100 & 101.5 agree, 101.5 & 103 agree, all three do not (1 % of 101.5 < 1.5).
    const s = verifySupply(
      [rec('circulating', 100, 'a'), rec('circulating', 101.5, 'b'), rec('circulating', 103, 'c')],
      NOW,
    );
    expect(s).toMatchObject({ circulating: null, verified: false, status: 'sources_disagree' });
  });

  it('honours the tolerance option', () => {
    const records = [rec('circulating', 100, 'a'), rec('circulating', 104, 'b')];
    expect(verifySupply(records, NOW).circulating).toBeNull();
    expect(verifySupply(records, NOW, { tolerance: 0.05 }).circulating).toBe(102);
  });

  it('uses only the latest record per source and kind', () => {
    const records = [
      rec('circulating', 100, 'a', { ts: NOW - 5000 }),
      rec('circulating', 200, 'a', { ts: NOW - 1000 }),
      rec('circulating', 100, 'b'),
    ];
    expect(verifySupply(records, NOW)).toMatchObject({ circulating: null, verified: false });
    // Same timestamp: the later record wins.
    const tie = [rec('circulating', 200, 'a'), rec('circulating', 100, 'a'), rec('circulating', 100, 'b')];
    expect(verifySupply(tie, NOW).circulating).toBe(100);
  });

  it('keeps a record exactly maxAgeMs old and ignores one a millisecond older', () => {
    const at = (age: number) => [
      rec('circulating', 100, 'a', { ts: NOW - age }),
      rec('circulating', 100, 'b'),
    ];
    expect(verifySupply(at(7 * DAY), NOW).circulating).toBe(100);
    expect(verifySupply(at(7 * DAY + 1), NOW).circulating).toBeNull();
    expect(verifySupply(at(2 * DAY + 1), NOW, { maxAgeMs: 2 * DAY }).circulating).toBeNull();
  });

  it('treats a circulating figure of 0 as missing', () => {
    const s = verifySupply([rec('circulating', 0, 'a'), rec('circulating', 0, 'b')], NOW);
    expect(s).toMatchObject({ circulating: null, verified: false, circulatingSources: 0 });
  });
});

describe('verifySupply: total and max', () => {
  it('takes the median of total and max figures', () => {
    const s = verifySupply(
      [
        rec('total', 10, 'a'),
        rec('total', 30, 'b'),
        rec('total', 20, 'c'),
        rec('max', 21, 'a'),
        rec('max', 22, 'b'),
      ],
      NOW,
    );
    expect(s).toMatchObject({ total: 20, max: 21.5, maxInfinite: false });
  });

  it('reads a max of 0 from an emission source as "no cap": max null, maxInfinite, no FDV', () => {
    const s = verifySupply(
      [
        rec('max', 0, 'schedule', { sourceKind: 'emission' }),
        rec('max', 1000, 'agg', { sourceKind: 'aggregator' }),
      ],
      NOW,
    );
    expect(s).toMatchObject({ max: null, maxInfinite: true });
    expect(fdv(5, s)).toBeNull();
  });

  it('ignores a max of 0 from any other kind of source', () => {
    const s = verifySupply([rec('max', 0, 'agg', { sourceKind: 'aggregator' })], NOW);
    expect(s).toMatchObject({ max: null, maxInfinite: false });
  });

  it('returns all-null figures for no (fresh) records', () => {
    const empty = {
      circulating: null,
      verified: false,
      circulatingSources: 0,
      status: 'no_source',
      readings: [],
      spread: null,
      total: null,
      max: null,
      maxInfinite: false,
      updatedAt: null,
    };
    expect(verifySupply([], NOW)).toEqual(empty);
    expect(verifySupply([rec('total', 5, 'a', { ts: NOW - 8 * DAY })], NOW)).toEqual(empty);
  });

  it('reports the newest observation behind a figure', () => {
    const s = verifySupply(
      [
        rec('circulating', 100, 'a', { ts: NOW - 50 }),
        rec('circulating', 100, 'b', { ts: NOW - 40 }),
        rec('total', 5, 'c', { ts: NOW - 30 }),
        rec('circulating', 999, 'z', { ts: NOW - 10 }),
      ],
      NOW,
    );
    expect(s.updatedAt).toBe(NOW - 30);
  });

  it('is idempotent', () => {
    const records = [rec('circulating', 100, 'a'), rec('circulating', 100.2, 'b'), rec('max', 200, 'a')];
    expect(verifySupply(records, NOW)).toEqual(verifySupply(records, NOW));
  });
});

describe('marketCap and fdv', () => {
  const figures: SupplyFigures = {
    circulating: 10,
    verified: true,
    circulatingSources: 2,
    status: 'verified',
    readings: [],
    spread: 0,
    total: 20,
    max: 30,
    maxInfinite: false,
    updatedAt: NOW,
  };

  it('multiply the price by verified circulating and by max supply', () => {
    expect(marketCap(2, figures)).toBe(20);
    expect(fdv(2, figures)).toBe(60);
  });

  it('are null without a price', () => {
    expect(marketCap(null, figures)).toBeNull();
    expect(fdv(null, figures)).toBeNull();
  });

  it('give no market cap for unverified circulating supply', () => {
    expect(marketCap(2, { ...figures, verified: false })).toBeNull();
    expect(marketCap(2, { ...figures, circulating: null, verified: false })).toBeNull();
    expect(fdv(2, { ...figures, max: null, maxInfinite: true })).toBeNull();
  });
});
