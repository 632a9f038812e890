/**
 * The mining calculator's arithmetic (src/web/widgets/mining/calc.ts) against an independent reference: the same
 * formulas evaluated in exact rational arithmetic (BigInt numerator/denominator over the decimal inputs), then
 * rounded once to a double (mining-reference.ts). Hand-checked cases carry their exact expected numbers too. Also the widget's pure helpers:
 * number parsing, formats, the `coin` attribute and the platform origin.
 */
import { describe, expect, it } from 'vitest';
import type { MinerInputs, NetworkFigures } from '../../src/web/widgets/mining/calc.ts';
import { calculate, HASHRATE_UNITS, parseAmount, validateInputs } from '../../src/web/widgets/mining/calc.ts';
import {
  formatBlockTime,
  formatCoins,
  formatHashrate,
  formatMoney,
  formatTime,
} from '../../src/web/widgets/mining/format.ts';
import { originOfScript, platformBase, resolveCoin } from '../../src/web/widgets/mining/api.ts';
import type { RefCase } from './mining-reference.ts';
import {
  DOGE_LIKE,
  estimateOf,
  expectNear,
  inputsOf,
  LTC_LIKE,
  networkOf,
  reference,
} from './mining-reference.ts';

describe('calculate: the reference', () => {
  it('a Litecoin-like network: the exact figures', () => {
    const e = estimateOf(LTC_LIKE);
    // 9.5e9 / 1.5e15 × 576 blocks × 6.25 LTC × 0.99 = 0.022572 LTC a day, at 90 → 2.03148; 3.425 kW × 24 h × 0.08.
    const exact = {
      coinsPerDay: 0.022572,
      coinsPerMonth: 0.67716,
      revenuePerDay: 2.03148,
      revenuePerMonth: 60.9444,
      electricityPerDay: 6.576,
      electricityPerMonth: 197.28,
      profitPerDay: -4.54452,
      profitPerMonth: -136.3356,
    };
    expect(reference(LTC_LIKE)).toEqual(exact);
    for (const [k, v] of Object.entries(exact)) expectNear(e[k as keyof typeof exact], v, k);
    expect(e.hashrateHs).toBe(9.5e9);
    expectNear(e.share, 9.5e9 / 1.5e15, 'share');
    expect(e.missing).toEqual([]);
  });

  it('a Dogecoin-like network: the exact figures', () => {
    const e = estimateOf(DOGE_LIKE);
    // 5e8 / 2e15 = 2.5e-7 of 1,440 blocks × 10,000 DOGE × 0.98 = 3.528 DOGE a day.
    const exact = {
      coinsPerDay: 3.528,
      coinsPerMonth: 105.84,
      revenuePerDay: 0.5292,
      revenuePerMonth: 15.876,
      electricityPerDay: 2.592,
      electricityPerMonth: 77.76,
      profitPerDay: -2.0628,
      profitPerMonth: -61.884,
    };
    expect(reference(DOGE_LIKE)).toEqual(exact);
    for (const [k, v] of Object.entries(exact)) expectNear(e[k as keyof typeof exact], v, k);
  });

  it('agrees with the reference over awkward values (seeded sweep)', () => {
    // A small deterministic generator of decimal strings: digits that floats cannot hold exactly.
    let s = 12345;
    const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const d = (lo: number, hi: number, places: number) => (lo + (hi - lo) * next()).toFixed(places);
    for (let i = 0; i < 200; i++) {
      const c: RefCase = {
        hashrate: d(0.001, 999, 3),
        unit: HASHRATE_UNITS[Math.floor(next() * HASHRATE_UNITS.length)]!.unit,
        power: d(0, 5000, 1),
        electricity: d(0, 0.5, 4),
        fee: d(0, 5, 2),
        networkHashrate: `${d(1, 9.99, 4)}e${8 + Math.floor(next() * 9)}`,
        blockTime: String([30, 60, 75, 90, 120, 150, 600][Math.floor(next() * 7)]),
        reward: d(0.01, 50000, 3),
        price: d(0.000001, 100, 6),
      };
      const e = estimateOf(c);
      const ref = reference(c);
      for (const [k, v] of Object.entries(ref)) {
        const a = e[k as keyof typeof ref] as number;
        // Profit is a difference: bound its error by the size of its terms, not by the (possibly tiny) result.
        const scale = k.startsWith('profit')
          ? Math.abs(ref.revenuePerDay) + Math.abs(ref.electricityPerDay)
          : Math.abs(v);
        expect(Math.abs(a - v), `${k} of ${JSON.stringify(c)}`).toBeLessThanOrEqual(
          scale * 30 * 1e-14 + 1e-300,
        );
      }
    }
  });
});

