import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AssetInfo, CurrencyInfo } from '../../src/catalog/types.ts';
import type { FxRate, SourceSnapshot, Ticker } from '../../src/ingest/types.ts';
import { createDemoModel } from '../../src/demo/model.ts';
import { ANCHOR_MS } from '../../src/demo/paths.ts';
import { alignEnd, carriesSupply, generateRecording, snapshotTimes } from '../../src/demo/recording.ts';
import { DEMO_SOURCE, trueUsdPrice } from '../../src/demo/snapshot.ts';
import { DEMO_VENUES } from '../../src/demo/venues.ts';

const MIN5 = 300_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const END = Date.UTC(2026, 10, 21, 7, 40);

const asset = (id: string, kitTicker?: string): AssetInfo => ({
  id,
  symbol: id.slice(0, 4),
  name: id,
  hashingAlgorithm: null,
  blockTimeMinutes: null,
  genesisDate: null,
  homepage: null,
  ...(kitTicker === undefined ? {} : { kitTicker }),
});
const ASSETS: AssetInfo[] = [
  ...['bitcoin', 'ethereum', 'tether', 'usd-coin', 'dai', 'solana', 'wrapped-bitcoin', 'demo-token-x'].map(
    (id) => asset(id),
  ),
  asset('litecoin', 'LTC'),
  asset('dogecoin', 'DOGE'),
  asset('pepecoin', 'PEP'),
  asset('luckycoin', 'LKY'),
  asset('some-kit-coin', 'SKC'),
];
const CURRENCIES: CurrencyInfo[] = [
  { code: 'usd', name: 'US Dollar', kind: 'fiat' },
  { code: 'eur', name: 'Euro', kind: 'fiat' },
  { code: 'jpy', name: 'Yen', kind: 'fiat' },
  { code: 'zzz', name: 'Unknown fiat', kind: 'fiat' },
  { code: 'xau', name: 'Gold', kind: 'metal' },
  { code: 'btc', name: 'Bitcoin', kind: 'crypto', asset: { id: 'bitcoin', scale: 1 } },
  { code: 'sats', name: 'Satoshi', kind: 'unit', asset: { id: 'bitcoin', scale: 1e-8 } },
];
const inputs = (seed: number, days: number) => ({
  seed,
  end: END,
  days,
  assets: ASSETS,
  currencies: CURRENCIES,
});

function digest(snaps: Iterable<SourceSnapshot>): string {
  const h = createHash('sha256');
  for (const s of snaps) h.update(JSON.stringify(s) + '\n');
  return h.digest('hex');
}

describe('snapshot cadence', () => {
  it('is daily, then hourly for 95 days, then 5-minutely for 2 days, ending at end', () => {
    const times = snapshotTimes(END, 420);
    expect(times).toHaveLength(325 + 93 * 24 + 2 * 288 + 1);
    expect(times[0]).toBe(END - 420 * DAY);
    expect(times.at(-1)).toBe(END);
    for (let i = 1; i < times.length; i++) {
      const t = times[i] as number;
      const step = t - (times[i - 1] as number);
      expect(step).toBe(t <= END - 95 * DAY ? DAY : t <= END - 2 * DAY ? HOUR : MIN5);
    }
  });

  it('rounds end down to 5 minutes and handles short spans', () => {
    expect(alignEnd(END + 299_999)).toBe(END);
    expect(snapshotTimes(END + 123_456, 0)).toEqual([END]);
    expect(snapshotTimes(END, 1)).toHaveLength(289);
  });

  it('yields snapshots in that order, with supply and fx once per day and in the last one', () => {
    const snaps = [...generateRecording(inputs(1, 3))];
    expect(snaps.map((s) => s.ts)).toEqual(snapshotTimes(END, 3));
    const withSupply = snaps.filter((s) => s.supply !== undefined);
    expect(withSupply.map((s) => s.ts)).toEqual([END - 3 * DAY, END - 2 * DAY, END - DAY, END]);
    expect(snaps.filter((s) => s.fx !== undefined)).toHaveLength(4);
    expect(
      snaps.every((s) => s.source === DEMO_SOURCE && carriesSupply(END, s.ts) === (s.supply !== undefined)),
    ).toBe(true);
  });
});

describe('determinism', () => {
  it('gives identical bytes for the same options and different bytes for another seed', () => {
    const a = digest(generateRecording(inputs(7, 3)));
    expect(digest(generateRecording(inputs(7, 3)))).toBe(a);
    expect(digest(generateRecording(inputs(8, 3)))).not.toBe(a);
  });
});

