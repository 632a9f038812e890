/**
 * A demo first start stopped midway leaves no store the next start takes for complete: the store is marked
 * (`meta.dataset_pending`) before the first row, the dataset is written at the end of the aggregation (in one
 * transaction, or after start-up statement by statement: `storeLater`), and its manifest (`meta.dataset`, what marks it
 * complete) after that. Stopped before the manifest, the next start clears what was written and generates the dataset
 * again; stopped inside the write, the next start ends exactly where an uninterrupted one does (the recorded digests).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ensureDemoData } from '../../src/start/demo.ts';
import { MarketService } from '../../src/market/service.ts';
import type { Db, Queryable } from '../../src/store/db.ts';
import { getMeta } from '../../src/store/meta.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { barsOf } from '../../src/engine/history.ts';
import { DEFAULT_PRICE_RULES } from '../../src/engine/price.ts';
import { CATEGORIES } from '../../src/catalog/categories.ts';
import { QUOTE_ASSETS } from '../../src/catalog/currencies.ts';
import type { StartDigests } from '../support/first-start.ts';
import { runStarts, SCENARIOS } from '../support/first-start.ts';
import { storeDigests } from '../support/market-digest.ts';

const NAME = 'few assets, 3 days';
const S = SCENARIOS[NAME]!;
const RECORDED = (
  JSON.parse(readFileSync(new URL('./first-start-digests.json', import.meta.url), 'utf8')) as Record<
    string,
    { first: StartDigests }
  >
)[NAME]!;

/** `db`, failing the first statement (in or out of a transaction) whose SQL matches `fail`. */
function failingOn(db: Db, fail: RegExp): Db {
  let failed = false;
  const check = (sql: string): void => {
    if (!failed && fail.test(sql)) {
      failed = true;
      throw new Error('killed');
    }
  };
  const wrap = (q: Queryable): Queryable => ({
    query: (sql, params) => {
      check(sql);
      return q.query(sql, params);
    },
  });
  return {
    ...db,
    query: (sql, params) => {
      check(sql);
      return db.query(sql, params);
    },
    transaction: (fn) => db.transaction((tx) => fn({ ...tx, ...wrap(tx) })),
  };
}

const CFG = { dataDir: '/nonexistent', demoSeed: S.seed, demoDays: S.days };

const serviceFor = (db: Db) =>
  new MarketService({
    db,
    engine: {
      assets: S.assets,
      currencies: S.currencies,
      categories: CATEGORIES,
      quoteAssets: QUOTE_ASSETS,
      priceRules: DEFAULT_PRICE_RULES,
    },
    now: () => S.now,
  });

const demoStart = (db: Db) =>
  ensureDemoData(db, serviceFor(db), CFG, { assets: S.assets, currencies: S.currencies }, S.now);

describe('a demo first start stopped midway', () => {
  it('before its manifest: the dataset is not taken for complete, the next start generates it again', async () => {
    const db = await openMemoryDb();
    try {
      await expect(demoStart(failingOn(db, /DELETE FROM meta/))).rejects.toThrow('killed');
      expect(await getMeta(db, 'dataset')).toBeNull();
      expect((await demoStart(db)).generated).toBe(true);
      expect(await getMeta(db, 'dataset')).not.toBeNull();
    } finally {
      await db.close();
    }
  });

  it('inside its write: nothing of it is left but the mark, and the next start ends where an uninterrupted one does', async () => {
    const db = await openMemoryDb();
    try {
      await expect(demoStart(failingOn(db, /INSERT INTO price_bars/))).rejects.toThrow('killed');
      const empty = await storeDigests(db);
      for (const table of ['price_bars', 'supply_records', 'fx_rates', 'ingest_log', 'tickers_latest'])
        expect(empty[table]).toMatch(/^0 rows /);
      expect(await getMeta(db, 'dataset_pending')).not.toBeNull();
      const got = await runStarts(S, { db });
      expect(got.first).toEqual(RECORDED.first);
    } finally {
      await db.close();
    }
  });
});

/** A demo first start on `db` that leaves the history's write to the service (`storeLater`); returns the service. */
async function generateStoringLater(db: Db): Promise<MarketService> {
  const market = serviceFor(db);
  const inputs = { assets: S.assets, currencies: S.currencies };
  await ensureDemoData(db, market, CFG, inputs, S.now, undefined, { storeLater: true });
  return market;
}

describe('a demo first start whose history is stored after start-up (storeLater)', () => {
  it('stores exactly what a start that writes before it is ready does (the recorded digests)', async () => {
    const got = await runStarts(S, { storeLater: true });
    expect(got.first).toEqual(RECORDED.first);
  });

  it('serves its history only once stored: a chart read waits for the write, then sees all of it', async () => {
    const db = await openMemoryDb();
    try {
      const market = await generateStoringLater(db);
      let read: number | null = null;
      const bars = market.readBars('litecoin', '1h', 0, S.now).then((b) => (read = b.length));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(read).toBeNull(); // not started: it waits
      market.start();
      await bars;
      await market.stop();
      const history = market.state.histories.get('litecoin');
      const held = history ? barsOf(history, '1h').length : 0;
      expect(read).toBe(held);
      expect(held).toBeGreaterThan(24);
    } finally {
      await db.close();
    }
  });

  it('cut short: the next start clears what it wrote and ends where an uninterrupted one does', async () => {
    const db = await openMemoryDb();
    try {
      const failing = failingOn(db, /INSERT INTO price_bars/);
      const market = await generateStoringLater(failing);
      market.start();
      await market.whenStored();
      await market.stop();
      expect(await getMeta(db, 'dataset')).toBeNull();
      expect(await getMeta(db, 'dataset_pending')).not.toBeNull();
      const got = await runStarts(S, { db });
      expect(got.first).toEqual(RECORDED.first);
    } finally {
      await db.close();
    }
  });
});