describe('calculate: units', () => {
  it('each unit is its power of 1,000 in H/s', () => {
    expect(HASHRATE_UNITS.map((u) => [u.unit, u.factor])).toEqual([
      ['H/s', 1],
      ['kH/s', 1e3],
      ['MH/s', 1e6],
      ['GH/s', 1e9],
      ['TH/s', 1e12],
    ]);
  });

  it('the same hashrate in different units gives the same estimate', () => {
    const a = estimateOf({ ...LTC_LIKE, hashrate: '9500', unit: 'MH/s' });
    const b = estimateOf({ ...LTC_LIKE, hashrate: '9.5', unit: 'GH/s' });
    const c = estimateOf({ ...LTC_LIKE, hashrate: '0.0095', unit: 'TH/s' });
    const d = estimateOf({ ...LTC_LIKE, hashrate: '9500000', unit: 'kH/s' });
    const h = estimateOf({ ...LTC_LIKE, hashrate: '9500000000', unit: 'H/s' });
    for (const x of [a, c, d, h]) expectNear(x.coinsPerDay, b.coinsPerDay as number, 'coinsPerDay');
  });

  it('an unknown unit is an input error', () => {
    const r = calculate({ ...inputsOf(LTC_LIKE), unit: 'PH/s' as MinerInputs['unit'] }, networkOf(LTC_LIKE));
    expect(r).toEqual({ ok: false, errors: [{ field: 'unit', message: expect.stringContaining('GH/s') }] });
  });
});

