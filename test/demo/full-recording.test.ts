/**
 * One pass over a full 420-day recording of 64 hand-made assets: the noise episodes the engine must survive, the
 * supply properties, and sanity of every ticker.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AssetInfo, CurrencyInfo } from '../../src/catalog/types.ts';
import type { SourceSnapshot, SupplyRecord, Ticker } from '../../src/ingest/types.ts';
import { createDemoModel } from '../../src/demo/model.ts';
import { eventsBetween } from '../../src/demo/paths.ts';
import { generateRecording } from '../../src/demo/recording.ts';
import { quoteUsd, trueUsdPrice } from '../../src/demo/snapshot.ts';
import { OUTLIER_VENUE, STALE_VENUE } from '../../src/demo/venues.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
const END = Date.UTC(2026, 10, 21, 7, 40);

const KIT =
  'litecoin dogecoin digibyte luckycoin pepecoin bellscoin dingocoin shibacoin junkcoin catcoin flopcoin fairbrix craftcoin bbqcoin bonkcoin earthcoin newyorkcoin cyberyen bit-b1t';
const MAJORS =
  'bitcoin ethereum tether ripple binancecoin solana usd-coin tron cardano chainlink bitcoin-cash stellar sui avalanche-2 ' +
  'hedera-hashgraph leo-token shiba-inu the-open-network monero dai polkadot uniswap pepe aave near ethereum-classic ' +
  'aptos internet-computer cosmos arbitrum optimism filecoin kaspa zcash dash wrapped-bitcoin maker tezos';
const UNKNOWN = [
  'demo-token-a',
  'demo-token-b',
  'demo-token-c',
  'demo-token-d',
  'demo-token-e',
  'demo-token-f',
];
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
  ...KIT.split(' ').map((id) => asset(id, id.slice(0, 3).toUpperCase())),
  ...MAJORS.split(' ').map((id) => asset(id)),
  ...UNKNOWN.map((id) => asset(id)),
];
const CURRENCIES: CurrencyInfo[] = [
  { code: 'usd', name: 'US Dollar', kind: 'fiat' },
  { code: 'eur', name: 'Euro', kind: 'fiat' },
  { code: 'xau', name: 'Gold', kind: 'metal' },
];
const OPTS = { seed: 20261121, end: END, days: 420, assets: ASSETS, currencies: CURRENCIES };

interface Stats {
  snapshots: number;
  tickers: number;
  insane: Ticker[];
  /** Lag of tickers more than 15 minutes old, by venue. */
  stale: Map<string, number[]>;
  /** USD price / true price of tickers deviating more than 2 %, by venue. */
  deviant: Map<string, number[]>;
  stableOff: Ticker[];
  venues: Set<string>;
  lastSupply: SupplyRecord[];
}

const push = (m: Map<string, number[]>, k: string, v: number): void => {
  m.set(k, [...(m.get(k) ?? []), v]);
};

let stats: Stats;
beforeAll(() => {
  const model = createDemoModel(OPTS);
  stats = {
    snapshots: 0,
    tickers: 0,
    insane: [],
    stale: new Map(),
    deviant: new Map(),
    stableOff: [],
    venues: new Set(),
    lastSupply: [],
  };
  let prev: SourceSnapshot | null = null;
  for (const s of generateRecording(OPTS)) {
    if (prev && s.ts <= prev.ts) throw new Error('snapshots out of order');
    prev = s;
    stats.snapshots += 1;
    if (s.supply) stats.lastSupply = s.supply as SupplyRecord[];
    for (const t of s.tickers as Ticker[]) {
      stats.tickers += 1;
      stats.venues.add(`${t.venueKind}:${t.venue}`);
      if (!(
        t.last > 0 &&
        Number.isFinite(t.last) &&
        t.baseVolume >= 0 &&
        Number.isFinite(t.baseVolume) &&
        t.ts <= s.ts
      ))
        stats.insane.push(t);
      const lag = s.ts - t.ts;
      if (lag > 15 * MINUTE) push(stats.stale, t.venue, lag);
      const ratio = (t.last * quoteUsd(model, t.quote, t.ts)) / trueUsdPrice(model, t.base, t.ts);
      if (Math.abs(ratio - 1) > 0.02) push(stats.deviant, t.venue, ratio);
      if ((t.base === 'tether' || t.base === 'usd-coin' || t.base === 'dai') && t.venue !== OUTLIER_VENUE) {
        if (Math.abs(t.last * quoteUsd(model, t.quote, t.ts) - 1) > 0.003) stats.stableOff.push(t);
      }
    }
  }
}, 60_000);

