/**
 * The per-ticker verdicts `aggregatePrices` records when given a judgement (`src/engine/verdicts.ts`), and the trust
 * verdicts and venue figures derived from them (`src/engine/trust.ts`).
 */
import { describe, expect, it } from 'vitest';
import type { Ticker } from '../../src/ingest/types.ts';
import type { QuoteResolver } from '../../src/engine/price.ts';
import { aggregatePrices } from '../../src/engine/price.ts';
import { spreadPct, tickerTrust, TRUST_RULES, venueStats } from '../../src/engine/trust.ts';
import type { JudgedTicker, Verdict } from '../../src/engine/verdicts.ts';
import { judgedTickers, newJudgement } from '../../src/engine/verdicts.ts';

const NOW = Date.UTC(2026, 10, 21, 12);
const quotes: QuoteResolver = {
  fiatUsd: (code) => ({ usd: 1, eur: 1.1 })[code] ?? null,
  quoteAsset: (code) =>
    ({ usdt: { id: 'tether', scale: 1 }, doge: { id: 'dogecoin', scale: 1 } })[code] ?? null,
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

/** Aggregates with a judgement and returns the verdicts and USD prices in input order. */
function judge(tickers: Ticker[]): JudgedTicker[] {
  const j = newJudgement(tickers.length);
  aggregatePrices(tickers, NOW, quotes, undefined, j);
  return judgedTickers(tickers, j);
}
const verdicts = (js: JudgedTicker[]): Verdict[] => js.map((j) => j.verdict);

describe('aggregatePrices records a verdict per ticker', () => {
  it('used, outlier (MAD rule), stale (old, future, invalid) and unpriced (unknown quote)', () => {
    const js = judge([
      tk('litecoin', 'usd', 100),
      tk('litecoin', 'usd', 100.5),
      tk('litecoin', 'eur', 99.5 / 1.1),
      tk('litecoin', 'usd', 150),
      tk('litecoin', 'usd', 100, { ts: NOW - 16 * 60_000 }),
      tk('litecoin', 'usd', 100, { ts: NOW + 120_000 }),
      tk('litecoin', 'xyz', 100),
    ]);
    expect(verdicts(js)).toEqual(['used', 'used', 'used', 'outlier', 'stale', 'stale', 'unpriced']);
    expect(js[0]!.priceUsd).toBe(100);
    expect(js[2]!.priceUsd).toBeCloseTo(99.5, 9);
    expect(js[3]!.priceUsd).toBe(150); // converted, then dropped
    expect(js[4]!.priceUsd).toBeNull();
    expect(js[6]!.priceUsd).toBeNull();
  });

  it('agrees with the aggregate counts', () => {
    const input = [100, 101, 99, 100.2, 180, 40].map((p) => tk('dogecoin', 'usd', p));
    const j = newJudgement(input.length);
    const agg = aggregatePrices(input, NOW, quotes, undefined, j).get('dogecoin')!;
    const vs = verdicts(judgedTickers(input, j));
    expect(vs.filter((v) => v === 'used')).toHaveLength(agg.tickersUsed);
    expect(vs.filter((v) => v === 'outlier')).toHaveLength(agg.droppedOutlier);
  });

  it('the two-ticker rule: the loser is the outlier', () => {
    const js = judge([
      tk('litecoin', 'usd', 100, { baseVolume: 1 }),
      tk('litecoin', 'usd', 120, { baseVolume: 5 }),
    ]);
    expect(verdicts(js)).toEqual(['outlier', 'used']);
  });

  it('records the final pass of a multi-pass conversion (a coin quoted in an asset priced in pass 2)', () => {
    const js = judge([
      tk('tether', 'usd', 1),
      tk('dogecoin', 'usdt', 0.2),
      tk('pepecoin', 'doge', 0.5),
      tk('pepecoin', 'usd', 0.1),
    ]);
    expect(verdicts(js)).toEqual(['used', 'used', 'used', 'used']);
    expect(js[2]!.priceUsd).toBeCloseTo(0.1, 12);
  });

  it('without a judgement nothing changes, and a wrongly sized one is refused', () => {
    const input = [tk('litecoin', 'usd', 100), tk('litecoin', 'usd', 101)];
    const j = newJudgement(input.length);
    expect(aggregatePrices(input, NOW, quotes, undefined, j)).toEqual(aggregatePrices(input, NOW, quotes));
    expect(() => aggregatePrices(input, NOW, quotes, undefined, newJudgement(1))).toThrow(RangeError);
  });
});

const judged = (verdict: Verdict, priceUsd: number | null, patch: Partial<Ticker> = {}): JudgedTicker => ({
  ticker: tk('litecoin', 'usd', priceUsd ?? 1, patch),
  verdict,
  priceUsd,
});

describe('tickerTrust', () => {
  it('red for stale and outliers, green for used and close, yellow for used but far or wide, null unjudged', () => {
    expect(tickerTrust(judged('stale', null), 100, false)).toMatchObject({
      trustScore: 'red',
      isStale: true,
      isAnomaly: null,
    });
    expect(tickerTrust(judged('outlier', 150), 100, false)).toMatchObject({
      trustScore: 'red',
      isStale: false,
      isAnomaly: true,
    });
    expect(tickerTrust(judged('used', 100.9), 100, false)).toMatchObject({
      trustScore: 'green',
      isAnomaly: false,
    });
    expect(tickerTrust(judged('used', 101.1), 100, false).trustScore).toBe('yellow');
    // A spread over the limit, at the aggregate price: yellow.
    const wide = judged('used', 100, { bid: 97, ask: 100 });
    expect(spreadPct(97, 100)).toBe(3);
    expect(3).toBeGreaterThan(TRUST_RULES.maxSpreadPct);
    expect(tickerTrust(wide, 100, false).trustScore).toBe('yellow');
    expect(tickerTrust(judged('used', 100, { bid: 99, ask: 100 }), 100, false).trustScore).toBe('green');
    expect(tickerTrust(judged('unpriced', null), 100, false)).toMatchObject({
      trustScore: null,
      isAnomaly: null,
      isStale: false,
    });
    expect(tickerTrust(judged('ignored', null), 100, true)).toMatchObject({
      trustScore: null,
      isStale: true,
    });
  });

  it('a used ticker of an asset without an aggregate price cannot be green', () => {
    expect(tickerTrust(judged('used', 100), null, false)).toMatchObject({
      trustScore: 'yellow',
      deviation: null,
    });
  });
});

describe('venueStats', () => {
  it('counts pairs, coins and volumes per venue and scores used ÷ judged, ranked by score then volume', () => {
    const at = (
      venue: string,
      base: string,
      verdict: Verdict,
      usd: number | null,
      vol = 10,
    ): JudgedTicker => ({
      ticker: tk(base, 'usd', usd ?? 1, { venue, baseVolume: vol }),
      verdict,
      priceUsd: usd,
    });
    const stats = venueStats([
      at('a', 'litecoin', 'used', 100),
      at('a', 'dogecoin', 'used', 0.2),
      at('a', 'dogecoin', 'outlier', 0.4),
      at('a', 'bitcoin', 'stale', null),
      at('b', 'litecoin', 'used', 100, 1),
      at('c', 'litecoin', 'used', 100, 1000),
      at('d', 'litecoin', 'unpriced', null),
    ]);
    expect(stats.map((s) => [s.id, s.trustScore, s.trustScoreRank])).toEqual([
      ['c', 10, 1],
      ['b', 10, 2],
      ['a', 5, 3],
      ['d', null, null],
    ]);
    const a = stats.find((s) => s.id === 'a')!;
    expect(a).toMatchObject({ pairs: 4, coins: 3, judged: 4, used: 2 });
    expect(a.volumeUsd).toBeCloseTo(10 * 100 + 10 * 0.2 + 10 * 0.4, 9);
    expect(a.normalizedVolumeUsd).toBeCloseTo(10 * 100 + 10 * 0.2, 9);
    expect(stats.find((s) => s.id === 'd')).toMatchObject({ volumeUsd: null, normalizedVolumeUsd: null });
  });
});