describe('tickers', () => {
  const snaps = [...generateRecording(inputs(3, 3))];
  const last = snaps.at(-1) as SourceSnapshot;
  const tickers = last.tickers as Ticker[];

  it('pass basic sanity checks', () => {
    const bad: Ticker[] = [];
    for (const s of snaps) {
      for (const t of s.tickers as Ticker[]) {
        const spread =
          t.venueKind === 'cex'
            ? t.bid !== null && t.ask !== null && t.bid < t.last && t.last < t.ask
            : t.bid === null && t.ask === null;
        const ok =
          Number.isFinite(t.last) &&
          t.last > 0 &&
          Number.isFinite(t.baseVolume) &&
          t.baseVolume >= 0 &&
          Number.isSafeInteger(t.ts) &&
          t.ts <= s.ts &&
          t.ts > s.ts - 2 * HOUR &&
          t.quote !== t.base &&
          spread;
        if (!ok) bad.push(t);
      }
    }
    expect(bad).toEqual([]);
    expect(snaps.reduce((n, s) => n + s.tickers.length, 0)).toBeGreaterThan(snaps.length * ASSETS.length * 2);
  });

  it('come from at least 5 CEX and 3 DEX demo venues, none named like a real exchange', () => {
    expect(DEMO_VENUES.filter((v) => v.kind === 'cex').length).toBeGreaterThanOrEqual(5);
    expect(DEMO_VENUES.filter((v) => v.kind === 'dex').length).toBeGreaterThanOrEqual(3);
    for (const v of DEMO_VENUES) expect(v.id).toMatch(new RegExp(`^demo-${v.kind}-`));
    const used = new Set(tickers.map((t) => t.venue));
    expect(used.size).toBeGreaterThanOrEqual(6);
    expect(new Set(tickers.map((t) => t.venueKind))).toEqual(new Set(['cex', 'dex']));
  });

  it('list each asset on 2–8 venues, kit coins on 2–3, pepecoin only on DEXes in DOGE/LTC', () => {
    for (const a of ASSETS) {
      const mine = tickers.filter((t) => t.base === a.id);
      expect(new Set(mine.map((t) => t.venue)).size).toBe(mine.length);
      expect(mine.length).toBeGreaterThanOrEqual(2);
      expect(mine.length).toBeLessThanOrEqual(
        a.kitTicker && a.id !== 'litecoin' && a.id !== 'dogecoin' ? 3 : 8,
      );
    }
    const pep = tickers.filter((t) => t.base === 'pepecoin');
    expect(pep.every((t) => t.venueKind === 'dex' && (t.quote === 'doge' || t.quote === 'ltc'))).toBe(true);
    expect(new Set(tickers.map((t) => t.quote))).toEqual(
      new Set(['usd', 'usdt', 'eur', 'btc', 'doge', 'ltc']),
    );
  });

  it('price the majors at realistic magnitudes', () => {
    const model = createDemoModel(inputs(3, 3));
    const p = (id: string): number => trueUsdPrice(model, id, ANCHOR_MS);
    expect(p('bitcoin')).toBeCloseTo(90_000, 6);
    expect(p('ethereum')).toBeCloseTo(3_000, 6);
    expect(p('litecoin')).toBeCloseTo(90, 6);
    expect(p('dogecoin')).toBeCloseTo(0.15, 9);
    expect(p('luckycoin')).toBeLessThan(1);
    expect(trueUsdPrice(model, 'wrapped-bitcoin', END) / trueUsdPrice(model, 'bitcoin', END)).toBeCloseTo(
      1,
      2,
    );
    const btc = tickers.find((t) => t.base === 'bitcoin' && t.quote === 'usd') as Ticker;
    expect(btc.last / trueUsdPrice(model, 'bitcoin', btc.ts)).toBeCloseTo(1, 1);
  });
});

describe('stablecoins', () => {
  it('stay within ±0.3 % of 1 over 420 days', () => {
    const model = createDemoModel(inputs(5, 420));
    for (const id of ['tether', 'usd-coin', 'dai']) {
      for (let t = END - 420 * DAY; t <= END; t += HOUR) {
        expect(Math.abs(trueUsdPrice(model, id, t) - 1)).toBeLessThan(0.003);
      }
    }
  });
});

describe('fx', () => {
  it('rates every fiat and metal currency daily with realistic levels, and no crypto or unit', () => {
    const last = [...generateRecording(inputs(2, 1))].at(-1) as SourceSnapshot;
    const fx = new Map((last.fx as FxRate[]).map((r) => [r.currency, r]));
    expect([...fx.keys()].sort()).toEqual(['eur', 'jpy', 'usd', 'xau', 'zzz']);
    expect(fx.get('usd')?.usdPerUnit).toBe(1);
    expect(fx.get('eur')?.usdPerUnit).toBeGreaterThan(0.9);
    expect(fx.get('eur')?.usdPerUnit).toBeLessThan(1.3);
    expect(fx.get('jpy')?.usdPerUnit).toBeGreaterThan(0.005);
    expect(fx.get('jpy')?.usdPerUnit).toBeLessThan(0.009);
    expect(fx.get('xau')?.usdPerUnit).toBeGreaterThan(1800);
    expect(fx.get('xau')?.usdPerUnit).toBeLessThan(3200);
    expect(fx.get('zzz')?.usdPerUnit).toBeGreaterThan(0);
    expect([...fx.values()].every((r) => r.source === 'demo-fx' && r.ts === END)).toBe(true);
  });
});
