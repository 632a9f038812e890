import { describe, expect, it } from 'vitest';
import type { Ticker } from '../../src/ingest/types.ts';
import type { QuoteResolver } from '../../src/engine/price.ts';
import { aggregatePrices, DEFAULT_PRICE_RULES } from '../../src/engine/price.ts';
import { mad, median, weightedMedian } from '../../src/engine/stats.ts';

const NOW = Date.UTC(2026, 10, 21, 12);
const MAX_AGE = DEFAULT_PRICE_RULES.maxAgeMs;

const FIAT: Record<string, number> = { usd: 1, eur: 1.1 };
const ASSETS: Record<string, { id: string; scale: number }> = {
  usdt: { id: 'tether', scale: 1 },
  btc: { id: 'bitcoin', scale: 1 },
  sats: { id: 'bitcoin', scale: 1e-8 },
  doge: { id: 'dogecoin', scale: 1 },
  a1: { id: 'a1', scale: 1 },
  a2: { id: 'a2', scale: 1 },
  a3: { id: 'a3', scale: 1 },
  a4: { id: 'a4', scale: 1 },
  x: { id: 'x', scale: 1 },
  y: { id: 'y', scale: 1 },
};
const quotes: QuoteResolver = {
  fiatUsd: (code) => FIAT[code] ?? null,
  quoteAsset: (code) => ASSETS[code] ?? null,
};

let seq = 0;
function tk(base: string, quote: string, last: number, patch: Partial<Ticker> = {}): Ticker {
  seq++;
  return {
    venue: `v${seq}`,
    venueKind: 'cex',
    base,
    quote,
    last,
    bid: null,
    ask: null,
    baseVolume: 1,
    ts: NOW,
    ...patch,
  };
}

function one(tickers: Ticker[], asset: string, now = NOW) {
  const agg = aggregatePrices(tickers, now, quotes).get(asset);
  if (!agg) throw new Error(`no aggregate for ${asset}`);
  return agg;
}

