/**
 * Live chain data for the proof of reserves (src/bridge/live-chain-data.ts) over fake readers (plain objects with
 * `balances` / `tokenSupply`, as a node, a Blockbook explorer or a Solana endpoint would be), and the attester that
 * re-signs the report on a schedule (src/bridge/attester.ts) on an in-memory store with a fake clock.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { keyFromSeedHex, verifyReport } from '../../src/bridge/attestation.ts';
import { ReserveAttester } from '../../src/bridge/attester.ts';
import { loadDeployment } from '../../src/bridge/deployment.ts';
import { DeploymentError } from '../../src/bridge/model.ts';
import type { BridgeAsset } from '../../src/bridge/model.ts';
import { LiveChainData } from '../../src/bridge/live-chain-data.ts';
import type {
  LiveBalance,
  LiveBalanceReader,
  LiveReaders,
  LiveSupplyReader,
} from '../../src/bridge/live-chain-data.ts';
import { latestSnapshot, takeSnapshot } from '../../src/bridge/snapshots.ts';
import type { Db } from '../../src/store/db.ts';
import { openDb } from '../../src/store/open.ts';
import { changed } from '../../src/store/read-cache.ts';

const T0 = 1_767_225_600_000; // 2026-01-01T00:00:00Z
const BLOCK_TIME = 1_767_225_000_000; // 2025-12-31T23:50:00Z
const SLOT_TIME = 1_767_225_300_000; // 2025-12-31T23:55:00Z
const KEY = keyFromSeedHex('11'.repeat(32));

const deployment = loadDeployment('testnet');
const asset = (ticker: string): BridgeAsset => {
  const a = deployment.assets.find((x) => x.ticker === ticker);
  if (!a) throw new Error(`no ${ticker} in the testnet deployment`);
  return a;
};
const LKY = asset('LKY');
const DOGE = asset('DOGE');
const [LKY_A, LKY_B] = LKY.reserveAddresses as [string, string];
const [DOGE_A, DOGE_B] = DOGE.reserveAddresses as [string, string];

/** Base units held by each reserve address in these tests. */
const HELD: Record<string, bigint> = {
  [LKY_A]: 150_000_000n,
  [LKY_B]: 50_000_000n,
  [DOGE_A]: 12_345_678_901_234_567_891n, // above 2^63: kept exact
  [DOGE_B]: 0n,
};
const SUPPLY: Record<string, bigint> = { [LKY.wrapped.mint]: 100_000_000n, [DOGE.wrapped.mint]: 0n };

/** A balance reader as a node or Blockbook source is one: it records each call; `answer` may be replaced. */
interface FakeBalances extends LiveBalanceReader {
  calls: string[][];
  answer: (addresses: readonly string[]) => Promise<LiveBalance[]>;
}
/** A supply reader as a Solana source is one: it records each mint asked for; `decimals` may be changed. */
interface FakeSupply extends LiveSupplyReader {
  calls: string[];
  decimals: number;
}

function balanceReader(id: string, height: number): FakeBalances {
  const calls: string[][] = [];
  const reader: FakeBalances = {
    id,
    calls,
    answer: async (addresses) =>
      addresses.map((address) => ({ address, units: HELD[address] ?? 0n, height, blockTime: BLOCK_TIME })),
    balances(addresses) {
      calls.push([...addresses]);
      return reader.answer(addresses);
    },
  };
  return reader;
}

function supplyReader(id: string): FakeSupply {
  const calls: string[] = [];
  const reader: FakeSupply = {
    id,
    calls,
    decimals: 8,
    tokenSupply(mint) {
      calls.push(mint);
      return Promise.resolve({
        units: SUPPLY[mint] ?? 0n,
        decimals: reader.decimals,
        slot: 345_678_901,
        blockTime: SLOT_TIME,
      });
    },
  };
  return reader;
}

function readers() {
  const lky = balanceReader('node:lky', 1_234_567);
  const doge = balanceReader('blockbook:doge', 5_432_100);
  const solana = supplyReader('solana');
  const live: LiveReaders = {
    balances: { 'luckycoin-testnet': lky, 'dogecoin-testnet': doge },
    tokenSupply: { 'solana-devnet': solana },
  };
  return { lky, doge, solana, live };
}

/** A promise and its resolver: holds a fake read until the test lets it go. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => {};
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

/** Lets pending I/O callbacks run (not faked by the fake timers used below). */
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

/** One in-memory store (PGlite) for the file: opening one takes about a second. */
let db: Db;
beforeAll(async () => {
  db = await openDb({});
});
afterAll(() => db.close());

