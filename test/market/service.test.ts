import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AssetInfo, CurrencyInfo } from '../../src/catalog/types.ts';
import type { EngineConfig } from '../../src/engine/snapshot.ts';
import { pollAll } from '../../src/ingest/pipeline.ts';
import type { SourceSnapshot, Ticker, TickerSource } from '../../src/ingest/types.ts';
import { MarketService } from '../../src/market/service.ts';
import { readBarsMany, saveBars } from '../../src/store/bars.ts';
import type { Db } from '../../src/store/db.ts';
import { loadTickers } from '../../src/store/inputs.ts';
import { saveMiningFigures } from '../../src/store/mining.ts';
import { openMemoryDb } from '../support/memory-db.ts';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const asset = (id: string, symbol: string): AssetInfo => ({
  id,
  symbol,
  name: id,
  hashingAlgorithm: null,
  blockTimeMinutes: null,
  genesisDate: null,
  homepage: null,
});
const CURRENCIES: CurrencyInfo[] = [
  { code: 'usd', name: 'US Dollar', kind: 'fiat' },
  { code: 'eur', name: 'Euro', kind: 'fiat' },
  { code: 'btc', name: 'Bitcoin', kind: 'crypto', asset: { id: 'bitcoin', scale: 1 } },
];
const ENGINE: EngineConfig = {
  assets: [asset('bitcoin', 'btc'), asset('litecoin', 'ltc'), asset('tether', 'usdt')],
  currencies: CURRENCIES,
  categories: [{ id: 'pow', name: 'PoW', description: 'Proof of work', members: ['bitcoin', 'litecoin'] }],
  quoteAssets: new Map([
    ['btc', { id: 'bitcoin', scale: 1 }],
    ['usdt', { id: 'tether', scale: 1 }],
  ]),
};

function t(venue: string, base: string, quote: string, last: number, ts = NOW, baseVolume = 100): Ticker {
  return { venue, venueKind: 'cex', base, quote, last, bid: null, ask: null, baseVolume, ts };
}

function snapshot(ts: number, extra: unknown[] = []): SourceSnapshot {
  return {
    source: 'test',
    ts,
    tickers: [
      t('a', 'bitcoin', 'usd', 90_000, ts),
      t('b', 'bitcoin', 'usd', 90_100, ts),
      t('c', 'bitcoin', 'eur', 83_000, ts),
      t('a', 'tether', 'usd', 1.0005, ts, 1e6),
      t('b', 'tether', 'usd', 0.9995, ts, 1e6),
      t('a', 'litecoin', 'usdt', 90, ts),
      t('b', 'litecoin', 'btc', 0.001, ts),
      ...extra,
    ],
    supply: [
      { asset: 'bitcoin', kind: 'circulating', value: 19.9e6, source: 'x1', sourceKind: 'explorer', ts },
      { asset: 'bitcoin', kind: 'circulating', value: 19.91e6, source: 'x2', sourceKind: 'node', ts },
      { asset: 'bitcoin', kind: 'max', value: 21e6, source: 'x2', sourceKind: 'emission', ts },
      { asset: 'litecoin', kind: 'circulating', value: 75e6, source: 'x1', sourceKind: 'explorer', ts },
    ],
    fx: [{ currency: 'eur', usdPerUnit: 1.08, ts, source: 'fx' }],
  };
}

const outcome = (s: SourceSnapshot) => ({ source: s.source, snapshot: s, error: null, ms: 1 });

async function counts(db: Db) {
  const r = await db.query<{ bars: number; log: number; tick: number; sum: number }>(
    `SELECT (SELECT count(*)::int FROM price_bars) AS bars, (SELECT count(*)::int FROM ingest_log) AS log,
            (SELECT count(*)::int FROM tickers_latest) AS tick, (SELECT coalesce(sum(close), 0) FROM price_bars) AS sum`,
  );
  return r.rows[0];
}

