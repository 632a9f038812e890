import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bar } from '../../src/engine/types.ts';
import type { Db } from '../../src/store/db.ts';
import { readBars, readBarsMany, rollupBars, saveBars } from '../../src/store/bars.ts';
import {
  loadFx,
  loadLatestSupply,
  loadTickers,
  loggedFrom,
  loggedSnapshots,
  logSnapshots,
  saveFx,
  saveSupply,
  saveTickers,
} from '../../src/store/inputs.ts';
import type { SnapshotLogRow } from '../../src/store/inputs.ts';
import { clearMarketData } from '../../src/store/market-data.ts';
import { readLatestMining, saveMiningFigures } from '../../src/store/mining.ts';
import { pruneIngestLog, pruneMiningFigures, pruneSupplyRecords } from '../../src/store/retention.ts';
import { listMigrations, migrate } from '../../src/store/migrate.ts';
import { insertName, selectResolution, selectResolutions, upsertAddress } from '../../src/names/name-repo.ts';
import { deletePrimaries, selectPrimaries, upsertPrimary } from '../../src/names/primary-repo.ts';
import { mulberry32 } from '../../src/demo/random.ts';
import { countingDb } from '../support/counting-db.ts';

const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);

function bar(ts: number, p: number, at = ts): Bar {
  return {
    ts,
    open: p,
    high: p,
    low: p,
    close: p,
    openTs: at,
    closeTs: at,
    volumeUsd: p * 10,
    marketCapUsd: null,
  };
}

