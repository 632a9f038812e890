import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/demo/random.ts';
import {
  RejectCounter,
  validateFx,
  validateSupply,
  validateTicker,
  validTicker,
} from '../../src/ingest/validate.ts';

const NOW = Date.UTC(2025, 5, 10, 12);
const KNOWN = new Set(['litecoin', 'dogecoin', 'bitcoin']);
const good = {
  venue: 'kraken',
  venueKind: 'cex',
  base: 'litecoin',
  quote: 'usd',
  last: 89.2,
  bid: 89.1,
  ask: 89.3,
  baseVolume: 41077.2,
  ts: NOW - 1000,
};
const reasonOf = (x: unknown): string | null => {
  const r = validateTicker(x, KNOWN, NOW);
  return r.ok ? null : r.reason;
};

describe('validTicker (the fast path)', () => {
  it('accepts exactly what validateTicker accepts, with the same value', () => {
    const next = mulberry32(11);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    const odd: Record<string, readonly unknown[]> = {
      venue: ['kraken', 'Kraken', '', 'a'.repeat(65), 7, null],
      venueKind: ['cex', 'dex', 'CEX', null],
      base: ['litecoin', 'dogecoin', 'nosuchcoin', 'Lite', 3],
      quote: ['usd', 'ltc', 'litecoin', 'btc', 'us d', undefined],
      last: [89.2, 0, -1, Infinity, NaN, '89', null],
      bid: [89.1, null, 0, 90, -2, '1'],
      ask: [89.3, null, 89.1, 0, Infinity],
      baseVolume: [41077.2, 0, -0.5, NaN, null],
      ts: [NOW - 1000, NOW + 86_400_000, NOW + 86_400_001, 1.5e12 + 0.5, Date.UTC(2008, 0, 1), '1', null],
    };
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const x: Record<string, unknown> = { ...good };
      for (const [k, vs] of Object.entries(odd)) if (next() < 0.15) x[k] = pick(vs);
      if (next() < 0.05) delete x[pick(Object.keys(odd))];
      const slow = validateTicker(x, KNOWN, NOW);
      const fast = validTicker(x, KNOWN, NOW);
      expect(fast).toEqual(slow.ok ? slow.value : null);
      if (fast) {
        accepted++;
        expect(Object.keys(fast)).toEqual(Object.keys(good));
      }
    }
    expect(accepted).toBeGreaterThan(1000);
    expect(validTicker('x', KNOWN, NOW)).toBeNull();
    expect(validTicker([good], KNOWN, NOW)).toBeNull();
  });
});