describe('MarketService', () => {
  let db: Db;
  let clock = NOW;
  beforeEach(async () => {
    db = await openMemoryDb();
    clock = NOW;
  });
  afterEach(async () => {
    await db.close();
  });
  const service = () => new MarketService({ db, engine: ENGINE, now: () => clock });

  it('aggregates a tick, applies the null rules and persists history', async () => {
    const m = service();
    const snap = await m.ingest([outcome(snapshot(NOW))]);
    const btc = snap.markets.get('bitcoin');
    expect(btc?.price.priceUsd).toBeGreaterThan(89_000);
    expect(btc?.price.priceUsd).toBeLessThan(90_200);
    expect(btc?.marketCapUsd).not.toBeNull();
    expect(btc?.fdvUsd).toBeCloseTo((btc?.price.priceUsd ?? 0) * 21e6, 0);
    // One supply source only: no market cap, and no max supply → no FDV either. Never a guess.
    const ltc = snap.markets.get('litecoin');
    expect(ltc?.price.priceUsd).toBeCloseTo(90, 0);
    expect(ltc?.marketCapUsd).toBeNull();
    expect(ltc?.fdvUsd).toBeNull();
    expect(ltc?.rank).toBeNull();
    expect(btc?.rank).toBe(1);
    expect(snap.global.verifiedCoins).toBe(1);
    expect(snap.rates.now('btc')).toBe(btc?.price.priceUsd);
    const c = await counts(db);
    expect(c?.bars).toBe(3 * 3); // three priced assets × three resolutions
  });

  it('is idempotent: replaying the same snapshot changes nothing', async () => {
    const m = service();
    await m.ingest([outcome(snapshot(NOW))]);
    const before = await counts(db);
    clock = NOW + 60_000;
    await m.ingest([outcome(snapshot(NOW))]);
    // The tick itself folds a new observation at the new time; the replayed inputs add no rows and change no input.
    const after = await counts(db);
    expect(after?.log).toBe(before?.log);
    expect(after?.tick).toBe(before?.tick);
    const replay = service();
    await replay.load();
    const r2 = await replay.backfill(listSource([snapshot(NOW)]));
    expect(r2.skipped).toBe(1);
    expect((await counts(db))?.log).toBe(before?.log);
  });

  it('rejects a malformed ticker with a reason, counts it, and keeps the aggregate clean', async () => {
    const m = service();
    const bad = [
      { ...t('z', 'bitcoin', 'usd', -5) },
      { venue: 'z', base: 'bitcoin' },
      t('z', 'nonexistent', 'usd', 1),
    ];
    const snap = await m.ingest([outcome(snapshot(NOW, bad))]);
    expect(m.rejects.total).toBe(3); // cumulative, reported by /healthz
    const r = await db.query<{ reason: string; count: number }>(
      'SELECT reason, count::int AS count FROM ingest_rejects ORDER BY reason',
    );
    expect(r.rows.reduce((s, x) => s + x.count, 0)).toBe(3);
    expect(snap.markets.get('bitcoin')?.price.tickersUsed).toBe(3);
  });

  it('reloads its state from the store after a restart', async () => {
    const m = service();
    const a = await m.ingest([outcome(snapshot(NOW))]);
    const m2 = service();
    await m2.load();
    const b = await m2.ingest([]);
    expect(b.markets.get('bitcoin')?.price.priceUsd).toBe(a.markets.get('bitcoin')?.price.priceUsd);
    expect(b.markets.get('bitcoin')?.marketCapUsd).toBe(a.markets.get('bitcoin')?.marketCapUsd);
    expect(m2.state.histories.get('bitcoin')?.bars5m.length).toBe(1);
  });

  it('start(): afterTick follows each scheduled tick with its clock; a failing one is logged and ticking goes on', async () => {
    const seen: number[] = [];
    const errors: string[] = [];
    let fail = true;
    const m = new MarketService({
      db,
      engine: ENGINE,
      now: () => clock,
      tickIntervalMs: 20,
      log: { info() {}, warn() {}, error: (msg) => errors.push(msg) },
      afterTick: async (now) => {
        seen.push(now);
        if (fail) {
          fail = false;
          throw new Error('boom');
        }
      },
    });
    await m.ingest([outcome(snapshot(NOW))]);
    m.start();
    try {
      const t0 = Date.now();
      while (seen.length < 3 && Date.now() - t0 < 5_000) await new Promise((r) => setTimeout(r, 10));
    } finally {
      await m.stop();
    }
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(new Set(seen)).toEqual(new Set([NOW]));
    expect(errors).toEqual(['tick failed']);
  });

  it('start(): prunes supply history, the ingest log and chain figures past 7 days with the hourly rollup; the reads answer the same', async () => {
    const DAY = 86_400_000;
    const fig = (observedAt: number) => ({
      asset: 'bitcoin',
      source: 'node:btc',
      observedAt,
      algorithm: 'sha256',
      difficulty: 1e14,
      blockReward: 3.125,
      blockTimeSeconds: 600,
      height: null,
      networkHashps: null,
      tipTime: null,
    });
    const rows = async () => {
      const r = await db.query<{ supply: number; log: number; mining: number }>(
        `SELECT (SELECT count(*)::int FROM supply_records) AS supply, (SELECT count(*)::int FROM ingest_log) AS log,
                (SELECT count(*)::int FROM mining_figures) AS mining`,
      );
      return r.rows[0];
    };
    let ticks = 0;
    const m = new MarketService({
      db,
      engine: ENGINE,
      now: () => clock,
      tickIntervalMs: 20,
      afterTick: async () => void ticks++,
    });
    // Ingested 10 days ago, then now: 4 supply records and a log row each time.
    clock = NOW - 10 * DAY;
    await m.ingest([outcome(snapshot(NOW - 10 * DAY))]);
    clock = NOW;
    const snap = await m.ingest([outcome(snapshot(NOW))]);
    await saveMiningFigures(db, [fig(NOW - 10 * DAY), fig(NOW - 9 * DAY)]);
    const mining = await m.readMining(['bitcoin', 'litecoin']);
    const tickers = async () => (await loadTickers(db)).map((x) => JSON.stringify(x)).sort();
    const held = await tickers();
    expect(await rows()).toEqual({ supply: 8, log: 2, mining: 2 });

    m.start();
    try {
      const t0 = Date.now();
      while (ticks < 1 && Date.now() - t0 < 5_000) await new Promise((r) => setTimeout(r, 10));
    } finally {
      await m.stop();
    }
    // The first scheduled tick ran the hourly work: what is older than 7 days went, but each key's newest (the coin's
    // only chain figures, 9 days old) stayed.
    expect(await rows()).toEqual({ supply: 4, log: 1, mining: 1 });
    expect(await m.readMining(['bitcoin', 'litecoin'])).toEqual(mining);
    const again = service();
    await again.load();
    const after = await again.ingest([]);
    for (const id of ['bitcoin', 'litecoin', 'tether']) {
      expect(after.markets.get(id)?.price.priceUsd).toBe(snap.markets.get(id)?.price.priceUsd);
      expect(after.markets.get(id)?.marketCapUsd).toBe(snap.markets.get(id)?.marketCapUsd);
    }
    // A replay of the snapshot ingested now is still skipped; the one whose log row went is applied again, and its
    // older tickers replace none.
    expect((await again.backfill(listSource([snapshot(NOW)]))).skipped).toBe(1);
    expect((await again.backfill(listSource([snapshot(NOW - 10 * DAY)]))).skipped).toBe(0);
    expect(await tickers()).toEqual(held);
  });

  it('goes stale: prices become null when every ticker is older than the staleness limit', async () => {
    const m = service();
    await m.ingest([outcome(snapshot(NOW))]);
    clock = NOW + 16 * 60_000;
    const snap = await m.ingest([]);
    expect(snap.markets.get('bitcoin')?.price.priceUsd).toBeNull();
    expect(snap.markets.get('bitcoin')?.marketCapUsd).toBeNull();
  });

  it('reads long histories of several coins in pieces, the event loop turning between them, and gives one read', async () => {
    const HOUR = 3_600_000;
    const from = NOW - 90 * 24 * HOUR;
    const ids = ['bitcoin', 'litecoin', 'tether', 'none'];
    const rows = ids.slice(0, 3).flatMap((a, k) =>
      Array.from({ length: 90 * 24 + 1 }, (_, i) => {
        const ts = from + i * HOUR;
        const p = 100 * (k + 1) + i / 7;
        const bar = {
          ts,
          open: p,
          high: p,
          low: p,
          close: p,
          openTs: ts,
          closeTs: ts,
          volumeUsd: null,
          marketCapUsd: p,
        };
        return { asset: a, res: '1h' as const, bar };
      }),
    );
    await saveBars(db, rows);
    const m = service();
    let turns = 0;
    const count = () => setImmediate(() => (turns++, reading && count()));
    let reading = true;
    count();
    const got = await m.readBarsMany([...ids, 'bitcoin'], '1h', from, NOW);
    reading = false;
    expect(got).toEqual(await readBarsMany(db, ids, '1h', from, NOW));
    expect([...got.keys()]).toEqual(ids);
    expect(got.get('litecoin')).toHaveLength(90 * 24 + 1);
    // One read per coin of 2,161 bars: a turn between each two.
    expect(turns).toBeGreaterThanOrEqual(3);
  });
});

describe('pollAll', () => {
  it('cuts off a hanging source and still returns the others', async () => {
    const hang: TickerSource = { id: 'hang', kind: 'ccxt', poll: () => new Promise(() => undefined) };
    const fail: TickerSource = { id: 'fail', kind: 'ccxt', poll: () => Promise.reject(new Error('boom')) };
    const ok = listSource([snapshot(NOW)]);
    const t0 = Date.now();
    const r = await pollAll([hang, fail, ok], 200);
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(r.map((o) => [o.source, o.error === null, o.snapshot !== null])).toEqual([
      ['hang', false, false],
      ['fail', false, false],
      ['list', true, true],
    ]);
    expect(r[0]?.error).toMatch(/timed out/);
  });
});

function listSource(items: SourceSnapshot[]): TickerSource {
  const queue = [...items];
  return { id: 'list', kind: 'replay', poll: async () => queue.shift() ?? null };
}
