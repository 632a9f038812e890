/**
 * `Coin.mining` in the markets subgraph (executed in process) over a test market whose store holds the demo mining
 * figures (src/demo/mining.ts) of TEST_NOW's hour, plus two hand-written observations: an older litecoin one from
 * another source (the newest wins) and a bitcoin one with unknown figures (nulls, no hashrate). A counting store
 * proves the batching: the coins of one request cost one `readMining`.
 */
import { createRequire } from 'node:module';
import type * as GraphQL from 'graphql';
import type { ExecutionResult } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS, ASSET_BY_ID, KIT_TICKERS } from '../../src/catalog/assets.ts';
import {
  DEMO_MINING_SOURCE,
  demoMiningCoins,
  demoMiningFigures,
  demoMiningParams,
  ensureDemoMining,
  rewardAt,
} from '../../src/demo/mining.ts';
import { networkHashrate } from '../../src/market/mining.ts';
import { servedNumber } from '../../src/engine/served-numbers.ts';
import { engineConfig } from '../../src/start/wiring.ts';
import { readLatestMining, saveMiningFigures } from '../../src/store/mining.ts';
import type { MarketsStore } from '../../subgraphs/markets/context.ts';
import { createMarketsSubgraph } from '../../subgraphs/markets/index.ts';
import type { MarketsSubgraph } from '../../subgraphs/markets/index.ts';
import { storeOf } from '../../subgraphs/markets/loaders.ts';
import { createTestMarket, TEST_NOW } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';

const { graphql } = createRequire(import.meta.url)('graphql') as typeof GraphQL;

const SEED = 20261121;
const HOUR = 3_600_000;
const OBSERVED = Math.floor(TEST_NOW / HOUR) * HOUR;

let tm: TestMarket;
let sg: MarketsSubgraph;
/** Every `readMining` the store served: the ids of one SQL read. */
const miningReads: (readonly string[])[] = [];
const batches: { loader: string; keys: readonly unknown[] }[] = [];

beforeAll(async () => {
  tm = await createTestMarket({ days: 3 });
  expect(await ensureDemoMining(tm.db, { seed: SEED, assets: ASSETS, now: TEST_NOW })).toBe(19);
  await saveMiningFigures(tm.db, [
    // A node's observation, newer than the demo's of the hour: it wins, with the chain figures it reports.
    {
      asset: 'pepecoin',
      source: 'node:pep',
      observedAt: OBSERVED + 60_000,
      algorithm: 'scrypt',
      difficulty: 1234.5,
      blockReward: 5000,
      blockTimeSeconds: 61.5,
      height: 812_345,
      networkHashps: 9.9e10,
      tipTime: OBSERVED + 30_000,
    },
    // Older, from another source: the demo observation of the hour is newer and wins.
    {
      asset: 'litecoin',
      source: 'recorded-explorer',
      observedAt: OBSERVED - 5 * HOUR,
      algorithm: 'scrypt',
      difficulty: 1,
      blockReward: 1,
      blockTimeSeconds: 150,
      height: null,
      networkHashps: null,
      tipTime: null,
    },
    // A source that knows the algorithm and the block time only.
    {
      asset: 'bitcoin',
      source: 'recorded-node',
      observedAt: OBSERVED - HOUR,
      algorithm: 'sha-256',
      difficulty: null,
      blockReward: null,
      blockTimeSeconds: 600,
      height: null,
      networkHashps: null,
      tipTime: null,
    },
  ]);
  const inner = storeOf(tm.market);
  const store: MarketsStore = {
    snapshot: () => inner.snapshot(),
    readBarsMany: (ids, res, from, to) => inner.readBarsMany(ids, res, from, to),
    openDailyBar: (id, now) => inner.openDailyBar(id, now),
    readMining: (ids) => {
      miningReads.push(ids);
      return (inner.readMining as NonNullable<MarketsStore['readMining']>)(ids);
    },
  };
  sg = createMarketsSubgraph({
    market: tm.market,
    engine: engineConfig({ staleAfterMs: 900_000 }),
    store,
    now: () => TEST_NOW,
    hooks: { onBatch: (loader, keys) => batches.push({ loader, keys }) },
  });
}, 120_000);
afterAll(async () => {
  await tm?.close();
});

async function ok<T>(source: string, variableValues?: Record<string, unknown>, subgraph = sg): Promise<T> {
  const r: ExecutionResult = await graphql({
    schema: subgraph.schema,
    source,
    variableValues,
    contextValue: subgraph.contextFor(),
  });
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data as T;
}

interface Mining {
  algorithm: string;
  difficulty: number | null;
  blockReward: number | null;
  blockTimeSeconds: number | null;
  networkHashrate: number | null;
  source: string;
  observedAt: string | null;
}
const MINING =
  'mining { algorithm difficulty blockReward blockTimeSeconds networkHashrate source observedAt }';

