/**
 * Signing the proof of reserves from live chain data (src/bridge/live-chain-data.ts over the fake readers of
 * `support/live.ts`), and the attester that re-signs the report on a schedule (src/bridge/attester.ts) on an
 * in-memory store with a fake clock.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { verifyReport } from '../../src/bridge/attestation.ts';
import { ReserveAttester } from '../../src/bridge/attester.ts';
import { LiveChainData } from '../../src/bridge/live-chain-data.ts';
import type { LiveReaders } from '../../src/bridge/live-chain-data.ts';
import { latestSnapshot, takeSnapshot } from '../../src/bridge/snapshots.ts';
import type { Db } from '../../src/store/db.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { changed } from '../../src/store/read-cache.ts';
import { deployment, gate, KEY, LKY, LKY_A, LKY_B, readers, settle, T0 } from './support/live.ts';

/** One in-memory store (PGlite) for the file: opening one takes about a second. */
let db: Db;
beforeAll(async () => {
  db = await openMemoryDb();
});
afterAll(() => db.close());

describe('signing from live chain data', () => {
  it('takeSnapshot builds a "live" report with the readers\' figures that verifies, and stores it', async () => {
    const { live } = readers();
    const snap = await takeSnapshot(db, deployment, new LiveChainData(deployment, live), KEY, T0);
    const r = snap.report;
    expect(r.source).toBe('live');
    expect(r.generatedAt).toBe('2026-01-01T00:00:00.000Z');
    expect(r.signer).toBe(KEY.publicKey);
    expect(
      r.assets.map((a) => [a.ticker, a.reserves.chain, a.reserves.total, a.liabilities.supply, a.ratio]),
    ).toEqual([
      ['LKY', 'luckycoin-testnet', '200000000', '100000000', '2.000000'],
      ['DOGE', 'dogecoin-testnet', '12345678901234567891', '0', null],
    ]);
    expect(r.assets[0]?.reserves.addresses).toEqual([
      { address: LKY_A, balance: '150000000', height: 1_234_567, time: '2025-12-31T23:50:00.000Z' },
      { address: LKY_B, balance: '50000000', height: 1_234_567, time: '2025-12-31T23:50:00.000Z' },
    ]);
    expect(r.assets[0]?.liabilities).toEqual({
      chain: 'solana-devnet',
      ticker: 'wLKY',
      mint: LKY.wrapped.mint,
      supply: '100000000',
      slot: 345_678_901,
      time: '2025-12-31T23:55:00.000Z',
    });

    expect(verifyReport(JSON.parse(snap.canonical), snap.signature, KEY.publicKey)).toBe(true);
    const tampered = JSON.parse(snap.canonical) as typeof r;
    (tampered.assets[0] as (typeof r.assets)[number]).liabilities.supply = '1';
    expect(verifyReport(tampered, snap.signature, KEY.publicKey)).toBe(false);

    const stored = await latestSnapshot(db, deployment);
    expect(stored?.id).toBe(snap.id);
    expect(stored?.report.source).toBe('live');
    expect(stored && verifyReport(stored.report, stored.signature, stored.publicKey)).toBe(true);
  });
});