describe('aggregatePrices: conversion and figures', () => {
  it('prices a single USD ticker with all figures', () => {
    const a = one(
      [tk('litecoin', 'usd', 80, { baseVolume: 10, venue: 'kraken', ts: NOW - 1000 })],
      'litecoin',
    );
    expect(a).toMatchObject({
      asset: 'litecoin',
      priceUsd: 80,
      volumeUsd: 800,
      baseVolume: 10,
      venues: 1,
      tickersUsed: 1,
      droppedStale: 0,
      droppedOutlier: 0,
      droppedUnpriced: 0,
      lastUpdated: NOW - 1000,
    });
    expect(a.confidence).toBeGreaterThan(0);
    expect(a.confidence).toBeLessThanOrEqual(0.5);
  });

  it('converts fiat quotes with the FX rate', () => {
    expect(one([tk('litecoin', 'eur', 100)], 'litecoin').priceUsd).toBeCloseTo(110, 10);
  });

  it('converts unit quotes with the quote asset price × scale (sats)', () => {
    const ts = [tk('bitcoin', 'usd', 50_000), tk('dust', 'sats', 1000)];
    expect(one(ts, 'dust').priceUsd).toBeCloseTo(0.5, 12);
  });

  it('reaches assets several conversions away: coin in DOGE, DOGE in USDT, USDT in USD', () => {
    const ts = [
      tk('tether', 'usd', 1.0),
      tk('dogecoin', 'usdt', 0.1),
      tk('mycoin', 'doge', 50, { baseVolume: 4 }),
    ];
    const out = aggregatePrices(ts, NOW, quotes);
    expect(out.get('tether')?.priceUsd).toBe(1);
    expect(out.get('dogecoin')?.priceUsd).toBeCloseTo(0.1, 12);
    expect(out.get('mycoin')?.priceUsd).toBeCloseTo(5, 12);
    expect(out.get('mycoin')?.volumeUsd).toBeCloseTo(20, 12);
  });

  it('stops after 4 passes: a fifth-level quote stays unpriced', () => {
    const ts = [
      tk('a1', 'usd', 2),
      tk('a2', 'a1', 2),
      tk('a3', 'a2', 2),
      tk('a4', 'a3', 2),
      tk('a5', 'a4', 2),
    ];
    const out = aggregatePrices(ts, NOW, quotes);
    expect(out.get('a4')?.priceUsd).toBe(16);
    expect(out.get('a5')).toMatchObject({ priceUsd: null, droppedUnpriced: 1, tickersUsed: 0 });
  });

  it('recomputes an asset when later passes make more of its tickers convertible', () => {
    const ts = [
      tk('tether', 'usd', 1),
      tk('bitcoin', 'usd', 100, { baseVolume: 1 }),
      tk('bitcoin', 'usdt', 102, { baseVolume: 10 }),
    ];
    const btc = one(ts, 'bitcoin');
    expect(btc.tickersUsed).toBe(2);
    expect(btc.priceUsd).toBe(102);
    expect(btc.droppedUnpriced).toBe(0);
  });

  it('converts with the quote price of the previous pass, not one refined later', () => {
    // Pass 1: tether = 1.00 (USD). Pass 2: tether adds its BTC ticker (→ 1.02, more volume) while mycoin is
    // converted with tether's pass-1 price. mycoin's tickers do not grow afterwards, so it is not recomputed.
    const ts = [
      tk('bitcoin', 'usd', 50_000),
      tk('tether', 'usd', 1.0, { baseVolume: 1 }),
      tk('tether', 'btc', 1.02 / 50_000, { baseVolume: 10 }),
      tk('mycoin', 'usdt', 3),
      // A quote asset first priced in pass 2 forces a pass 3, whose rates carry tether's refined 1.02.
      tk('dogecoin', 'usdt', 0.1),
      tk('shib', 'doge', 0.0001),
    ];
    const out = aggregatePrices(ts, NOW, quotes);
    expect(out.get('tether')?.priceUsd).toBeCloseTo(1.02, 12);
    expect(out.get('mycoin')?.priceUsd).toBe(3);
    expect(out.get('shib')?.priceUsd).toBeCloseTo(0.0001 * 0.1, 15);
  });

  it('treats a code known both as fiat and as a quote asset as fiat', () => {
    const both: QuoteResolver = {
      fiatUsd: (c) => (c === 'usd' ? 1 : null),
      quoteAsset: () => ({ id: 'other', scale: 2 }),
    };
    const out = aggregatePrices([tk('litecoin', 'usd', 80), tk('other', 'usd', 5)], NOW, both);
    expect(out.get('litecoin')?.priceUsd).toBe(80);
    expect(out.get('other')?.priceUsd).toBe(5); // not mistaken for a self-quote
  });

  it('counts tickers whose quote can never be converted as droppedUnpriced', () => {
    const a = one([tk('litecoin', 'xyz', 1), tk('litecoin', 'usd', 80)], 'litecoin');
    expect(a).toMatchObject({ priceUsd: 80, droppedUnpriced: 1, tickersUsed: 1 });
    // Quote assets that only price each other never get a price.
    const out = aggregatePrices([tk('x', 'y', 2), tk('y', 'x', 0.5)], NOW, quotes);
    expect(out.get('x')).toMatchObject({ priceUsd: null, droppedUnpriced: 1 });
    expect(out.get('y')).toMatchObject({ priceUsd: null, droppedUnpriced: 1 });
  });

  it('ignores self-quoted tickers entirely', () => {
    const out = aggregatePrices(
      [tk('bitcoin', 'btc', 1), tk('bitcoin', 'usd', 100), tk('tether', 'usdt', 1)],
      NOW,
      quotes,
    );
    expect(out.get('bitcoin')).toMatchObject({
      priceUsd: 100,
      tickersUsed: 1,
      droppedUnpriced: 0,
      droppedStale: 0,
    });
    expect(out.get('tether')).toMatchObject({
      priceUsd: null,
      tickersUsed: 0,
      droppedUnpriced: 0,
      droppedStale: 0,
    });
  });

  it('counts distinct venues and takes the newest ticker time', () => {
    const ts = [
      tk('litecoin', 'usd', 80, { venue: 'kraken', ts: NOW - 5000 }),
      tk('litecoin', 'eur', 80 / 1.1, { venue: 'kraken', ts: NOW - 1000 }),
      tk('litecoin', 'usd', 80, { venue: 'coinbase', ts: NOW - 3000 }),
    ];
    expect(one(ts, 'litecoin')).toMatchObject({ venues: 2, tickersUsed: 3, lastUpdated: NOW - 1000 });
  });
});