describe('Coin.mining', () => {
  it('serves the stored demo figures of a mined kit coin, with the hashrate they imply', async () => {
    const d = await ok<{ coin: { mining: Mining } }>(`query ($id: ID!) { coin(id: $id) { ${MINING} } }`, {
      id: 'luckycoin',
    });
    const f = demoMiningFigures(SEED, [ASSET_BY_ID.get('luckycoin')!], OBSERVED)[0]!;
    expect(d.coin.mining).toEqual({
      algorithm: 'scrypt',
      difficulty: f.difficulty,
      blockReward: f.blockReward,
      blockTimeSeconds: 60,
      // Served by the served-number rule: at most 12 significant digits.
      networkHashrate: servedNumber(((f.difficulty as number) * 2 ** 32) / 60),
      source: DEMO_MINING_SOURCE,
      observedAt: new Date(OBSERVED).toISOString(),
    });
  });

  it('every kit coin is mined (scrypt; DigiByte: its scrypt algorithm); the newest observation wins', async () => {
    const d = await ok<{ coins: { edges: { node: { id: string; mining: Mining | null } }[] } }>(
      `{ coins(first: 250) { edges { node { id ${MINING} } } } }`,
    );
    const byId = new Map(d.coins.edges.map((e) => [e.node.id, e.node.mining]));
    const kit = ASSETS.filter((a) => a.kitTicker !== undefined);
    expect(kit.map((a) => a.kitTicker)).toEqual(KIT_TICKERS);
    for (const a of kit) {
      const m = byId.get(a.id);
      // Pepecoin's newest observation is the node's (see beforeAll).
      expect(m, a.id).toMatchObject({
        algorithm: 'scrypt',
        source: a.id === 'pepecoin' ? 'node:pep' : 'demo',
      });
      expect(m?.networkHashrate, a.id).toBeGreaterThan(0);
    }
    expect(byId.get('litecoin')).toMatchObject({ blockTimeSeconds: 150, blockReward: 6.25 });
    expect(byId.get('dogecoin')).toMatchObject({ blockTimeSeconds: 60, blockReward: 10_000 });
    // 15-second blocks shared by five algorithms: one scrypt block every 75 seconds.
    expect(byId.get('digibyte')).toMatchObject({ blockTimeSeconds: 75 });
    // Not mined (Solana, Ethereum), or mined but without any source here (Monero): null, not an error.
    for (const id of ['solana', 'ethereum', 'monero', 'tether']) expect(byId.get(id), id).toBeNull();
  });

  it('unknown figures are null, and so is the hashrate they would give', async () => {
    const d = await ok<{ coin: { mining: Mining } }>(`{ coin(id: "bitcoin") { ${MINING} } }`);
    expect(d.coin.mining).toEqual({
      algorithm: 'sha-256',
      difficulty: null,
      blockReward: null,
      blockTimeSeconds: 600,
      networkHashrate: null,
      source: 'recorded-node',
      observedAt: new Date(OBSERVED - HOUR).toISOString(),
    });
  });

  it('is batched: the coins of one request cost one read', async () => {
    miningReads.length = 0;
    batches.length = 0;
    const d = await ok<{ coins: { edges: unknown[] } }>(
      `{ coins(first: 100) { edges { node { id mining { algorithm } } } } a: coin(id: "litecoin") { mining { source } } }`,
    );
    expect(d.coins.edges.length).toBeGreaterThan(60);
    expect(miningReads).toHaveLength(1);
    expect(new Set(miningReads[0])).toEqual(
      new Set([...d.coins.edges.map((e) => (e as { node: { id: string } }).node.id), 'litecoin']),
    );
    expect(batches.filter((b) => b.loader === 'mining')).toHaveLength(1);
  });

  it('is not read at all when not asked for', async () => {
    miningReads.length = 0;
    await ok(`{ coins(first: 20) { edges { node { id price } } } }`);
    expect(miningReads).toHaveLength(0);
  });

  it('is null for every coin when the store knows no mining figures', async () => {
    const inner = storeOf(tm.market);
    const bare = createMarketsSubgraph({
      market: tm.market,
      engine: engineConfig({ staleAfterMs: 900_000 }),
      store: {
        snapshot: () => inner.snapshot(),
        readBarsMany: (ids, res, from, to) => inner.readBarsMany(ids, res, from, to),
        openDailyBar: (id, now) => inner.openDailyBar(id, now),
      },
      now: () => TEST_NOW,
    });
    const d = await ok<{ coin: { mining: null } }>(
      `{ coin(id: "litecoin") { mining { algorithm } } }`,
      {},
      bare,
    );
    expect(d.coin.mining).toBeNull();
  });
});

