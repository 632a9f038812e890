/**
 * The history cache (`src/market/history-cache.ts`): a restart reads the closed history from it only while the
 * store's claim on it stands, and the state it loads is the state the store alone gives. Every write behind the
 * horizon retracts the claim; a cache that is not whole, or not the one claimed, is not read.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS } from '../../src/catalog/assets.ts';
import { CATEGORIES } from '../../src/catalog/categories.ts';
import { CURRENCIES, QUOTE_ASSETS } from '../../src/catalog/currencies.ts';
import { demoDataset } from '../../src/demo/dataset.ts';
import type { EngineConfig } from '../../src/engine/snapshot.ts';
import type { Bar } from '../../src/engine/types.ts';
import { iterableSource } from '../../src/ingest/replay.ts';
import {
  decodeHistoryCache,
  encodeHistoryCache,
  readHistoryCacheAhead,
} from '../../src/market/history-cache.ts';
import type { HistoryCache } from '../../src/market/history-cache.ts';
import { MarketService } from '../../src/market/service.ts';
import { historyHorizonClaim, saveBars } from '../../src/store/bars.ts';
import type { Db } from '../../src/store/db.ts';
import { saveFx } from '../../src/store/inputs.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { stateDigest } from '../support/market-digest.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 21, 12, 7, 0);
const assets = ASSETS.filter((a) => ['bitcoin', 'tether', 'litecoin', 'dogecoin'].includes(a.id));
const currencies = CURRENCIES.filter((c) => ['usd', 'eur', 'btc'].includes(c.code));
const ENGINE: EngineConfig = { assets, currencies, categories: CATEGORIES, quoteAssets: QUOTE_ASSETS };

let db: Db;
let dir: string;
let file: string;
const service = (now = NOW + DAY): MarketService => {
  const m = new MarketService({ db, engine: ENGINE, now: () => now });
  m.useHistoryCache(file);
  return m;
};
/** The state of a restart at `now`: from the cache when it is used, and from the store alone. */
async function restart(now = NOW + DAY): Promise<{ fromCache: boolean; cached: string; plain: string }> {
  const withCache = service(now);
  const { fromCache } = await withCache.load();
  const plain = new MarketService({ db, engine: ENGINE, now: () => now });
  await plain.load();
  return { fromCache, cached: stateDigest(withCache.state), plain: stateDigest(plain.state) };
}
/** Writes a cache of the store as it is now (a fresh service loads it and saves its cache). */
async function checkpoint(now = NOW + DAY / 2): Promise<void> {
  const m = service(now);
  await m.load();
  expect(await m.saveHistoryCache()).toBe(true);
}