describe('ReserveAttester', () => {
  const clock = { now: T0 };
  let warns: [string, Record<string, unknown> | undefined][];
  const log = { warn: (msg: string, data?: Record<string, unknown>) => void warns.push([msg, data]) };

  beforeEach(async () => {
    // Each case starts from an empty table (and drops the cached latest snapshot with it).
    await db.query('DELETE FROM bridge_snapshots');
    changed(db, 'bridge_snapshots');
    clock.now = T0;
    warns = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const rowCount = async (): Promise<number> =>
    Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM bridge_snapshots')).rows[0]?.n);

  function attesterWith(live: LiveReaders, everyMs = 120_000): ReserveAttester {
    return new ReserveAttester({
      db,
      deployment,
      chain: new LiveChainData(deployment, live),
      key: KEY,
      everyMs,
      log,
      now: () => clock.now,
    });
  }

  it('attest() signs and stores a snapshot that latestSnapshot then serves; health says so', async () => {
    const att = attesterWith(readers().live, 300_000);
    expect(att.health).toEqual({
      source: 'live',
      everyMs: 300_000,
      lastAttemptAt: null,
      lastSnapshotAt: null,
      lastSnapshotId: null,
      lastError: null,
      failures: 0,
    });
    const snap = await att.attest();
    expect(snap).not.toBeNull();
    const latest = await latestSnapshot(db, deployment);
    expect(latest?.id).toBe(snap?.id);
    expect(latest?.createdAt).toBe(T0);
    expect(latest?.report.source).toBe('live');
    expect(latest?.publicKey).toBe(KEY.publicKey);
    expect(att.health).toMatchObject({
      lastAttemptAt: T0,
      lastSnapshotAt: T0,
      lastSnapshotId: snap?.id,
      lastError: null,
      failures: 0,
    });
    expect(warns).toEqual([]);
  });

  it('two concurrent attest() calls make one read and store one snapshot', async () => {
    const { lky, doge, solana, live } = readers();
    const hold = gate();
    const plain = lky.answer;
    lky.answer = async (a) => {
      await hold.wait;
      return plain(a);
    };
    const att = attesterWith(live);
    const first = att.attest();
    const second = att.attest();
    await settle();
    expect(lky.calls).toHaveLength(1);
    hold.open();
    const [a, b] = await Promise.all([first, second]);
    expect(a?.id).toBeDefined();
    expect(b?.id).toBe(a?.id);
    expect([lky.calls.length, doge.calls.length, solana.calls.length]).toEqual([1, 1, 2]);
    expect(await rowCount()).toBe(1);

    // Once it is done, the next call reads again.
    clock.now = T0 + 1_000;
    const c = await att.attest();
    expect(c?.id).not.toBe(a?.id);
    expect(lky.calls).toHaveLength(2);
    expect(await rowCount()).toBe(2);
  });

  it('a failing read stores nothing, records the error and the failure, and logs at most once a minute', async () => {
    const { lky, live } = readers();
    const att = attesterWith(live);
    const ok = await att.attest();
    const plain = lky.answer;
    lky.answer = () =>
      Promise.reject(new Error('http://lky-node:8332/ validateaddress: HTTP 503, not JSON-RPC'));

    const failAt = async (t: number) => {
      clock.now = t;
      expect(await att.attest()).toBeNull();
    };
    await failAt(T0 + 10_000);
    expect(await rowCount()).toBe(1);
    expect((await latestSnapshot(db, deployment))?.id).toBe(ok?.id);
    expect(att.health).toMatchObject({
      lastAttemptAt: T0 + 10_000,
      lastSnapshotAt: T0,
      lastSnapshotId: ok?.id,
      lastError: 'http://lky-node:8332/ validateaddress: HTTP 503, not JSON-RPC',
      failures: 1,
    });
    expect(warns).toEqual([
      [
        'proof of reserves not signed',
        { network: 'testnet', error: 'http://lky-node:8332/ validateaddress: HTTP 503, not JSON-RPC' },
      ],
    ]);

    await failAt(T0 + 40_000);
    await failAt(T0 + 69_999);
    expect(att.health.failures).toBe(3);
    expect(warns).toHaveLength(1);
    await failAt(T0 + 70_000); // a minute after the last log line
    expect(warns).toHaveLength(2);
    await failAt(T0 + 100_000);
    expect(warns).toHaveLength(2);
    expect(await rowCount()).toBe(1);

    // A later success clears the error; the failure count stays (failures since start).
    lky.answer = plain;
    clock.now = T0 + 130_000;
    const again = await att.attest();
    expect(again).not.toBeNull();
    expect(att.health).toMatchObject({
      lastAttemptAt: T0 + 130_000,
      lastSnapshotAt: T0 + 130_000,
      lastSnapshotId: again?.id,
      lastError: null,
      failures: 5,
    });
    expect((await latestSnapshot(db, deployment))?.id).toBe(again?.id);
  });

  it('a mint whose decimals differ from the deployment signs nothing', async () => {
    const { solana, live } = readers();
    solana.decimals = 6;
    const att = attesterWith(live);
    expect(await att.attest()).toBeNull();
    expect(await rowCount()).toBe(0);
    expect(await latestSnapshot(db, deployment)).toBeNull();
    expect(att.health.lastError).toBe(
      `solana: mint ${LKY.wrapped.mint} has 6 decimals, the deployment says 8`,
    );
    expect(att.health.lastSnapshotId).toBeNull();
  });

  it('start() attests now and every everyMs; stop() clears the timer and waits for the running attempt', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { lky, live } = readers();
    let hold = gate();
    const plain = lky.answer;
    lky.answer = async (a) => {
      await hold.wait;
      return plain(a);
    };
    const att = attesterWith(live, 60_000);
    att.start();
    att.start(); // a second start does not add a timer
    expect(lky.calls).toHaveLength(1);
    const first = att.attest(); // joins the running attempt
    hold.open();
    expect((await first)?.id).toBeDefined();
    expect(lky.calls).toHaveLength(1);

    vi.advanceTimersByTime(60_000);
    expect(lky.calls).toHaveLength(2);
    await att.attest(); // joins the second attempt until it is stored
    expect(await rowCount()).toBe(2);
    hold = gate();
    vi.advanceTimersByTime(60_000);
    expect(lky.calls).toHaveLength(3);

    let stopped = false;
    const stopping = att.stop().then(() => (stopped = true));
    await settle();
    await settle();
    expect(stopped).toBe(false); // the third attempt still waits for its read
    hold.open();
    await stopping;
    expect(att.health.lastError).toBeNull();
    expect(await rowCount()).toBe(3);
    expect((await latestSnapshot(db, deployment))?.id).toBe(att.health.lastSnapshotId);

    vi.advanceTimersByTime(10 * 60_000);
    expect(lky.calls).toHaveLength(3);
  });
});
