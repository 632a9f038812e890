/**
 * `demoMiningRefresher` (the demo's `afterTick`): a long-running demo gets each new hour's mining observation, made
 * with the seed of the stored dataset, at one `meta` read and one idempotent insert an hour.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ASSETS } from '../../src/catalog/assets.ts';
import { demoMiningFigures } from '../../src/demo/mining.ts';
import { demoMiningRefresher } from '../../src/start/demo.ts';
import type { Db } from '../../src/store/db.ts';
import { setMeta } from '../../src/store/meta.ts';
import { readLatestMining } from '../../src/store/mining.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { countingDb } from '../support/counting-db.ts';

const HOUR = 3_600_000;
const H = Date.UTC(2026, 10, 21, 9, 0, 0);
const SEED = 4242;
const byAsset = <T extends { asset: string }>(xs: Iterable<T>): T[] =>
  [...xs].sort((a, b) => a.asset.localeCompare(b.asset));

describe('demoMiningRefresher', () => {
  let db: Db;
  let statements: string[];
  let counted: Db;
  beforeEach(async () => {
    db = await openMemoryDb();
    statements = [];
    counted = countingDb(db, statements);
  });
  afterEach(async () => {
    await db.close();
  });

  it('writes each new hour once, with the stored dataset’s seed', async () => {
    await setMeta(db, 'dataset', JSON.stringify({ kind: 'demo', seed: SEED }));
    const refresh = demoMiningRefresher(counted, ASSETS);
    await refresh(H + 25 * 60_000);
    const expected = demoMiningFigures(SEED, ASSETS, H);
    expect(expected.length).toBeGreaterThan(5);
    const first = await readLatestMining(
      db,
      expected.map((f) => f.asset),
    );
    expect(byAsset(first.values())).toEqual(byAsset(expected));

    statements.length = 0;
    await refresh(H + 59 * 60_000); // same hour: nothing
    expect(statements).toEqual([]);

    await refresh(H + HOUR + 60_000); // the next hour
    const next = await readLatestMining(
      db,
      expected.map((f) => f.asset),
    );
    expect(byAsset(next.values())).toEqual(byAsset(demoMiningFigures(SEED, ASSETS, H + HOUR)));
    expect([...next.values()].every((f) => f.observedAt === H + HOUR)).toBe(true);
    expect(statements.length).toBe(2); // the meta read and the insert
  });

  it('does nothing without a demo dataset', async () => {
    const refresh = demoMiningRefresher(counted, ASSETS);
    await refresh(H);
    expect(statements).toHaveLength(1); // the meta read
    expect((await readLatestMining(db, ['litecoin', 'dogecoin'])).size).toBe(0);
  });
});