describe('validateTicker', () => {
  it('accepts a good ticker and keeps only known fields', () => {
    const r = validateTicker({ ...good, extra: 'dropped' }, KNOWN, NOW);
    expect(r).toEqual({ ok: true, value: good });
  });

  it('accepts null bid/ask, zero volume, equal bid and ask, and ts up to a day ahead', () => {
    expect(reasonOf({ ...good, bid: null, ask: null })).toBeNull();
    expect(reasonOf({ ...good, bid: 5, ask: 5, baseVolume: 0 })).toBeNull();
    expect(reasonOf({ ...good, ts: NOW + 86_400_000 })).toBeNull();
    expect(reasonOf({ ...good, ts: Date.UTC(2009, 0, 1) })).toBeNull();
  });

  it.each([
    ['not an object', 'x', 'ticker: must be an object'],
    ['null', null, 'ticker: must be an object'],
    ['an array', [good], 'ticker: must be an object'],
  ])('rejects %s', (_name, x, reason) => {
    expect(reasonOf(x)).toBe(reason);
  });

  const ID_RULE = 'must be a lowercase id of [a-z0-9._-]{1,64}';
  it.each<[string, Record<string, unknown>, string]>([
    ['missing venue', { venue: undefined }, `ticker.venue: ${ID_RULE}`],
    ['uppercase venue', { venue: 'Kraken' }, `ticker.venue: ${ID_RULE}`],
    ['empty venue', { venue: '' }, `ticker.venue: ${ID_RULE}`],
    ['overlong venue', { venue: 'a'.repeat(65) }, `ticker.venue: ${ID_RULE}`],
    ['venue with a space', { venue: 'kra ken' }, `ticker.venue: ${ID_RULE}`],
    ['bad venueKind', { venueKind: 'otc' }, 'ticker.venueKind: must be one of cex|dex'],
    ['non-string base', { base: 7 }, `ticker.base: ${ID_RULE}`],
    ['unknown base', { base: 'notacoin' }, 'ticker.base: must be a known asset id'],
    ['uppercase quote', { quote: 'USD' }, `ticker.quote: ${ID_RULE}`],
    ['quote equal to base', { base: 'dogecoin', quote: 'dogecoin' }, 'ticker.quote: must differ from base'],
    ['quote code of the base', { base: 'bitcoin', quote: 'sats' }, 'ticker.quote: must differ from base'],
    ['zero last', { last: 0 }, 'ticker.last: must be a finite number > 0'],
    ['negative last', { last: -1 }, 'ticker.last: must be a finite number > 0'],
    ['NaN last', { last: Number.NaN }, 'ticker.last: must be a finite number > 0'],
    ['infinite last', { last: Infinity }, 'ticker.last: must be a finite number > 0'],
    ['string last', { last: '89.2' }, 'ticker.last: must be a finite number > 0'],
    ['missing bid', { bid: undefined }, 'ticker.bid: must be null or a finite number > 0'],
    ['zero bid', { bid: 0 }, 'ticker.bid: must be null or a finite number > 0'],
    ['negative ask', { ask: -3 }, 'ticker.ask: must be null or a finite number > 0'],
    ['string ask', { ask: '89.3' }, 'ticker.ask: must be null or a finite number > 0'],
    ['crossed book', { bid: 90, ask: 89 }, 'ticker.bid: must be <= ask'],
    ['negative volume', { baseVolume: -1 }, 'ticker.baseVolume: must be a finite number >= 0'],
    ['missing volume', { baseVolume: undefined }, 'ticker.baseVolume: must be a finite number >= 0'],
    ['NaN volume', { baseVolume: Number.NaN }, 'ticker.baseVolume: must be a finite number >= 0'],
    ['fractional ts', { ts: NOW - 0.5 }, 'ticker.ts: must be an integer (UNIX ms)'],
    ['string ts', { ts: String(NOW) }, 'ticker.ts: must be an integer (UNIX ms)'],
    ['ts in seconds', { ts: Math.floor(NOW / 1000) }, 'ticker.ts: must not be before 2009-01-01'],
    ['ts before 2009', { ts: Date.UTC(2008, 11, 31) }, 'ticker.ts: must not be before 2009-01-01'],
    ['ts too far ahead', { ts: NOW + 86_400_001 }, 'ticker.ts: must not be more than 1 day in the future'],
  ])('rejects %s', (_name, patch, reason) => {
    expect(reasonOf({ ...good, ...patch })).toBe(reason);
  });

  it('defaults now to Date.now()', () => {
    expect(validateTicker({ ...good, ts: Date.now() }, KNOWN).ok).toBe(true);
    expect(validateTicker({ ...good, ts: Date.now() + 2 * 86_400_000 }, KNOWN).ok).toBe(false);
  });
});

describe('validateSupply', () => {
  const supply = {
    asset: 'litecoin',
    kind: 'circulating',
    value: 75_800_000,
    source: 'blockbook-ltc',
    sourceKind: 'explorer',
    ts: NOW,
  };
  const reason = (x: unknown): string | null => {
    const r = validateSupply(x, KNOWN, NOW);
    return r.ok ? null : r.reason;
  };

  it('accepts a good record (value 0 included)', () => {
    expect(validateSupply(supply, KNOWN, NOW)).toEqual({ ok: true, value: supply });
    expect(reason({ ...supply, value: 0, source: 'ns:emission-schedule' })).toBeNull();
  });

  it.each<[string, unknown, string]>([
    ['non-object', 42, 'supply: must be an object'],
    ['unknown asset', { ...supply, asset: 'nope' }, 'supply.asset: must be a known asset id'],
    [
      'bad asset',
      { ...supply, asset: 'Lite Coin' },
      'supply.asset: must be a lowercase id of [a-z0-9._-]{1,64}',
    ],
    ['bad kind', { ...supply, kind: 'free-float' }, 'supply.kind: must be one of circulating|total|max'],
    ['negative value', { ...supply, value: -1 }, 'supply.value: must be a finite number >= 0'],
    ['bad source', { ...supply, source: '' }, 'supply.source: must be a lowercase id of [a-z0-9._:-]{1,64}'],
    [
      'bad sourceKind',
      { ...supply, sourceKind: 'guess' },
      'supply.sourceKind: must be one of explorer|emission|issuer|node|aggregator',
    ],
    ['bad ts', { ...supply, ts: null }, 'supply.ts: must be an integer (UNIX ms)'],
  ])('rejects %s', (_name, x, expected) => {
    expect(reason(x)).toBe(expected);
  });
});

