/**
 * `Query.marketHealth` of the markets subgraph, executed in process over a real `MarketService` fed by hand: two live
 * sources (one of them sending malformed records, then going quiet), a failing one, and coins with one, two
 * agreeing or no supply sources. Checks the figures against what `/healthz` and the snapshot say.
 */
import { createRequire } from 'node:module';
import type * as GraphQL from 'graphql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AssetInfo, CurrencyInfo } from '../../src/catalog/types.ts';
import type { EngineConfig } from '../../src/engine/snapshot.ts';
import type { SourceSnapshot, Ticker } from '../../src/ingest/types.ts';
import { MarketService } from '../../src/market/service.ts';
import type { Db } from '../../src/store/db.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { bandOf, CONFIDENCE_BANDS } from '../../subgraphs/markets/health.ts';
import { createMarketsSubgraph } from '../../subgraphs/markets/index.ts';

// The CommonJS graphql, the instance @apollo/subgraph builds the schema with (see markets.test.ts).
const { graphql } = createRequire(import.meta.url)('graphql') as typeof GraphQL;

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const MIN = 60_000;
const asset = (id: string, symbol: string): AssetInfo => ({
  id,
  symbol,
  name: id[0]?.toUpperCase() + id.slice(1),
  hashingAlgorithm: null,
  blockTimeMinutes: null,
  genesisDate: null,
  homepage: null,
});
const CURRENCIES: CurrencyInfo[] = [{ code: 'usd', name: 'US Dollar', kind: 'fiat' }];
const ENGINE: EngineConfig = {
  assets: [
    asset('bitcoin', 'btc'),
    asset('litecoin', 'ltc'),
    asset('dogecoin', 'doge'),
    asset('tether', 'usdt'),
    asset('quietcoin', 'qc'),
  ],
  currencies: CURRENCIES,
  categories: [],
  quoteAssets: new Map([['usdt', { id: 'tether', scale: 1 }]]),
};

function t(venue: string, base: string, last: number, ts: number, quote = 'usd'): Ticker {
  return { venue, venueKind: 'cex', base, quote, last, bid: null, ask: null, baseVolume: 100, ts };
}

/** Source `alpha`: three venues for bitcoin, two for litecoin and tether, one for dogecoin; supplies. */
function alpha(ts: number, extra: unknown[] = []): SourceSnapshot {
  return {
    source: 'alpha',
    ts,
    tickers: [
      t('a', 'bitcoin', 90_000, ts),
      t('b', 'bitcoin', 90_050, ts),
      t('c', 'bitcoin', 90_100, ts),
      t('a', 'litecoin', 90, ts),
      t('b', 'litecoin', 91, ts),
      t('a', 'tether', 1, ts),
      t('b', 'tether', 1.001, ts),
      t('a', 'dogecoin', 0.15, ts),
      ...extra,
    ],
    supply: [
      // Two agreeing sources: verified. Litecoin has one only; dogecoin and tether none.
      { asset: 'bitcoin', kind: 'circulating', value: 19.9e6, source: 'x1', sourceKind: 'explorer', ts },
      { asset: 'bitcoin', kind: 'circulating', value: 19.91e6, source: 'x2', sourceKind: 'node', ts },
      { asset: 'litecoin', kind: 'circulating', value: 75e6, source: 'x1', sourceKind: 'explorer', ts },
    ],
  };
}

/** Source `beta`: bitcoin only, plus malformed records. */
function beta(ts: number, bad: number): SourceSnapshot {
  const junk = Array.from({ length: bad }, (_, i) => ({ venue: 'z', base: 'bitcoin', last: -i }));
  return { source: 'beta', ts, tickers: [t('d', 'bitcoin', 90_020, ts), ...junk] };
}

const ok = (s: SourceSnapshot) => ({ source: s.source, snapshot: s, error: null, ms: 3 });
const failed = (source: string) => ({ source, snapshot: null, error: 'timeout', ms: 10_000 });

interface Health {
  marketHealth: {
    computedAt: string | null;
    sources: {
      name: string;
      kind: string | null;
      lastError: string | null;
      failures: number;
      lastSeen: string | null;
      ageSeconds: number | null;
      fresh: boolean;
      rejected: number;
    }[];
    unverifiedSupply: { id: string; symbol: string; name: string }[];
    confidence: { from: number; to: number; coins: number }[];
  };
}

const QUERY = `{
  marketHealth {
    computedAt
    sources { name kind lastError failures lastSeen ageSeconds fresh rejected }
    unverifiedSupply { id symbol name }
    confidence { from to coins }
  }
}`;