describe('LiveChainData', () => {
  it('says source "live"', () => {
    expect(new LiveChainData(deployment, readers().live).source).toBe('live');
  });

  describe('refuses a deployment chain without a reader, naming the chain and what it reads', () => {
    it('a UTXO chain without a balance reader', () => {
      const { lky, solana } = readers();
      const build = () =>
        new LiveChainData(deployment, {
          balances: { 'luckycoin-testnet': lky },
          tokenSupply: { 'solana-devnet': solana },
        });
      expect(build).toThrow(DeploymentError);
      expect(build).toThrow(
        'the sources file\'s bridge section names no source for bridge.balances["dogecoin-testnet"] (DOGE reserves)',
      );
    });

    it('every missing reader, in deployment order', () => {
      expect(() => new LiveChainData(deployment, { balances: {}, tokenSupply: {} })).toThrow(
        "the sources file's bridge section names no source for " +
          'bridge.balances["luckycoin-testnet"] (LKY reserves), ' +
          'bridge.tokenSupply["solana-devnet"] (wLKY supply), ' +
          'bridge.balances["dogecoin-testnet"] (DOGE reserves), ' +
          'bridge.tokenSupply["solana-devnet"] (wDOGE supply)',
      );
    });

    it('a reader under another chain id does not count', () => {
      const { lky, doge, solana } = readers();
      expect(
        () =>
          new LiveChainData(deployment, {
            balances: { 'luckycoin-testnet': lky, dogecoin: doge },
            tokenSupply: { 'solana-devnet': solana },
          }),
      ).toThrow('bridge.balances["dogecoin-testnet"] (DOGE reserves)');
    });
  });

  describe('reserveBalances', () => {
    it("asks the reader of the addresses' chain and maps units to decimal strings, block time to ISO", async () => {
      const { lky, doge, live } = readers();
      const chain = new LiveChainData(deployment, live);
      expect(await chain.reserveBalances([DOGE_A, DOGE_B])).toEqual([
        {
          address: DOGE_A,
          balance: '12345678901234567891',
          height: 5_432_100,
          time: '2025-12-31T23:50:00.000Z',
        },
        { address: DOGE_B, balance: '0', height: 5_432_100, time: '2025-12-31T23:50:00.000Z' },
      ]);
      expect(doge.calls).toEqual([[DOGE_A, DOGE_B]]);
      expect(lky.calls).toEqual([]);
      expect(await chain.reserveBalances([LKY_B])).toEqual([
        { address: LKY_B, balance: '50000000', height: 1_234_567, time: '2025-12-31T23:50:00.000Z' },
      ]);
      expect(lky.calls).toEqual([[LKY_B]]);
    });

    it('refuses asOf: it reads the newest block only (and asks nobody)', async () => {
      const { lky, live } = readers();
      await expect(new LiveChainData(deployment, live).reserveBalances([LKY_A], 1_234_000)).rejects.toThrow(
        'live chain data reads the newest block only',
      );
      expect(lky.calls).toEqual([]);
    });

    it('refuses addresses no asset holds, and a mix of two assets', async () => {
      const chain = new LiveChainData(deployment, readers().live);
      await expect(chain.reserveBalances(['mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef'])).rejects.toThrow(
        'no asset of the testnet deployment holds these addresses',
      );
      await expect(chain.reserveBalances([LKY_A, DOGE_A])).rejects.toThrow(
        'no asset of the testnet deployment holds these addresses',
      );
    });

    it.each<[string, (asked: readonly string[]) => LiveBalance[]]>([
      [
        'in another order',
        (asked) =>
          [...asked].reverse().map((address) => ({ address, units: 1n, height: 1, blockTime: BLOCK_TIME })),
      ],
      ['fewer', (asked) => [{ address: asked[0] as string, units: 1n, height: 1, blockTime: BLOCK_TIME }]],
      [
        'one more',
        (asked) =>
          [...asked, LKY_A].map((address) => ({ address, units: 1n, height: 1, blockTime: BLOCK_TIME })),
      ],
      [
        'for another address',
        (asked) => asked.map(() => ({ address: DOGE_A, units: 1n, height: 1, blockTime: BLOCK_TIME })),
      ],
    ])('refuses an answer for other addresses than asked: %s', async (_name, answer) => {
      const { lky, live } = readers();
      lky.answer = async (asked) => answer(asked);
      await expect(new LiveChainData(deployment, live).reserveBalances([LKY_A, LKY_B])).rejects.toThrow(
        'node:lky answered for other addresses than asked',
      );
    });

    it("passes the reader's own failure on", async () => {
      const { lky, live } = readers();
      lky.answer = () =>
        Promise.reject(new Error('http://lky-node:8332/: HTTP 401, the RPC credentials are wrong'));
      await expect(new LiveChainData(deployment, live).reserveBalances([LKY_A])).rejects.toThrow(
        'HTTP 401, the RPC credentials are wrong',
      );
    });
  });

  describe('wrappedSupply', () => {
    it("asks the mint's chain reader and maps units, slot and time", async () => {
      const { solana, live } = readers();
      SUPPLY[DOGE.wrapped.mint] = 18_446_744_073_709_551_615n; // u64::MAX: exact
      try {
        expect(await new LiveChainData(deployment, live).wrappedSupply(DOGE.wrapped.mint)).toEqual({
          supply: '18446744073709551615',
          slot: 345_678_901,
          time: '2025-12-31T23:55:00.000Z',
        });
      } finally {
        SUPPLY[DOGE.wrapped.mint] = 0n;
      }
      expect(solana.calls).toEqual([DOGE.wrapped.mint]);
    });

    it("refuses a supply whose decimals differ from the deployment's", async () => {
      const { solana, live } = readers();
      solana.decimals = 9;
      await expect(new LiveChainData(deployment, live).wrappedSupply(LKY.wrapped.mint)).rejects.toThrow(
        `solana: mint ${LKY.wrapped.mint} has 9 decimals, the deployment says 8`,
      );
    });

    it('refuses a mint of no asset', async () => {
      const mint = 'EPjFWdd5AufqSSqeM2qJxyxfWHGkWHZfxkKRj8NQT1v';
      await expect(new LiveChainData(deployment, readers().live).wrappedSupply(mint)).rejects.toThrow(
        `no asset of the testnet deployment holds mint ${mint}`,
      );
    });
  });
});

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