beforeAll(async () => {
  db = await openMemoryDb();
  dir = await mkdtemp(join(tmpdir(), 'cw-history-cache-'));
  file = join(dir, 'history.cache');
  const m = service(NOW);
  const ds = demoDataset({ seed: 3, end: NOW, days: 4, assets, currencies });
  await m.backfill(iterableSource('test', ds.snapshots), undefined, { flushEvery: Infinity });
  await m.ingest([]);
});
afterAll(async () => {
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('history cache', () => {
  it('a restart reads the closed history from it and loads the state the store alone gives', async () => {
    const m = service(NOW);
    // A backfill and a tick completed: what it holds is what the store holds.
    await m.load();
    expect(await m.saveHistoryCache()).toBe(true);
    expect((await historyHorizonClaim(db))?.horizon).toBe(NOW);
    const r = await restart();
    expect(r.fromCache).toBe(true);
    expect(r.cached).toBe(r.plain);
  });

  it('is not read before its horizon (the clock went back)', async () => {
    await checkpoint();
    expect((await restart(NOW)).fromCache).toBe(false);
    expect((await restart()).fromCache).toBe(true);
  });

  it('a bar written behind the horizon retracts the claim; one ahead of it does not', async () => {
    await checkpoint(NOW + DAY / 2);
    const bar = (ts: number): Bar => ({
      ts,
      open: 1,
      high: 2,
      low: 0.5,
      close: 1.5,
      openTs: ts + 1,
      closeTs: ts + 2,
      volumeUsd: null,
      marketCapUsd: 3,
    });
    await saveBars(db, [{ asset: 'bitcoin', res: '5m', bar: bar(NOW + DAY / 2) }]);
    expect(await historyHorizonClaim(db)).not.toBeNull();
    expect((await restart()).fromCache).toBe(true);
    await saveBars(db, [{ asset: 'bitcoin', res: '1h', bar: bar(NOW - 2 * DAY) }]);
    expect(await historyHorizonClaim(db)).toBeNull();
    const r = await restart();
    expect(r.fromCache).toBe(false);
    expect(r.cached).toBe(r.plain);
  });

  it('an FX rate that changes a closed day retracts the claim; the same rate again does not', async () => {
    await checkpoint();
    const rate = { currency: 'eur', usdPerUnit: 1.5, ts: NOW - 3 * DAY + 1, source: 'late-fx' };
    await saveFx(db, [rate]);
    expect(await historyHorizonClaim(db)).toBeNull();
    await checkpoint();
    await saveFx(db, [rate]);
    expect(await historyHorizonClaim(db)).not.toBeNull();
    const r = await restart();
    expect(r.fromCache).toBe(true);
    expect(r.cached).toBe(r.plain);
  });

  it('a rollup retracts the claim', async () => {
    await checkpoint();
    await service(NOW + 3 * DAY).rollup();
    expect(await historyHorizonClaim(db)).toBeNull();
    expect((await restart(NOW + 3 * DAY)).fromCache).toBe(false);
  });

  it('a service started from the cache leaves it as it is until its first rollup (a kill meanwhile keeps it)', async () => {
    await checkpoint();
    const claim = await historyHorizonClaim(db);
    const m = service(NOW + DAY);
    expect((await m.load()).fromCache).toBe(true);
    m.start();
    try {
      // Written at once, the cache would have a new token claimed within a few milliseconds.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await historyHorizonClaim(db)).toEqual(claim);
    } finally {
      await m.stop();
    }
    expect(await historyHorizonClaim(db)).not.toEqual(claim);
  });

  it('a cache that is not whole, or not the one claimed, is not read', async () => {
    await checkpoint();
    const bytes = await readFile(file);
    await writeFile(file, bytes.subarray(0, bytes.length - 100));
    expect((await restart()).fromCache).toBe(false);
    const flipped = Buffer.from(bytes);
    flipped.writeUInt8(flipped.readUInt8(flipped.length >> 1) ^ 1, flipped.length >> 1);
    await writeFile(file, flipped);
    expect((await restart()).fromCache).toBe(false);
    await checkpoint();
    const mine = await readFile(file);
    await writeFile(file, bytes);
    expect((await restart()).fromCache).toBe(false);
    await writeFile(file, mine);
    expect((await restart()).fromCache).toBe(true);
  });

  it('a read started ahead (serve, before the modules load) is the one a restart takes, once', async () => {
    await checkpoint();
    await readHistoryCacheAhead(file);
    const bytes = await readFile(file);
    // Replaced after the read ahead: the restart decodes what was read then, and the next reads the file again.
    await writeFile(file, bytes.subarray(0, 100));
    expect((await restart()).fromCache).toBe(true);
    expect((await restart()).fromCache).toBe(false);
    await writeFile(file, bytes);
    await rm(file);
    await readHistoryCacheAhead(file);
    expect((await restart()).fromCache).toBe(false);
  });

  it('is not written while the state is ahead of the store, nor ever after a write failed', async () => {
    const m = service();
    expect(await m.saveHistoryCache()).toBe(false); // nothing loaded yet
    await m.load();
    const failing = Object.create(db) as Db;
    failing.transaction = () => Promise.reject(new Error('disk full'));
    const broken = new MarketService({ db: failing, engine: ENGINE, now: () => NOW + DAY });
    broken.useHistoryCache(file);
    await broken.load();
    await expect(broken.ingest([])).rejects.toThrow('disk full');
    expect(await broken.saveHistoryCache()).toBe(false);
  });
});

describe('history cache format', () => {
  it('round-trips bars and rates exactly, nulls and extreme doubles included, and rejects a stranger', async () => {
    const bar = (ts: number, p: number, v: number | null, c: number | null): Bar => ({
      ts,
      open: p,
      high: p * 2,
      low: p / 3,
      close: -0,
      openTs: ts + 1,
      closeTs: ts + 2,
      volumeUsd: v,
      marketCapUsd: c,
    });
    const c: HistoryCache = {
      token: '0f6b1f7e-6d1b-4f44-9b1e-1b9f0e6a1c2d',
      horizon: NOW,
      bars: new Map([
        [
          '1d',
          new Map([['bitcoin', [bar(0, 5e-324, null, 0), bar(DAY, 1.7976931348623157e308, NaN, null)]]]),
        ],
        ['5m', new Map([['ünï-cøde', [bar(300_000, 0.1 + 0.2, 0, Infinity)]]])],
      ]),
      fx: new Map([['eur', { usdPerUnit: [1.08, 1 / 3], ts: [1, DAY + 1], sources: ['a', 'b'] }]]),
    };
    const back = decodeHistoryCache(await encodeHistoryCache(c));
    // Decoded bars are views of the cache's bytes (getters): compare their nine figures.
    const plain = (b: Bar): Bar => ({
      ts: b.ts,
      open: b.open,
      high: b.high,
      low: b.low,
      close: b.close,
      openTs: b.openTs,
      closeTs: b.closeTs,
      volumeUsd: b.volumeUsd,
      marketCapUsd: b.marketCapUsd,
    });
    const figures = (h: HistoryCache | null) =>
      h && {
        ...h,
        bars: [...h.bars].map(([res, byAsset]) => [res, [...byAsset].map(([a, l]) => [a, l.map(plain)])]),
      };
    expect(figures(back)).toEqual(figures(c));
    expect(Object.is(back?.bars.get('1d')?.get('bitcoin')?.[0]?.close, -0)).toBe(true);
    expect(decodeHistoryCache(Buffer.from('not a cache at all'))).toBeNull();
  });

  it('is encoded in slices, the event loop turning between them, and decodes the same', async () => {
    // 200 sections of 2,000 bars: a few hundred ms of encoding, as a running server's hourly checkpoint.
    const bars = Array.from({ length: 2_000 }, (_, i): Bar => ({
      ts: i * 300_000,
      open: i,
      high: i + 1,
      low: i - 1,
      close: i + 0.5,
      openTs: i * 300_000,
      closeTs: i * 300_000 + 299_999,
      volumeUsd: i % 7 === 0 ? null : i * 10,
      marketCapUsd: i * 1e6,
    }));
    const c: HistoryCache = {
      token: 'sliced',
      horizon: NOW,
      bars: new Map([['5m', new Map(Array.from({ length: 200 }, (_, a) => [`asset-${a}`, bars]))]]),
      fx: new Map(),
    };
    let turns = 0;
    const tick = setInterval(() => turns++, 1);
    const t0 = performance.now();
    const bytes = await encodeHistoryCache(c);
    const ms = performance.now() - t0;
    clearInterval(tick);
    // A timer can run only between slices: a single piece of this length would leave none.
    expect(ms).toBeGreaterThan(30);
    expect(turns).toBeGreaterThan(1);
    expect(decodeHistoryCache(bytes)?.bars.get('5m')?.get('asset-199')?.[1_999]?.close).toBe(1_999.5);
  });
});