describe('the demo mining source', () => {
  it('is idempotent: the same hour twice writes nothing', async () => {
    expect(await ensureDemoMining(tm.db, { seed: SEED, assets: ASSETS, now: TEST_NOW + 60_000 })).toBe(0);
    const rows = await tm.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM mining_figures WHERE source = $1',
      ['demo'],
    );
    expect(rows.rows[0]?.n).toBe(19);
  });

  it('is a pure function of the seed, the coin and the time', () => {
    const a = demoMiningFigures(SEED, ASSETS, OBSERVED);
    expect(demoMiningFigures(SEED, ASSETS, OBSERVED)).toEqual(a);
    expect(demoMiningCoins(ASSETS).map((x) => x.id)).toEqual(a.map((f) => f.asset));
    const other = demoMiningFigures(SEED + 1, ASSETS, OBSERVED);
    expect(other.map((f) => f.difficulty)).not.toEqual(a.map((f) => f.difficulty));
    // Consensus parameters do not depend on the seed where they come from the catalog or a known schedule.
    expect(other.find((f) => f.asset === 'litecoin')?.blockReward).toBe(6.25);
    // The hashrate drifts over time.
    const later = demoMiningFigures(SEED, ASSETS, OBSERVED + 30 * 24 * HOUR);
    expect(later.map((f) => f.difficulty)).not.toEqual(a.map((f) => f.difficulty));
  });

  it('follows the known reward schedules', () => {
    const ltc = demoMiningParams(SEED, ASSET_BY_ID.get('litecoin')!)!;
    // Heights estimated at 150 s since 2011-10-07: block 840,000 ≈ 2015-09, 1,680,000 ≈ 2019-09, 2,520,000 ≈ 2023-09.
    expect(rewardAt(ltc, Date.UTC(2013, 0, 1))).toBe(50);
    expect(rewardAt(ltc, Date.UTC(2017, 0, 1))).toBe(25);
    expect(rewardAt(ltc, Date.UTC(2021, 0, 1))).toBe(12.5);
    expect(rewardAt(ltc, Date.UTC(2026, 0, 1))).toBe(6.25);
    expect(rewardAt(ltc, Date.UTC(2028, 0, 1))).toBe(3.125);
    expect(rewardAt(demoMiningParams(SEED, ASSET_BY_ID.get('dogecoin')!)!, TEST_NOW)).toBe(10_000);
    expect(demoMiningParams(SEED, ASSET_BY_ID.get('solana')!)).toBeNull();
    expect(demoMiningParams(SEED, ASSET_BY_ID.get('bitcoin')!)).toBeNull();
  });

  it('stores difficulties from which the formula gives the generated hashrate back', async () => {
    const stored = await readLatestMining(tm.db, ['litecoin', 'dogecoin']);
    const ltc = stored.get('litecoin')!;
    expect(ltc.source).toBe('demo');
    // networkHashrate = difficulty × 2^32 / blockTime; about 1 PH/s for the demo Litecoin at the test time.
    const h = networkHashrate(ltc)!;
    expect(h).toBe(((ltc.difficulty as number) * 4_294_967_296) / 150);
    expect(h).toBeGreaterThan(1e14);
    expect(h).toBeLessThan(1e16);
    const none = { networkHashps: null };
    expect(
      networkHashrate({ ...none, algorithm: 'randomx', difficulty: 1e9, blockTimeSeconds: 120 }),
    ).toBeNull();
    expect(networkHashrate({ ...none, algorithm: 'scrypt', difficulty: 0, blockTimeSeconds: 60 })).toBeNull();
    // A hashrate the source reports (a node's getnetworkhashps) is served as reported, for any algorithm.
    expect(
      networkHashrate({ algorithm: 'randomx', difficulty: null, blockTimeSeconds: null, networkHashps: 7.5 }),
    ).toBe(7.5);
  });
});

describe('Coin.mining from a node, and as it ages', () => {
  const NODE =
    'mining { difficulty blockReward blockTimeSeconds networkHashrate height tipTime source stale }';
  const at = (now: number): MarketsSubgraph =>
    createMarketsSubgraph({
      market: tm.market,
      engine: engineConfig({ staleAfterMs: 900_000 }),
      now: () => now,
    });

  it("serves a node's height, tip time and its own hashrate figure", async () => {
    const d = await ok<{ coin: { mining: unknown } }>(`{ coin(id: "pepecoin") { ${NODE} } }`);
    expect(d.coin.mining).toEqual({
      difficulty: 1234.5,
      blockReward: 5000,
      blockTimeSeconds: 61.5,
      networkHashrate: 9.9e10, // as reported, not difficulty × 2^32 / block time
      height: 812_345,
      tipTime: new Date(OBSERVED + 30_000).toISOString(),
      source: 'node:pep',
      stale: false,
    });
  });

  it('flags figures older than 2 hours as stale and serves none older than a day', async () => {
    const q = `{ coin(id: "pepecoin") { ${NODE} } }`;
    const observed = OBSERVED + 60_000;
    const fresh = await ok<{ coin: { mining: { stale: boolean } } }>(q, {}, at(observed + 2 * HOUR));
    expect(fresh.coin.mining.stale).toBe(false);
    const stale = await ok<{ coin: { mining: { stale: boolean; height: number } } }>(
      q,
      {},
      at(observed + 2 * HOUR + 1),
    );
    expect(stale.coin.mining).toMatchObject({ stale: true, height: 812_345 });
    const gone = await ok<{ coin: { mining: null } }>(q, {}, at(observed + 24 * HOUR + 1));
    expect(gone.coin.mining).toBeNull();
  });
});
