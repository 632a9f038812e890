/**
 * Usage per operation (`013_operation_usage.sql`, `src/access/usage-operations.ts`) through the per-process
 * `UsageRecorder`: the same cases on PGlite (`test/access/operation-usage.test.ts`) and on a PostgreSQL server
 * (`test/store/operation-usage.e2e.ts`), as the store contract does.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, OPERATION_RETENTION_MS } from '../../src/access/usage.ts';
import { UsageRecorder } from '../../src/access/usage-recorder.ts';
import { documentsWithTraffic } from '../../src/accounts/app-usage.ts';
import type { Db, Queryable } from '../../src/store/db.ts';

/** 2026-01-01T00:00:00Z. */
const T0 = 1_767_225_600_000;
const KEY_A = '00000000-0000-4000-8000-0000000000a1';
const KEY_B = '00000000-0000-4000-8000-0000000000b1';
const APP = '00000000-0000-4000-8000-00000000a990';
const H1 = 'a'.repeat(64);
const H2 = 'b'.repeat(64);
const doc = (hash: string, version = '1.0.0') => ({ kind: 'document' as const, appId: APP, version, hash });
const tool = (name: string) => ({ kind: 'tool' as const, name });

export function operationUsageContract(name: string, open: () => Promise<Db>): void {
  describe(`usage per operation: ${name}`, () => {
    let db: Db;
    beforeAll(async () => {
      db = await open();
    }, 120_000);
    afterAll(async () => {
      await db.close();
    });
    beforeEach(async () => {
      await db.query('TRUNCATE usage_operation_days');
    });

    it('adds a flush up per key, UTC day and operation in one statement, and two writers add up', async () => {
      const clock = { now: T0 + 3_600_000 };
      const statements: string[] = [];
      const counted: Queryable = {
        query: (sql, params) => {
          statements.push(sql);
          return db.query(sql, params);
        },
      };
      const a = new UsageRecorder(counted, { now: () => clock.now, flushIntervalMs: 3_600_000 });
      const b = new UsageRecorder(db, { now: () => clock.now, flushIntervalMs: 3_600_000 });
      a.operation(KEY_A, doc(H1), 'ok', 12);
      a.operation(KEY_A, doc(H1), 'error', 3);
      a.operation(KEY_A, doc(H1), 'refused', 0);
      a.operation(KEY_A, tool('coin_price'), 'ok', 7.4);
      a.operation(KEY_B, doc(H2, '1.1.0'), 'ok', 5);
      // The next UTC day: a row of its own.
      clock.now = T0 + DAY_MS + 60_000;
      a.operation(KEY_A, doc(H1), 'ok', 1);
      await a.flush();
      // One upsert for the six events (and the first flush's pruning); nothing else was recorded.
      expect(statements.filter((s) => s.includes('INSERT'))).toEqual([
        expect.stringContaining('INSERT INTO usage_operation_days'),
      ]);
      b.operation(KEY_A, doc(H1), 'ok', 100);
      await b.flush();

      const rows = await db.query<Record<string, unknown>>(
        `SELECT key_id, day, kind, operation, app_id, version, requests, errors, refusals, cost
         FROM usage_operation_days ORDER BY day, key_id, kind, operation`,
      );
      expect(rows.rows.map((r) => ({ ...r, day: Number(r['day']), cost: Number(r['cost']) }))).toEqual([
        {
          key_id: KEY_A,
          day: T0,
          kind: 'document',
          operation: H1,
          app_id: APP,
          version: '1.0.0',
          requests: 3,
          errors: 1,
          refusals: 1,
          cost: 15,
        },
        {
          key_id: KEY_A,
          day: T0,
          kind: 'tool',
          operation: 'coin_price',
          app_id: '',
          version: '',
          requests: 1,
          errors: 0,
          refusals: 0,
          cost: 7,
        },
        {
          key_id: KEY_B,
          day: T0,
          kind: 'document',
          operation: H2,
          app_id: APP,
          version: '1.1.0',
          requests: 1,
          errors: 0,
          refusals: 0,
          cost: 5,
        },
        {
          key_id: KEY_A,
          day: T0 + DAY_MS,
          kind: 'document',
          operation: H1,
          app_id: APP,
          version: '1.0.0',
          requests: 2,
          errors: 0,
          refusals: 0,
          cost: 101,
        },
      ]);

      // Reads per key, summed over the window: tools first, then documents, most requested first.
      const [ofA, ofB, none] = await a.operationsOfKeys([KEY_A, KEY_B.toUpperCase(), 'not-a-key'], T0);
      expect(ofA).toEqual([
        {
          kind: 'tool',
          operation: 'coin_price',
          appId: null,
          version: null,
          requests: 1,
          errors: 0,
          refusals: 0,
          cost: 7,
        },
        {
          kind: 'document',
          operation: H1,
          appId: APP,
          version: '1.0.0',
          requests: 5,
          errors: 1,
          refusals: 1,
          cost: 116,
        },
      ]);
      expect(ofB?.map((o) => o.operation)).toEqual([H2]);
      expect(none).toEqual([]);
      // From the second day on only.
      expect((await a.operationsOfKeys([KEY_A], T0 + DAY_MS + 5))[0]?.map((o) => o.requests)).toEqual([2]);

      // What the schema check reads: documents with traffic since a time (the whole UTC day holding it).
      expect([...(await documentsWithTraffic(db, T0 + 5))].sort()).toEqual([H1, H2]);
      expect([...(await documentsWithTraffic(db, T0 + DAY_MS + 5))]).toEqual([H1]);
      expect((await documentsWithTraffic(db, T0 + 2 * DAY_MS)).size).toBe(0);
    });

    it('keeps 40 days: older days are deleted when the recorder writes', async () => {
      const clock = { now: T0 };
      const r = new UsageRecorder(db, {
        now: () => clock.now,
        flushIntervalMs: 3_600_000,
        pruneIntervalMs: 0,
      });
      r.operation(KEY_A, tool('prices'), 'ok', 1);
      await r.flush();
      clock.now = T0 + OPERATION_RETENTION_MS; // the first day is exactly 40 days back: still whole
      r.operation(KEY_A, tool('prices'), 'ok', 1);
      await r.flush();
      expect((await db.query('SELECT day FROM usage_operation_days')).rows).toHaveLength(2);
      clock.now = T0 + OPERATION_RETENTION_MS + DAY_MS;
      r.operation(KEY_A, tool('prices'), 'ok', 1);
      await r.flush();
      const days = await db.query<{ day: number }>('SELECT day FROM usage_operation_days ORDER BY day');
      expect(days.rows.map((d) => Number(d.day))).toEqual([
        T0 + OPERATION_RETENTION_MS,
        T0 + OPERATION_RETENTION_MS + DAY_MS,
      ]);
    });

    it('a failed write drops its counts (never retried) and the next flush writes again', async () => {
      const clock = { now: T0 };
      let fail = true;
      const flaky: Queryable = {
        query: (sql, params) => (fail ? Promise.reject(new Error('store down')) : db.query(sql, params)),
      };
      const warned: string[] = [];
      const r = new UsageRecorder(flaky, {
        now: () => clock.now,
        flushIntervalMs: 3_600_000,
        log: { warn: (m: string) => warned.push(m) },
      });
      r.operation(KEY_A, doc(H1), 'ok', 1);
      r.operation(KEY_A, doc(H1), 'ok', 1);
      await r.flush();
      expect(r.dropped).toBe(2);
      expect(warned).toEqual(['usage per operation write failed: counts dropped']);
      fail = false;
      r.operation(KEY_A, doc(H1), 'ok', 1);
      await r.flush();
      const n = await db.query<{ requests: number }>('SELECT requests FROM usage_operation_days');
      expect(n.rows.map((x) => x.requests)).toEqual([1]);
    });
  });
}
