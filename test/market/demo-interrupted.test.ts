/**
 * A demo first start stopped midway leaves no store the next start takes for complete: the dataset is written in one
 * transaction at the end of the aggregation, and its manifest (`meta.dataset`, what marks it complete) after that.
 * Stopped before the manifest, the next start generates the dataset again; stopped inside the write, nothing of it is
 * left and the next start ends exactly where an uninterrupted one does (the recorded digests).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ensureDemoData } from '../../src/market/demo.ts';
import { MarketService } from '../../src/market/service.ts';
import type { Db, Queryable } from '../../src/store/db.ts';
import { getMeta } from '../../src/store/meta.ts';
import { openDb } from '../../src/store/open.ts';
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

const demoStart = (db: Db) =>
  ensureDemoData(
    db,
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
    }),
    { dataDir: '/nonexistent', demoSeed: S.seed, demoDays: S.days },
    { assets: S.assets, currencies: S.currencies },
    S.now,
  );

describe('a demo first start stopped midway', () => {
  it('before its manifest: the dataset is not taken for complete, the next start generates it again', async () => {
    const db = await openDb({});
    try {
      await expect(demoStart(failingOn(db, /INSERT INTO meta/))).rejects.toThrow('killed');
      expect(await getMeta(db, 'dataset')).toBeNull();
      expect((await demoStart(db)).generated).toBe(true);
      expect(await getMeta(db, 'dataset')).not.toBeNull();
    } finally {
      await db.close();
    }
  });

  it('inside its write: nothing of it is left, and the next start ends where an uninterrupted one does', async () => {
    const db = await openDb({});
    try {
      await expect(demoStart(failingOn(db, /INSERT INTO price_bars/))).rejects.toThrow('killed');
      const empty = await storeDigests(db);
      for (const table of [
        'price_bars',
        'supply_records',
        'fx_rates',
        'ingest_log',
        'tickers_latest',
        'meta',
      ])
        expect(empty[table]).toMatch(/^0 rows /);
      const got = await runStarts(S, { db });
      expect(got.first).toEqual(RECORDED.first);
    } finally {
      await db.close();
    }
  });
});