describe('aggregatePrices: eligibility', () => {
  it('keeps a ticker exactly maxAgeMs old and drops one a millisecond older', () => {
    expect(one([tk('litecoin', 'usd', 80, { ts: NOW - MAX_AGE })], 'litecoin').priceUsd).toBe(80);
    const stale = one([tk('litecoin', 'usd', 80, { ts: NOW - MAX_AGE - 1 })], 'litecoin');
    expect(stale).toMatchObject({
      priceUsd: null,
      volumeUsd: null,
      confidence: null,
      lastUpdated: null,
      droppedStale: 1,
    });
  });

  it('drops tickers more than 60 s in the future', () => {
    expect(one([tk('litecoin', 'usd', 80, { ts: NOW + 60_000 })], 'litecoin').priceUsd).toBe(80);
    expect(one([tk('litecoin', 'usd', 80, { ts: NOW + 60_001 })], 'litecoin')).toMatchObject({
      priceUsd: null,
      droppedStale: 1,
    });
  });

  it('counts invalid prices and volumes with the stale ones', () => {
    const ts = [
      tk('litecoin', 'usd', 0),
      tk('litecoin', 'usd', NaN),
      tk('litecoin', 'usd', 80, { baseVolume: -1 }),
    ];
    expect(one(ts, 'litecoin')).toMatchObject({ priceUsd: null, droppedStale: 3 });
  });

  it('honours rule overrides', () => {
    const ts = [tk('litecoin', 'usd', 80, { ts: NOW - 120_000 })];
    expect(aggregatePrices(ts, NOW, quotes, { maxAgeMs: 60_000 }).get('litecoin')?.priceUsd).toBeNull();
  });

  it('lists every asset that has tickers, even with no eligible one', () => {
    const out = aggregatePrices(
      [tk('ghost', 'usd', 1, { ts: NOW - 10 * MAX_AGE }), tk('litecoin', 'usd', 80)],
      NOW,
      quotes,
    );
    expect([...out.keys()]).toEqual(['ghost', 'litecoin']);
    expect(out.get('ghost')).toMatchObject({
      priceUsd: null,
      volumeUsd: null,
      confidence: null,
      tickersUsed: 0,
    });
    expect(aggregatePrices([], NOW, quotes).size).toBe(0);
  });
});

describe('aggregatePrices: outliers', () => {
  it('drops prices beyond madK × MAD from the median', () => {
    const ts = [100, 100.5, 99.5, 101, 99, 150].map((p) => tk('litecoin', 'usd', p));
    const a = one(ts, 'litecoin');
    expect(a.droppedOutlier).toBe(1);
    expect(a.tickersUsed).toBe(5);
    expect(a.priceUsd).toBeLessThan(102);
  });

  it('applies the MAD floor so near-identical prices are kept (0.2 % × 5 = 1 % band)', () => {
    const ts = [100, 100, 100, 100, 100.9, 101.1].map((p) => tk('litecoin', 'usd', p));
    const a = one(ts, 'litecoin');
    expect(a.droppedOutlier).toBe(1);
    expect(a.tickersUsed).toBe(5);
  });

  it('with two tickers more than 10 % apart keeps the one with more volume', () => {
    const a = one(
      [tk('litecoin', 'usd', 100, { baseVolume: 1 }), tk('litecoin', 'usd', 120, { baseVolume: 5 })],
      'litecoin',
    );
    expect(a).toMatchObject({ priceUsd: 120, droppedOutlier: 1, tickersUsed: 1, baseVolume: 5 });
    // Equal volume: the newer one wins.
    const b = one(
      [tk('litecoin', 'usd', 100, { ts: NOW }), tk('litecoin', 'usd', 120, { ts: NOW - 1 })],
      'litecoin',
    );
    expect(b).toMatchObject({ priceUsd: 100, droppedOutlier: 1 });
  });

  it('keeps both of two tickers within 10 %', () => {
    const a = one(
      [tk('litecoin', 'usd', 100, { baseVolume: 1 }), tk('litecoin', 'usd', 109, { baseVolume: 5 })],
      'litecoin',
    );
    expect(a).toMatchObject({ priceUsd: 109, droppedOutlier: 0, tickersUsed: 2 });
  });
});