describe('Query.marketHealth', () => {
  let db: Db;
  let clock: number;
  let market: MarketService;

  beforeEach(async () => {
    db = await openMemoryDb();
    clock = NOW;
    market = new MarketService({ db, engine: ENGINE, now: () => clock });
  });
  afterEach(async () => {
    await db.close();
  });

  async function health(): Promise<Health['marketHealth']> {
    const sg = createMarketsSubgraph({ market, engine: ENGINE, now: () => clock });
    const r = await graphql({ schema: sg.schema, source: QUERY, contextValue: sg.contextFor() });
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    return (r.data as unknown as Health).marketHealth;
  }

  it('answers before the first aggregation: no snapshot, no sources, empty bands', async () => {
    const h = await health();
    expect(h.computedAt).toBeNull();
    expect(h.sources).toEqual([]);
    expect(h.unverifiedSupply).toEqual([]);
    expect(h.confidence).toEqual(CONFIDENCE_BANDS.map(([from, to]) => ({ from, to, coins: 0 })));
  });

  it('reports each source with its newest record, age, freshness and rejects, as /healthz does', async () => {
    // The subgraph exists before any data arrives (as in the product), so every reject is counted.
    const sg = createMarketsSubgraph({ market, engine: ENGINE, now: () => clock });
    await market.ingest([ok(alpha(NOW - 30_000)), ok(beta(NOW - 40_000, 3)), failed('gamma')]);
    clock = NOW + 10 * MIN;
    // beta goes quiet; alpha keeps delivering.
    await market.ingest([ok(alpha(NOW + 10 * MIN - 5_000)), failed('beta')]);
    clock = NOW + 20 * MIN;
    const r = await graphql({ schema: sg.schema, source: QUERY, contextValue: sg.contextFor() });
    expect(r.errors).toBeUndefined();
    const h = (r.data as unknown as Health).marketHealth;

    expect(h.sources.map((s) => s.name)).toEqual(['alpha', 'beta', 'gamma']);
    const [a, b, g] = h.sources;
    expect(a).toEqual({
      name: 'alpha',
      kind: null, // not a configured source of this service: only seen in ingested data
      lastError: null,
      failures: 0,
      lastSeen: new Date(NOW + 10 * MIN - 5_000).toISOString(),
      ageSeconds: 10 * 60 + 5,
      fresh: true,
      rejected: 0,
    });
    // 20 minutes 40 seconds old: past the 15-minute threshold.
    expect(b).toEqual({
      name: 'beta',
      kind: null,
      lastError: 'timeout',
      failures: 1,
      lastSeen: new Date(NOW - 40_000).toISOString(),
      ageSeconds: 20 * 60 + 40,
      fresh: false,
      rejected: 3,
    });
    // Never delivered.
    expect(g).toEqual({
      name: 'gamma',
      kind: null,
      lastError: 'timeout',
      failures: 1,
      lastSeen: null,
      ageSeconds: null,
      fresh: false,
      rejected: 0,
    });

    // The same sources and the same reject total as the service (what /healthz serializes).
    expect(h.sources.map((s) => s.name)).toEqual([...market.sources.keys()].sort());
    for (const s of h.sources) {
      const ts = market.sources.get(s.name)?.lastSnapshotTs ?? null;
      expect(s.lastSeen).toBe(ts === null ? null : new Date(ts).toISOString());
    }
    expect(h.sources.reduce((n, s) => n + s.rejected, 0)).toBe(market.rejects.total);
    expect(h.computedAt).toBe(new Date(market.snapshot?.computedAt ?? 0).toISOString());
  });

  it('lists the coins whose supply is unverified, in rank order, and only those', async () => {
    await market.ingest([ok(alpha(NOW - 30_000))]);
    const h = await health();
    const snap = market.snapshot;
    if (!snap) throw new Error('no snapshot');
    const expected = [...snap.markets.values()].filter((m) => !m.supply.verified).map((m) => m.id);
    expect(h.unverifiedSupply.map((c) => c.id).sort()).toEqual(expected.sort());
    // Bitcoin (two agreeing sources) is verified; litecoin (one source), dogecoin, tether and quietcoin are not.
    expect(h.unverifiedSupply.map((c) => c.id)).not.toContain('bitcoin');
    expect(h.unverifiedSupply.map((c) => c.id)).toEqual(
      expect.arrayContaining(['litecoin', 'dogecoin', 'tether', 'quietcoin']),
    );
    expect(h.unverifiedSupply.find((c) => c.id === 'litecoin')).toEqual({
      id: 'litecoin',
      symbol: 'ltc',
      name: 'Litecoin',
    });
    // In the snapshot's rank order.
    const order = snap.ranked.map((m) => m.id).filter((id) => expected.includes(id));
    expect(h.unverifiedSupply.map((c) => c.id).slice(0, order.length)).toEqual(order);
  });

  it('spreads the priced coins over the confidence bands: the bands sum to the priced coins', async () => {
    await market.ingest([ok(alpha(NOW - 30_000)), ok(beta(NOW - 20_000, 0))]);
    const h = await health();
    const snap = market.snapshot;
    if (!snap) throw new Error('no snapshot');
    const priced = [...snap.markets.values()].filter((m) => m.price.priceUsd !== null);
    expect(priced.length).toBe(4); // quietcoin has no ticker
    expect(h.confidence.map((c) => [c.from, c.to])).toEqual(CONFIDENCE_BANDS);
    expect(h.confidence.reduce((n, c) => n + c.coins, 0)).toBe(priced.length);
    // Each coin in the band its own confidence says.
    const want = CONFIDENCE_BANDS.map(() => 0);
    for (const m of priced) want[bandOf(m.price.confidence ?? 0)]! += 1;
    expect(h.confidence.map((c) => c.coins)).toEqual(want);
    // More venues, more confidence: bitcoin is not in a lower band than dogecoin (one venue).
    const conf = (id: string) => bandOf(snap.markets.get(id)?.price.confidence ?? 0);
    expect(conf('bitcoin')).toBeGreaterThanOrEqual(conf('dogecoin'));
  });
});

describe('confidence bands', () => {
  it('puts each confidence in exactly one band, 1 in the last', () => {
    expect([0, 0.19, 0.2, 0.5, 0.79, 0.8, 0.999, 1].map(bandOf)).toEqual([0, 0, 1, 2, 3, 4, 4, 4]);
    expect(bandOf(-0.1)).toBe(0);
    expect(bandOf(1.5)).toBe(4);
  });
});