describe('validateFx', () => {
  const fx = { currency: 'eur', usdPerUnit: 1.14, ts: NOW, source: 'ecb' };
  const reason = (x: unknown): string | null => {
    const r = validateFx(x, NOW);
    return r.ok ? null : r.reason;
  };

  it('accepts a good rate for fiat and metal currencies', () => {
    expect(validateFx(fx, NOW)).toEqual({ ok: true, value: fx });
    expect(reason({ ...fx, currency: 'xau', usdPerUnit: 3300 })).toBeNull();
  });

  it.each<[string, unknown, string]>([
    ['non-object', 'eur', 'fx: must be an object'],
    ['bad code', { ...fx, currency: 'EUR' }, 'fx.currency: must be a lowercase id of [a-z0-9._-]{1,64}'],
    ['unknown code', { ...fx, currency: 'zzz' }, 'fx.currency: must be a known currency code'],
    ['crypto code', { ...fx, currency: 'btc' }, 'fx.currency: must be a known currency code'],
    ['zero rate', { ...fx, usdPerUnit: 0 }, 'fx.usdPerUnit: must be a finite number > 0'],
    ['bad source', { ...fx, source: 7 }, 'fx.source: must be a lowercase id of [a-z0-9._:-]{1,64}'],
    ['future ts', { ...fx, ts: NOW + 2 * 86_400_000 }, 'fx.ts: must not be more than 1 day in the future'],
  ])('rejects %s', (_name, x, expected) => {
    expect(reason(x)).toBe(expected);
  });

  it('takes an explicit currency set', () => {
    expect(validateFx({ ...fx, currency: 'btc' }, NOW, new Set(['btc'])).ok).toBe(true);
  });
});

describe('RejectCounter', () => {
  it('counts by reason, most frequent first, and keeps the last N examples', () => {
    const c = new RejectCounter(2);
    c.add('ticker.last: must be a finite number > 0', { last: 0 }, 'ccxt', 1);
    c.add('ticker.bid: must be <= ask', { bid: 2, ask: 1 }, 'ccxt', 2);
    c.add('ticker.last: must be a finite number > 0', { last: -1 }, null, 3);
    expect(c.total).toBe(3);
    expect(Object.entries(c.byReason())).toEqual([
      ['ticker.last: must be a finite number > 0', 2],
      ['ticker.bid: must be <= ask', 1],
    ]);
    expect(c.examples()).toEqual([
      { reason: 'ticker.bid: must be <= ask', source: 'ccxt', at: 2, sample: '{"bid":2,"ask":1}' },
      { reason: 'ticker.last: must be a finite number > 0', source: null, at: 3, sample: '{"last":-1}' },
    ]);
    expect(JSON.parse(JSON.stringify(c))).toMatchObject({ total: 3, examples: [{ at: 2 }, { at: 3 }] });
    c.reset();
    expect(c.toJSON()).toEqual({ total: 0, byReason: {}, examples: [] });
  });

  it('truncates long samples and survives values JSON cannot encode', () => {
    const c = new RejectCounter();
    c.add('r', { s: 'x'.repeat(1000) });
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    c.add('r', cyclic);
    c.add('r', undefined);
    expect(c.examples().map((e) => e.sample.length)).toEqual([
      300,
      '[object Object]'.length,
      'undefined'.length,
    ]);
  });
});