describe('calculate: unknown network figures', () => {
  const run = (network: Partial<NetworkFigures>) => {
    const r = calculate(inputsOf(LTC_LIKE), { ...networkOf(LTC_LIKE), ...network });
    if (!r.ok) throw new Error('input errors');
    return r.estimate;
  };

  it('no network hashrate: no coins, revenue or profit; electricity still', () => {
    const e = run({ networkHashrate: null });
    expect(e.missing).toEqual(['networkHashrate']);
    expect([
      e.share,
      e.coinsPerDay,
      e.coinsPerMonth,
      e.revenuePerDay,
      e.profitPerDay,
      e.profitPerMonth,
    ]).toEqual([null, null, null, null, null, null]);
    expectNear(e.electricityPerDay, 6.576, 'electricity');
  });

  it('no block time or no reward: no coins', () => {
    expect(run({ blockTimeSeconds: null }).coinsPerDay).toBeNull();
    expect(run({ blockTimeSeconds: null }).missing).toEqual(['blockTimeSeconds']);
    expect(run({ blockReward: null }).coinsPerDay).toBeNull();
    expect(run({ blockReward: null, networkHashrate: null }).missing).toEqual([
      'networkHashrate',
      'blockReward',
    ]);
  });

  it('no price: coins yes, revenue and profit no', () => {
    const e = run({ price: null });
    expect(e.missing).toEqual(['price']);
    expectNear(e.coinsPerDay, 0.022572, 'coins');
    expect([e.revenuePerDay, e.revenuePerMonth, e.profitPerDay, e.profitPerMonth]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('unusable figures count as unknown: zero or negative hashrate and block time, NaN, infinity', () => {
    expect(run({ networkHashrate: 0 }).missing).toEqual(['networkHashrate']);
    expect(run({ networkHashrate: -5 }).missing).toEqual(['networkHashrate']);
    expect(run({ blockTimeSeconds: 0 }).missing).toEqual(['blockTimeSeconds']);
    expect(run({ blockReward: Number.NaN }).missing).toEqual(['blockReward']);
    expect(run({ price: Number.POSITIVE_INFINITY }).missing).toEqual(['price']);
    expect(run({ price: -1 }).missing).toEqual(['price']);
  });

  it('a zero reward or price is known: zero coins or zero revenue', () => {
    expect(run({ blockReward: 0 }).coinsPerDay).toBe(0);
    const e = run({ price: 0 });
    expect(e.revenuePerDay).toBe(0);
    expectNear(e.profitPerDay, -6.576, 'profit');
  });
});

describe('calculate: inputs and edge cases', () => {
  it('zero hashrate: no coins, the electricity is the loss', () => {
    const e = estimateOf({ ...LTC_LIKE, hashrate: '0' });
    expect(e.coinsPerDay).toBe(0);
    expectNear(e.profitPerDay, -6.576, 'profit');
  });

  it('a 100 % fee keeps nothing; no power costs nothing', () => {
    expect(estimateOf({ ...LTC_LIKE, fee: '100' }).coinsPerDay).toBe(0);
    const e = estimateOf({ ...LTC_LIKE, power: '0' });
    expect(e.electricityPerDay).toBe(0);
    expectNear(e.profitPerDay, 2.03148, 'profit = revenue');
  });

  it('a hashrate above the network is extrapolated as the formula says (share > 1)', () => {
    const e = estimateOf({ ...LTC_LIKE, hashrate: '3', unit: 'TH/s', networkHashrate: '1.5e12' });
    expect(e.share).toBe(2);
    expectNear(e.coinsPerDay, 2 * 576 * 6.25 * 0.99, 'coins');
  });

  it('reports every unusable input, one per field', () => {
    const errors = validateInputs({
      hashrate: -1,
      unit: 'GH/s',
      powerWatts: Number.NaN,
      electricityPerKwh: Number.POSITIVE_INFINITY,
      poolFeePercent: 101,
    });
    expect(errors.map((e) => e.field)).toEqual([
      'hashrate',
      'powerWatts',
      'electricityPerKwh',
      'poolFeePercent',
    ]);
    expect(validateInputs({ ...inputsOf(LTC_LIKE), poolFeePercent: -0.5 }).map((e) => e.field)).toEqual([
      'poolFeePercent',
    ]);
    expect(validateInputs(inputsOf(LTC_LIKE))).toEqual([]);
  });

  it('parses what people type', () => {
    expect(parseAmount('')).toBeNull();
    expect(parseAmount('   ')).toBeNull();
    expect(parseAmount('9.5')).toBe(9.5);
    expect(parseAmount(' 9,5 ')).toBe(9.5);
    expect(parseAmount('.5')).toBe(0.5);
    expect(parseAmount('1e3')).toBe(1000);
    expect(parseAmount('+2')).toBe(2);
    expect(parseAmount('-2')).toBeNaN();
    expect(parseAmount('12abc')).toBeNaN();
    expect(parseAmount('1.2.3')).toBeNaN();
  });
});

describe('formats', () => {
  it('writes figures for people', () => {
    expect(formatCoins(0.022572, 'en-US')).toBe('0.022572');
    expect(formatCoins(12345.678, 'en-US')).toBe('12,345.68');
    expect(formatCoins(null, 'en-US')).toBe('—');
    expect(formatMoney(2.03148, 'usd', 'en-US')).toBe('$2.03');
    expect(formatMoney(-4.54452, 'usd', 'en-US')).toBe('-$4.54');
    expect(formatMoney(0.0012345, 'eur', 'en-US')).toBe('€0.001235');
    expect(formatMoney(1234, 'sats', 'en-US')).toBe('1,234.00 SATS');
    expect(formatMoney(null, 'usd', 'en-US')).toBe('—');
    expect(formatHashrate(1.5e15, 'en-US')).toBe('1.50 PH/s');
    expect(formatHashrate(831e9, 'en-US')).toBe('831 GH/s');
    expect(formatBlockTime(60, 'en-US')).toBe('60 s');
    expect(formatBlockTime(150, 'en-US')).toBe('2.5 min');
    expect(formatTime(Date.UTC(2026, 10, 21, 12, 0))).toBe('2026-11-21 12:00 UTC');
    expect(formatTime('2026-11-21T12:00:00.000Z')).toBe('2026-11-21 12:00 UTC');
    expect(formatTime(null)).toBe('unknown');
  });
});

describe('the coin attribute and the platform origin', () => {
  it('takes a kit ticker in any case or a coin id', () => {
    expect(resolveCoin('LKY')).toEqual({ id: 'luckycoin', ticker: 'LKY' });
    expect(resolveCoin(' lky ')).toEqual({ id: 'luckycoin', ticker: 'LKY' });
    expect(resolveCoin('luckycoin')).toEqual({ id: 'luckycoin', ticker: 'LKY' });
    expect(resolveCoin('bitcoin')).toEqual({ id: 'bitcoin', ticker: null });
    expect(resolveCoin('Not a coin!')).toBeNull();
    expect(resolveCoin('')).toBeNull();
    expect(resolveCoin(null)).toBeNull();
  });

  it('calls the origin the script came from unless `api` says otherwise', () => {
    expect(originOfScript('https://api.example.com:8443/widgets/mining-calculator.js?v=1')).toBe(
      'https://api.example.com:8443',
    );
    expect(originOfScript('data:text/javascript,1')).toBeNull();
    expect(originOfScript(undefined)).toBeNull();
    expect(platformBase(null, 'https://api.example.com', 'https://site.example')).toBe(
      'https://api.example.com',
    );
    expect(
      platformBase('https://other.example/base/', 'https://api.example.com', 'https://site.example'),
    ).toBe('https://other.example/base');
    expect(platformBase('javascript:alert(1)', 'https://api.example.com', 'https://site.example')).toBe(
      'https://api.example.com',
    );
    expect(platformBase(null, null, 'https://site.example')).toBe('https://site.example');
  });
});
