/**
 * `LogReader`: a replay's question "is this snapshot in the ingest log?" answered from slices of the log read ahead
 * by time, exactly as a read per snapshot answers it, whatever the slice, the order of the questions, or the number
 * of snapshots at one time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreparedSnapshot } from '../../src/ingest/pipeline.ts';
import { LogReader } from '../../src/market/intake.ts';
import type { Db } from '../../src/store/db.ts';
import { logSnapshots, loggedSnapshots } from '../../src/store/inputs.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { countingDb } from '../support/counting-db.ts';

const T0 = Date.UTC(2026, 10, 20);
const snap = (source: string, ts: number, digest: string): PreparedSnapshot => ({
  source,
  ts,
  digest,
  tickers: [],
  supply: [],
  fx: [],
  mining: [],
  rejected: 0,
});

let db: Db;
beforeAll(async () => {
  db = await openMemoryDb();
  const rows = [];
  for (let i = 0; i < 20; i++)
    rows.push({ source: 'a', ts: T0 + i * 1000, digest: `d${i}`, tickers: 1, rejected: 0 });
  // Seven snapshots of one time (more than a slice), and another source.
  for (let k = 0; k < 7; k++)
    rows.push({ source: 'a', ts: T0 + 30_000, digest: `same${k}`, tickers: 1, rejected: 0 });
  rows.push({ source: 'b', ts: T0 + 5000, digest: 'd5', tickers: 1, rejected: 0 });
  await logSnapshots(db, rows, T0);
});
afterAll(async () => {
  await db.close();
});

describe('LogReader', () => {
  it('answers as a read per snapshot does, in any order, across slices and crowded times', async () => {
    const questions: PreparedSnapshot[] = [];
    for (let i = 0; i < 40; i++)
      questions.push(snap('a', T0 + i * 1000, `d${i}`), snap('a', T0 + i * 1000, 'x'));
    for (let k = 0; k < 9; k++) questions.push(snap('a', T0 + 30_000, `same${k}`));
    questions.push(snap('b', T0 + 5000, 'd5'), snap('b', T0 + 6000, 'd6'), snap('a', T0 + 3000, 'd3'));
    for (const slice of [1, 3, 1000]) {
      const reader = new LogReader(db, slice);
      for (const q of questions) {
        const want = (await loggedSnapshots(db, q.source, [q])).has(`${q.ts}|${q.digest}`);
        expect([slice, q.source, q.ts - T0, q.digest, await reader.has(q)]).toEqual([
          slice,
          q.source,
          q.ts - T0,
          q.digest,
          want,
        ]);
      }
    }
  });

  it('reads the log once for a replay into a store that does not hold it', async () => {
    const statements: string[] = [];
    const reader = new LogReader(countingDb(db, statements));
    for (let i = 0; i < 100; i++) expect(await reader.has(snap('c', T0 + i * 300_000, 'z'))).toBe(false);
    expect(statements).toHaveLength(1);
  });
});