/** The same store behaviour on PGlite (unit) and on a real PostgreSQL server (e2e). */
export function storeContract(name: string, open: () => Promise<Db>): void {
  describe(`store contract: ${name}`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await open();
    });
    afterAll(async () => {
      await db.close();
    });

    it('name resolutions: always current after a write; served from memory on the embedded store only', async () => {
      const accountId = '00000000-0000-4000-8000-00000000c0de';
      await db.query('INSERT INTO accounts (id, address, role, created_at) VALUES ($1, $2, $3, $4)', [
        accountId,
        'ltc1qcontractcache',
        'user',
        T0,
      ]);
      const statements: string[] = [];
      // Reads through a recording view of the store (the cache lives with the store, not the view).
      const counted = countingDb(db, statements);
      const row = { ownerAccountId: accountId, partnerId: null, partnerOwnerRef: null, private: false };
      await insertName(db, { label: 'cache', ...row, createdAt: T0, updatedAt: T0 });
      expect(await selectResolution(counted, 'cache', 'LTC')).toEqual({ private: false, link: null });
      expect(await selectResolution(counted, 'cache', 'LTC')).toEqual({ private: false, link: null });
      expect(statements).toHaveLength(db.kind === 'pglite' ? 1 : 2);

      await db.transaction((tx) => upsertAddress(tx, 'cache', 'LTC', 'ltc1qfirst', T0 + 1));
      expect(await selectResolution(counted, 'cache', 'LTC')).toEqual({
        private: false,
        link: { address: 'ltc1qfirst', updatedAt: T0 + 1 },
      });
      await upsertAddress(db, 'cache', 'LTC', 'ltc1qsecond', T0 + 2);
      expect((await selectResolution(counted, 'cache', 'LTC'))?.link?.address).toBe('ltc1qsecond');
      expect((await selectResolution(counted, 'cache', 'LTC'))?.link?.address).toBe('ltc1qsecond');
      // On PostgreSQL other processes write the same rows: every resolution reads.
      expect(statements).toHaveLength(db.kind === 'pglite' ? 3 : 5);
    });

    it('bulk resolutions and primary names: one read for many pairs, current after every write', async () => {
      const accountId = '00000000-0000-4000-8000-00000000c0df';
      await db.query('INSERT INTO accounts (id, address, role, created_at) VALUES ($1, $2, $3, $4)', [
        accountId,
        'ltc1qcontractbulk',
        'user',
        T0,
      ]);
      const row = { ownerAccountId: accountId, partnerId: null, partnerOwnerRef: null, private: false };
      for (const label of ['bulka', 'bulkb'])
        await insertName(db, { label, ...row, createdAt: T0, updatedAt: T0 });
      await upsertAddress(db, 'bulka', 'LTC', 'ltc1qbulka', T0);
      const statements: string[] = [];
      const counted = countingDb(db, statements);
      const pairs = [
        { label: 'bulka', asset: 'LTC' },
        { label: 'bulkb', asset: 'LTC' },
        { label: 'nosuch', asset: 'LTC' },
        { label: 'bulka', asset: 'DOGE' },
      ];
      expect(await selectResolutions(counted, pairs)).toEqual([
        { private: false, link: { address: 'ltc1qbulka', updatedAt: T0 } },
        { private: false, link: null },
        null,
        { private: false, link: null },
      ]);
      expect(statements).toHaveLength(1);

      expect(await upsertPrimary(db, 'LTC', 'ltc1qbulka', 'bulka', T0 + 1)).toBeNull();
      const key = { asset: 'LTC', address: 'ltc1qbulka' };
      const none = { asset: 'LTC', address: 'ltc1qnobody' };
      expect(await selectPrimaries(counted, [key, none])).toEqual([
        { label: 'bulka', updatedAt: T0 + 1, private: false, linked: 'ltc1qbulka' },
        null,
      ]);
      expect(await upsertPrimary(db, 'LTC', 'ltc1qbulka', 'bulkb', T0 + 2)).toBe('bulka');
      expect((await selectPrimaries(counted, [key]))[0]).toMatchObject({ label: 'bulkb', linked: null });
      expect(await deletePrimaries(db, 'bulkb', 'LTC', 'ltc1qbulka')).toEqual([]);
      expect(await deletePrimaries(db, 'bulkb')).toEqual([key]);
      expect(await selectPrimaries(counted, [key])).toEqual([null]);
    });

    it('runs every numbered migration once', async () => {
      expect(await migrate(db)).toEqual([]);
      const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      expect(r.rows[0]?.n).toBe(listMigrations().length);
    });

    it('keeps the newest ticker per market', async () => {
      const t = {
        venue: 'v1',
        venueKind: 'cex' as const,
        base: 'litecoin',
        quote: 'usd',
        last: 90,
        bid: 89.9,
        ask: 90.1,
        baseVolume: 1000,
        ts: T0,
      };
      await saveTickers(db, [t], 'test');
      await saveTickers(db, [{ ...t, last: 50, ts: T0 - 60_000 }], 'test');
      await saveTickers(db, [{ ...t, last: 91, ts: T0 + 60_000, bid: null, ask: null }], 'test');
      const rows = (await loadTickers(db)).filter((x) => x.venue === 'v1');
      expect(rows).toEqual([{ ...t, last: 91, ts: T0 + 60_000, bid: null, ask: null }]);
    });

    it('merges bars idempotently and in any order', async () => {
      const a = bar(T0, 100, T0 + 1000);
      const b = bar(T0, 120, T0 + 2000);
      const c = bar(T0, 80, T0 + 3000);
      for (const order of [
        [a, b, c],
        [c, a, b],
        [b, c, a, a, c],
      ]) {
        const asset = `m${order.length}-${order[0]?.closeTs}`;
        for (const x of order) await saveBars(db, [{ asset, res: '5m', bar: x }]);
        const [got] = await readBars(db, asset, '5m', T0, T0);
        expect(got).toEqual({
          ts: T0,
          open: 100,
          high: 120,
          low: 80,
          close: 80,
          openTs: T0 + 1000,
          closeTs: T0 + 3000,
          volumeUsd: 800,
          marketCapUsd: null,
        });
      }
    });

    it('reads several assets over one window in one query, each equal to its own read', async () => {
      const rows = ['many-a', 'many-b'].flatMap((asset, j) =>
        [0, 1, 2].map((i) => ({
          asset,
          res: '5m' as const,
          bar: bar(T0 + i * 300_000, 10 * (j + 1) + i, T0 + i * 300_000 + 1000),
        })),
      );
      await saveBars(db, rows);
      const got = await readBarsMany(db, ['many-a', 'many-b', 'many-none', 'many-a'], '5m', T0, T0 + 300_000);
      expect([...got.keys()]).toEqual(['many-a', 'many-b', 'many-none']);
      expect(got.get('many-a')).toEqual(await readBars(db, 'many-a', '5m', T0, T0 + 300_000));
      expect(got.get('many-b')?.map((b) => b.close)).toEqual([20, 21]);
      expect(got.get('many-none')).toEqual([]);
      expect((await readBarsMany(db, [], '5m', T0, T0)).size).toBe(0);
    });

    it('bulk writes keep every double exactly, nulls as nulls, and any text', async () => {
      const odd = [5e-324, 1.7976931348623157e308, 0.1 + 0.2, 1e21, 123456789.12345678, 2 ** -1022, 1 / 3];
      const rows = odd.map((p, i) => ({
        asset: 'exact',
        res: '1h' as const,
        bar: {
          ...bar(T0 + i * 3_600_000, p),
          volumeUsd: i % 2 ? null : p / 7,
          marketCapUsd: i % 3 ? p * 3 : null,
        },
      }));
      await saveBars(db, rows);
      expect(await readBars(db, 'exact', '1h', T0, T0 + 10 * 3_600_000)).toEqual(rows.map((r) => r.bar));
      // Ordinary doubles either side of powers of two, and negatives.
      const near = [
        1,
        2 ** 40,
        2 ** -30,
        1 / 3,
        0.1,
        2 ** 52 + 1,
        2 ** 53 - 1,
        123.456,
        9e15,
        1e-200,
      ].flatMap((x) => [x, x * (1 - Number.EPSILON), x * (1 + Number.EPSILON), -x]);
      const ordinary = near.map((p, i) => ({
        asset: 'exact-pairs',
        res: '5m' as const,
        bar: { ...bar(T0 + i * 300_000, p), low: -p, volumeUsd: i % 2 ? null : p * 3, marketCapUsd: 0 },
      }));
      await saveBars(db, ordinary);
      expect(await readBars(db, 'exact-pairs', '5m', T0, T0 + near.length * 300_000)).toEqual(
        ordinary.map((r) => r.bar),
      );
      const odd2 = {
        asset: 'exact',
        kind: 'total' as const,
        sourceKind: 'node' as const,
        value: 1 / 7,
        ts: T0,
      };
      const sources = ['plain', 'with "quotes"', 'back\\slash', 'ünïcødé ✓ 😀', 'NULL', ''];
      await saveSupply(
        db,
        sources.map((source) => ({ ...odd2, source })),
      );
      const got = (await loadLatestSupply(db, 0)).filter((r) => r.asset === 'exact');
      expect(got.map((r) => r.source).sort()).toEqual([...sources].sort());
      expect(got.every((r) => r.value === 1 / 7)).toBe(true);
    });

    it('rolls 5-minute bars up into hourly ones and deletes them', async () => {
      const asset = 'rollup';
      const hour = T0 - 3 * 86_400_000;
      const fine = [0, 1, 2, 11].map((i) => ({
        asset,
        res: '5m' as const,
        bar: bar(hour + i * 300_000, 10 + i, hour + i * 300_000 + 60_000),
      }));
      await saveBars(db, fine);
      const removed = await rollupBars(db, '5m', '1h', 3_600_000, T0 - 2 * 86_400_000);
      expect(removed).toBeGreaterThanOrEqual(4);
      expect(await readBars(db, asset, '5m', 0, T0)).toEqual([]);
      const [h] = await readBars(db, asset, '1h', 0, T0);
      expect(h).toMatchObject({ ts: hour, open: 10, close: 21, high: 21, low: 10, volumeUsd: 210 });
      // A second run finds nothing to do and changes nothing.
      expect(await rollupBars(db, '5m', '1h', 3_600_000, T0 - 2 * 86_400_000)).toBe(0);
      expect(await readBars(db, asset, '1h', 0, T0)).toEqual([h]);
    });

    it('stores supply history and reads the newest record per source', async () => {
      const r = {
        asset: 'litecoin',
        kind: 'circulating' as const,
        source: 's1',
        sourceKind: 'explorer' as const,
        value: 75e6,
        ts: T0,
      };
      await saveSupply(db, [r, { ...r, value: 74e6, ts: T0 - 86_400_000 }, r]);
      const got = (await loadLatestSupply(db, 0)).filter((x) => x.asset === 'litecoin');
      expect(got).toEqual([r]);
    });

    it('reads the newest supply record per source since a time: the rows of DISTINCT ON, in its order', async () => {
      const next = mulberry32(7);
      const records = Array.from({ length: 300 }, () => ({
        asset: `skip-${Math.floor(next() * 6)}`,
        kind: (['circulating', 'total', 'max'] as const)[Math.floor(next() * 3)] as 'total',
        source: `src-${Math.floor(next() * 3)}`,
        sourceKind: 'node' as const,
        value: Math.floor(next() * 1e6),
        ts: T0 - Math.floor(next() * 30) * 86_400_000,
      }));
      await saveSupply(db, records);
      for (const days of [0, 3, 10, 40]) {
        const since = T0 - days * 86_400_000;
        const want = await db.query<{ asset: string }>(
          `SELECT DISTINCT ON (asset, kind, source) asset, kind, source, source_kind, value, ts FROM supply_records
           WHERE ts >= $1 ORDER BY asset, kind, source, ts DESC`,
          [since],
        );
        const got = await loadLatestSupply(db, since);
        expect(got.map((r) => [r.asset, r.kind, r.source, r.sourceKind, r.value, r.ts])).toEqual(
          want.rows.map((r) => Object.values(r)),
        );
      }
    });

    it('keeps the newest supply record per key: a late older record or a second one at the same time never replaces it', async () => {
      const day = 86_400_000;
      const r = {
        asset: 'latest-a',
        kind: 'total' as const,
        source: 's1',
        sourceKind: 'node' as const,
        value: 100,
        ts: T0,
      };
      const read = async (since = 0): Promise<unknown[]> =>
        (await loadLatestSupply(db, since)).filter((x) => x.asset.startsWith('latest-'));
      await saveSupply(db, [r]);
      // Late from a backfill: stored in the history, not the newest.
      await saveSupply(db, [{ ...r, value: 90, ts: T0 - day }]);
      expect(await read()).toEqual([r]);
      // The same time again, another value: the first one stays, as in supply_records.
      await saveSupply(db, [{ ...r, value: 101 }]);
      expect(await read()).toEqual([r]);
      // In one call, out of order and with a repeat of one time: the newest, the first of its time.
      const newest = { ...r, value: 120, ts: T0 + 2 * day };
      await saveSupply(db, [
        { ...r, value: 110, ts: T0 + day },
        newest,
        { ...r, value: 121, ts: T0 + 2 * day },
        { ...r, value: 95, ts: T0 - 2 * day },
      ]);
      const other = { ...r, asset: 'latest-b', value: 5, ts: T0 - 40 * day };
      await saveSupply(db, [other]);
      expect(await read()).toEqual([newest, other]);
      // Since a time: a key whose newest record is older is left out, whatever older records it has.
      expect(await read(T0 - 30 * day)).toEqual([newest]);
      expect(await read(T0 + 2 * day + 1)).toEqual([]);
      // A newer record of that key, still older than the time: it replaces the one held, and stays out.
      const newer = { ...other, value: 6, ts: T0 - 35 * day };
      await saveSupply(db, [newer]);
      expect(await read(T0 - 30 * day)).toEqual([newest]);
      expect(await read()).toEqual([newest, newer]);
      expect(await latestDisagreements()).toEqual([]);
    });

    it("keys the supply history by time first, so that a tick's records are appended at its index's end", async () => {
      // Each tick writes a record for every asset, kind and source: keyed asset first, they would land on as many
      // leaf pages, read cold after a restart (migration 015). The key is the same set of columns, so the same
      // records are one and the same.
      const key = await db.query<{ column: string }>(
        `SELECT a.attname AS column FROM pg_index i
           JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
           WHERE i.indrelid = 'supply_records'::regclass AND i.indisprimary
           ORDER BY array_position(i.indkey::int2[], a.attnum)`,
      );
      expect(key.rows.map((r) => r.column)).toEqual(['ts', 'asset', 'kind', 'source']);
    });

    it('fills the newest supply record per key from the history a store already holds, when migrated', async () => {
      const m = listMigrations().find((x) => x.name.endsWith('_supply_latest.sql'));
      if (!m) throw new Error('no supply_latest migration');
      // A store from before the migration: its table and its record gone, supply history written without it.
      await db.query('DROP TABLE supply_latest');
      await db.query('DELETE FROM schema_migrations WHERE version = $1', [m.version]);
      await db.query(
        `INSERT INTO supply_records (asset, kind, source, source_kind, value, ts) VALUES
           ('fill-a', 'total', 's1', 'node', 1, $1), ('fill-a', 'total', 's1', 'node', 3, $1 + 2),
           ('fill-a', 'total', 's1', 'node', 2, $1 + 1), ('fill-a', 'total', 's2', 'node', 7, $1 - 5),
           ('fill-a', 'max', 's1', 'node', 9, $1 - 1), ('fill-b', 'circulating', 's1', 'explorer', 4, $1)`,
        [T0],
      );
      expect(await migrate(db)).toEqual([m.name]);
      const fill = (await loadLatestSupply(db, 0)).filter((x) => x.asset.startsWith('fill-'));
      expect(fill.map((x) => [x.asset, x.kind, x.source, x.value, x.ts])).toEqual([
        ['fill-a', 'max', 's1', 9, T0 - 1],
        ['fill-a', 'total', 's1', 3, T0 + 2],
        ['fill-a', 'total', 's2', 7, T0 - 5],
        ['fill-b', 'circulating', 's1', 4, T0],
      ]);
      // Every key of every earlier case, too; and kept from there on.
      expect(await latestDisagreements()).toEqual([]);
      await saveSupply(db, [
        { asset: 'fill-a', kind: 'total', source: 's1', sourceKind: 'node', value: 0, ts: T0 + 1 },
        { asset: 'fill-a', kind: 'total', source: 's2', sourceKind: 'node', value: 8, ts: T0 },
      ]);
      expect((await loadLatestSupply(db, T0)).filter((x) => x.asset === 'fill-a')).toMatchObject([
        { kind: 'total', source: 's1', value: 3, ts: T0 + 2 },
        { kind: 'total', source: 's2', value: 8, ts: T0 },
      ]);
      expect(await latestDisagreements()).toEqual([]);
    });

    /** Keys where `supply_latest` is not `supply_records`' newest row (either side missing, or another row). */
    async function latestDisagreements(): Promise<unknown[]> {
      const r = await db.query(
        `SELECT * FROM (SELECT DISTINCT ON (asset, kind, source) * FROM supply_records
           ORDER BY asset, kind, source, ts DESC) h
         FULL JOIN supply_latest l USING (asset, kind, source)
         WHERE h.ts IS DISTINCT FROM l.ts OR h.value IS DISTINCT FROM l.value
           OR h.source_kind IS DISTINCT FROM l.source_kind`,
      );
      return r.rows;
    }

    it('reads every FX rate by currency and day, whatever mix of sources wrote them', async () => {
      const day = 86_400_000;
      await saveFx(
        db,
        [0, 1, 2, 3, 4, 5].flatMap((i) => [
          { currency: 'chf', usdPerUnit: 1.1 + i / 1000, ts: T0 + i * day, source: i % 2 ? 'fx-a' : 'fx-b' },
          { currency: 'cad', usdPerUnit: 0.7 + i / 3, ts: T0 - i * day, source: 'fx-c' },
        ]),
      );
      const want = await db.query<Record<string, unknown>>(
        `SELECT currency, usd_per_unit, ts, source FROM fx_rates WHERE currency IN ('cad', 'chf')
         ORDER BY currency, day`,
      );
      const got = (await loadFx(db)).filter((f) => f.currency === 'cad' || f.currency === 'chf');
      expect(got.map((f) => [f.currency, f.usdPerUnit, f.ts, f.source])).toEqual(
        want.rows.map((r) => Object.values(r)),
      );
      expect(got.map((f) => f.source).slice(6)).toEqual(['fx-b', 'fx-a', 'fx-b', 'fx-a', 'fx-b', 'fx-a']);
    });

    it('keeps one FX rate per currency and day, the newest', async () => {
      await saveFx(db, [
        { currency: 'eur', usdPerUnit: 1.08, ts: T0, source: 'x' },
        { currency: 'eur', usdPerUnit: 1.09, ts: T0 + 1000, source: 'x' },
      ]);
      await saveFx(db, [{ currency: 'eur', usdPerUnit: 1.07, ts: T0 - 1000, source: 'x' }]);
      expect((await loadFx(db)).filter((f) => f.currency === 'eur')).toEqual([
        { currency: 'eur', usdPerUnit: 1.09, ts: T0 + 1000, source: 'x' },
      ]);
    });

    it("prunes supply history older than a time, in slices, keeping each key's newest record", async () => {
      const day = 86_400_000;
      const cut = T0 - 7 * day;
      const rec = (asset: string, source: string, daysAgo: number) => ({
        asset,
        kind: 'circulating' as const,
        source,
        sourceKind: 'node' as const,
        value: 1_000 + daysAgo,
        ts: T0 - daysAgo * day,
      });
      // A source reporting daily for 20 days; one that stopped 12 days ago (its newest older than the cut); one recent.
      await saveSupply(db, [
        ...Array.from({ length: 20 }, (_, d) => rec('prune-a', 's1', d)),
        ...[12, 15, 30].map((d) => rec('prune-a', 's2', d)),
        ...[0, 3].map((d) => rec('prune-b', 's1', d)),
        // Exactly at the cut: kept.
        rec('prune-b', 's1', 7),
      ]);
      const history = async (): Promise<string[]> =>
        (
          await db.query<{ asset: string; source: string; ts: number }>(
            `SELECT asset, source, ts FROM supply_records WHERE asset LIKE 'prune-%' ORDER BY asset, source, ts`,
          )
        ).rows.map((r) => `${r.asset}|${r.source}|${Number(r.ts)}`);
      const reads = (): Promise<unknown[]> =>
        Promise.all([0, cut, T0 - 3 * day, T0].map((since) => loadLatestSupply(db, since)));
      const before = await history();
      const answers = await reads();
      // Slices of 4 rows: many statements, each a few rows.
      const removed = await pruneSupplyRecords(db, cut, 4);
      const kept = before.filter((k) => {
        const ts = Number(k.split('|')[2]);
        return ts >= cut || k === `prune-a|s2|${T0 - 12 * day}`;
      });
      expect(await history()).toEqual(kept);
      expect(removed).toBeGreaterThanOrEqual(before.length - kept.length);
      // Older records of other cases went too; every key's newest stayed, and every read answers as before.
      expect(await latestDisagreements()).toEqual([]);
      expect(await reads()).toEqual(answers);
      const old = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM supply_records WHERE ts < $1',
        [cut],
      );
      const latestOld = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM supply_latest WHERE ts < $1',
        [cut],
      );
      expect(old.rows[0]?.n).toBe(latestOld.rows[0]?.n);
      // A second run finds nothing to do.
      expect(await pruneSupplyRecords(db, cut)).toBe(0);
    });

    it("prunes the ingest log by when each snapshot was ingested, keeping each source's newest", async () => {
      const day = 86_400_000;
      const cut = T0 - 7 * day;
      const row = (source: string, daysAgo: number): SnapshotLogRow => ({
        source,
        ts: T0 - daysAgo * day,
        digest: `2:${String(daysAgo).padStart(16, '0')}`,
        tickers: 3,
        rejected: 0,
      });
      // A live source, each snapshot ingested at its own time, for 20 days.
      for (let d = 20; d >= 0; d--) await logSnapshots(db, [row('prune:live', d)], T0 - d * day);
      // A recording of old snapshots replayed 2 days ago: known for the window after the replay, however old.
      await logSnapshots(
        db,
        [90, 80, 70].map((d) => row('prune:recent-replay', d)),
        T0 - 2 * day,
      );
      // One replayed 10 days ago: only its newest snapshot is kept.
      await logSnapshots(
        db,
        [60, 50, 40].map((d) => row('prune:old-replay', d)),
        T0 - 10 * day,
      );
      const all = (source: string, days: number[]): SnapshotLogRow[] => days.map((d) => row(source, d));
      const live = all(
        'prune:live',
        Array.from({ length: 21 }, (_, d) => d),
      );
      const known = async (rows: readonly SnapshotLogRow[]): Promise<number[]> => {
        const keys = await loggedSnapshots(db, rows[0]!.source, rows);
        return rows.filter((r) => keys.has(`${r.ts}|${r.digest}`)).map((r) => (T0 - r.ts) / day);
      };
      const recent = await loggedFrom(db, 'prune:live', cut, 100);

      const removed = await pruneIngestLog(db, cut, 2);
      expect(removed).toBe(13 + 2);
      expect(await known(live)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(await known(all('prune:recent-replay', [90, 80, 70]))).toEqual([90, 80, 70]);
      expect(await known(all('prune:old-replay', [60, 50, 40]))).toEqual([40]);
      // The replay's reader of the log answers as before for what is kept.
      expect(await loggedFrom(db, 'prune:live', cut, 100)).toEqual(recent);
      expect(await pruneIngestLog(db, cut)).toBe(0);
    });

    it("prunes chain figures older than a time, keeping each coin and source's newest: the newest read unchanged", async () => {
      const day = 86_400_000;
      const cut = T0 - 7 * day;
      const fig = (asset: string, source: string, daysAgo: number) => ({
        asset,
        source,
        observedAt: T0 - daysAgo * day,
        algorithm: 'scrypt',
        difficulty: 1e7 + daysAgo,
        blockReward: 6.25,
        blockTimeSeconds: 150,
        height: 3_000_000 - daysAgo * 576,
        networkHashps: null,
        tipTime: T0 - daysAgo * day - 30_000,
      });
      await saveMiningFigures(db, [
        // A node reporting daily, and the demo source that stopped 30 days ago.
        ...Array.from({ length: 15 }, (_, d) => fig('prune-x', 'node:x', d)),
        ...[30, 31, 40].map((d) => fig('prune-x', 'demo', d)),
        // A coin whose only source stopped 10 days ago, with two sources at that same time.
        ...[10, 11, 20].map((d) => fig('prune-y', 'node:y', d)),
        fig('prune-y', 'node:y2', 10),
      ]);
      const coins = ['prune-x', 'prune-y', 'prune-none'];
      const rows = async (): Promise<string[]> =>
        (
          await db.query<{ asset: string; source: string; observed_at: number }>(
            `SELECT asset, source, observed_at FROM mining_figures WHERE asset LIKE 'prune-%'
             ORDER BY asset, source, observed_at`,
          )
        ).rows.map((r) => `${r.asset}|${r.source}|${(T0 - Number(r.observed_at)) / day}`);
      const newest = await readLatestMining(db, coins);
      expect(newest.get('prune-y')).toMatchObject({ source: 'node:y', observedAt: T0 - 10 * day });

      expect(await pruneMiningFigures(db, cut, 3)).toBe(2 + 2 + 7);
      expect(await readLatestMining(db, coins)).toEqual(newest);
      expect(await rows()).toEqual([
        'prune-x|demo|30',
        ...[7, 6, 5, 4, 3, 2, 1, 0].map((d) => `prune-x|node:x|${d}`),
        'prune-y|node:y|10',
        'prune-y|node:y2|10',
      ]);
      expect(await pruneMiningFigures(db, cut)).toBe(0);
    });

    // Last: it empties every market table.
    it('clears the newest supply records with the supply history (a demo start stopped midway)', async () => {
      expect((await loadLatestSupply(db, 0)).length).toBeGreaterThan(0);
      await clearMarketData(db);
      expect(await loadLatestSupply(db, 0)).toEqual([]);
      expect(await latestDisagreements()).toEqual([]);
    });
  });
}