describe('aggregatePrices: large groups', () => {
  it('matches the rule computed with the plain statistics for an asset with many tickers', () => {
    let x = 12345;
    const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const ts: Ticker[] = [];
    for (let i = 0; i < 150; i++) {
      const outlier = i % 37 === 5;
      ts.push(
        tk(
          'bitcoin',
          i % 2 ? 'usd' : 'eur',
          (90_000 * (outlier ? 1.4 : 1 + (next() - 0.5) * 0.01)) / (i % 2 ? 1 : 1.1),
          { baseVolume: Math.floor(next() * 100) },
        ),
      );
    }
    const usd = ts.map((t) => t.last * (FIAT[t.quote] ?? NaN));
    const m = median(usd);
    const limit = 5 * Math.max(mad(usd, m), 0.002 * m);
    const kept = usd.map((p, i) => [p, ts[i]!.baseVolume] as const).filter(([p]) => Math.abs(p - m) <= limit);
    const a = one(ts, 'bitcoin');
    expect(a.droppedOutlier).toBe(150 - kept.length);
    expect(a.droppedOutlier).toBeGreaterThan(0);
    expect(a.priceUsd).toBe(
      weightedMedian(
        kept.map(([p]) => p),
        kept.map(([, w]) => w),
      ),
    );
  });
});

describe('aggregatePrices: weighting', () => {
  it('takes the volume-weighted median', () => {
    const mk = (vols: number[]) =>
      [100, 101, 102].map((p, i) => tk('litecoin', 'usd', p, { baseVolume: vols[i]! }));
    expect(one(mk([10, 1, 1]), 'litecoin').priceUsd).toBe(100);
    expect(one(mk([1, 1, 10]), 'litecoin').priceUsd).toBe(102);
    expect(one(mk([1, 10, 1]), 'litecoin').priceUsd).toBe(101);
  });

  it('falls back to equal weights when all volumes are 0', () => {
    const ts = [100, 101, 102, 103].map((p) => tk('litecoin', 'usd', p, { baseVolume: 0 }));
    expect(one(ts, 'litecoin')).toMatchObject({ priceUsd: 101.5, volumeUsd: 0, baseVolume: 0 });
  });

  it('sums volume as base volume × aggregate price', () => {
    const ts = [
      tk('litecoin', 'usd', 100, { baseVolume: 3 }),
      tk('litecoin', 'eur', 100 / 1.1, { baseVolume: 2 }),
    ];
    const a = one(ts, 'litecoin');
    expect(a.baseVolume).toBe(5);
    expect(a.volumeUsd).toBeCloseTo(5 * a.priceUsd!, 9);
  });

  it('gives more confidence to more agreeing venues', () => {
    const few = one([tk('litecoin', 'usd', 100)], 'litecoin').confidence!;
    const many = one(
      [100, 100.1, 99.9, 100.05, 99.95].map((p) => tk('litecoin', 'usd', p)),
      'litecoin',
    ).confidence!;
    expect(many).toBeGreaterThan(few);
  });
});

describe('aggregatePrices: determinism', () => {
  function market(): Ticker[] {
    const ts: Ticker[] = [tk('tether', 'usd', 1.0005), tk('tether', 'eur', 0.91)];
    for (let i = 0; i < 6; i++)
      ts.push(tk('bitcoin', i % 2 ? 'usdt' : 'usd', 50_000 + i * 10, { baseVolume: i + 1 }));
    for (let i = 0; i < 6; i++)
      ts.push(tk('ether', i % 3 ? 'btc' : 'usd', i % 3 ? 0.05 : 2500, { baseVolume: 2 }));
    ts.push(tk('ether', 'usd', 9999), tk('dogecoin', 'usdt', 0.1, { ts: NOW - MAX_AGE - 1 }));
    return ts;
  }

  it('returns the same output for the same input, without mutating it', () => {
    const input = market();
    const copy = structuredClone(input);
    const first = aggregatePrices(input, NOW, quotes);
    const second = aggregatePrices(input, NOW, quotes);
    expect(second).toEqual(first);
    expect(input).toEqual(copy);
    expect(first.get('ether')?.droppedOutlier).toBe(1);
  });

  it('does not depend on ticker order for the price', () => {
    const input = market();
    const a = aggregatePrices(input, NOW, quotes);
    const b = aggregatePrices([...input].reverse(), NOW, quotes);
    for (const [asset, agg] of a) {
      expect(b.get(asset)?.priceUsd).toBe(agg.priceUsd);
      expect(b.get(asset)?.tickersUsed).toBe(agg.tickersUsed);
    }
  });
});