describe('full 420-day recording of 64 assets', () => {
  it('has the expected size and only sane tickers', () => {
    expect(stats.snapshots).toBe(325 + 93 * 24 + 2 * 288 + 1);
    expect(stats.tickers).toBeGreaterThan(stats.snapshots * 64 * 2);
    expect(stats.insane).toEqual([]);
    const kinds = [...stats.venues].map((v) => v.split(':')[0]);
    expect(kinds.filter((k) => k === 'cex').length).toBeGreaterThanOrEqual(5);
    expect(kinds.filter((k) => k === 'dex').length).toBeGreaterThanOrEqual(3);
  });

  it('has stale episodes (20–60 min lag) on the stale venue only', () => {
    expect([...stats.stale.keys()]).toEqual([STALE_VENUE]);
    const lags = stats.stale.get(STALE_VENUE) ?? [];
    expect(lags.length).toBeGreaterThan(50);
    for (const lag of lags) {
      expect(lag).toBeGreaterThanOrEqual(20 * MINUTE);
      expect(lag).toBeLessThanOrEqual(61 * MINUTE);
    }
  });

  it('has outlier episodes (×1.3 or ×0.7) on the outlier venue only', () => {
    expect([...stats.deviant.keys()]).toEqual([OUTLIER_VENUE]);
    const ratios = stats.deviant.get(OUTLIER_VENUE) ?? [];
    expect(ratios.some((r) => Math.abs(r - 1.3) < 0.02)).toBe(true);
    expect(ratios.some((r) => Math.abs(r - 0.7) < 0.02)).toBe(true);
    expect(ratios.every((r) => Math.abs(r - 1.3) < 0.02 || Math.abs(r - 0.7) < 0.02)).toBe(true);
  });

  it('keeps stablecoin tickers within ±0.3 % of 1 outside outlier episodes', () => {
    expect(stats.stableOff).toEqual([]);
  });

  it('has the required supply properties', () => {
    const circSources = new Map<string, number[]>();
    const maxOf = new Map<string, SupplyRecord>();
    for (const r of stats.lastSupply) {
      if (r.kind === 'circulating') circSources.set(r.asset, [...(circSources.get(r.asset) ?? []), r.value]);
      if (r.kind === 'max') maxOf.set(r.asset, r);
    }
    expect(circSources.size).toBe(ASSETS.length);
    const single = [...circSources.values()].filter((v) => v.length === 1);
    const disagree = [...circSources.values()].filter(
      (v) => v.length >= 2 && Math.max(...v) / Math.min(...v) > 1.05,
    );
    const agree = [...circSources.values()].filter(
      (v) => v.length >= 2 && Math.max(...v) / Math.min(...v) < 1.01,
    );
    expect(single.length).toBeGreaterThanOrEqual(5);
    expect(disagree.length).toBeGreaterThanOrEqual(3);
    expect(agree.length).toBeGreaterThan(40);
    const noMax = ASSETS.filter((a) => (maxOf.get(a.id)?.value ?? 0) === 0);
    expect(noMax.length).toBeGreaterThanOrEqual(8);
    expect(maxOf.get('dogecoin')).toMatchObject({ value: 0, sourceKind: 'emission' });
    expect(maxOf.get('ethereum')).toBeUndefined();
    expect(maxOf.get('bitcoin')?.value).toBe(21e6);
    const btc = circSources.get('bitcoin') ?? [];
    expect(btc.every((v) => v > 19.5e6 && v <= 21e6)).toBe(true);
  });

  it('has volume surges for trending to find', () => {
    const model = createDemoModel(OPTS);
    const events = [...model.byId.values()].flatMap((m) => eventsBetween(m, END - 420 * DAY, END));
    expect(events.length).toBeGreaterThan(64 * 5);
    expect(events.every((e) => e.surge >= 3 && e.surge <= 10)).toBe(true);
    expect(events.filter((e) => Math.abs(e.jump) >= 0.08).length).toBeGreaterThan(events.length / 3);
  });
});
