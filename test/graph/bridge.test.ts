/**
 * The bridge subgraph executed in process (graphql's `graphql()` against the built federated schema) over an
 * in-memory PGlite store, side by side with the REST bridge API (`/api/coins`, `/api/config`,
 * `/api/proof-of-reserves` via Fastify's `inject`) on the same store and the same fake clock: the graph must give the
 * same figures and the same signature. The store is wrapped in a Proxy that records every `query`, so the tests
 * assert exactly how often a request reads SQL.
 *
 * Other deployments are in `bridge-variants.test.ts`; the helpers both files use are in `support/bridge.ts`.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFromSeedHex } from '../../src/bridge/attestation.ts';
import { RecordedChainData } from '../../src/bridge/chain-data.ts';
import { loadDeployment } from '../../src/bridge/deployment.ts';
import { takeSnapshot } from '../../src/bridge/snapshots.ts';
import type { Db } from '../../src/store/db.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { BridgeService } from '../../src/bridge/service.ts';
import { createBridgeSubgraph } from '../../subgraphs/bridge/index.ts';
import type { BridgeSubgraph } from '../../subgraphs/bridge/index.ts';
import { countingDb } from '../support/counting-db.ts';
import {
  clientCanonical,
  clientVerifies,
  graphql,
  KEY,
  ok,
  PROOF,
  rest,
  restFor,
  run,
  STALE_AFTER_MS,
  T0,
} from './support/bridge.ts';
import type { Body } from './support/bridge.ts';

/** Markets coin ids of the testnet tickers (src/catalog/assets.ts). */
const COIN_IDS: Record<string, string> = { LKY: 'luckycoin', DOGE: 'dogecoin' };
const iso = (t: string): string => new Date(t).toISOString();

/** REST's report as the graph shows it: enums UPPER_CASE, times as DateTime, a `coin` reference per asset. */
function graphView(report: Body): Body {
  return {
    ...report,
    source: String(report.source).toUpperCase(),
    generatedAt: iso(report.generatedAt),
    assets: report.assets.map((a: Body) => ({
      ...a,
      coin: { id: COIN_IDS[a.ticker] },
      reserves: {
        ...a.reserves,
        addresses: a.reserves.addresses.map((b: Body) => ({ ...b, time: iso(b.time) })),
      },
      liabilities: { ...a.liabilities, time: iso(a.liabilities.time) },
    })),
  };
}

const LANE_FIELDS = `id asset direction from to status pausedReason confirmations minAmount maxAmount
  fees { fixed percent } depositAddress`;

describe('bridge subgraph (testnet, from-secret key)', () => {
  const deployment = loadDeployment('testnet');
  const clock = { now: T0 };
  const queries: string[] = [];
  const batches: { loader: string; keys: readonly unknown[] }[] = [];
  let db: Db;
  let app: FastifyInstance;
  let sg: BridgeSubgraph;

  beforeAll(async () => {
    db = await openMemoryDb();
    app = await restFor(db, deployment, clock);
    sg = createBridgeSubgraph({
      bridge: new BridgeService(countingDb(db, queries), {
        deployment,
        staleAfterMs: STALE_AFTER_MS,
        now: () => clock.now,
      }),
      hooks: { onBatch: (loader, keys) => batches.push({ loader, keys }) },
    });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  /** Id of the newest snapshot, read from the raw store (not counted). */
  async function latestId(): Promise<number> {
    const { rows } = await db.query<{ id: number }>('SELECT max(id) AS id FROM bridge_snapshots');
    return Number(rows[0]?.id);
  }

  it('is named bridge and builds without touching the store', () => {
    expect(sg.name).toBe('bridge');
    expect(queries).toEqual([]);
  });

  it('before the first snapshot: proofOfReserves is null without an error (REST: 404 NO_SNAPSHOT)', async () => {
    expect((await rest(app, '/api/proof-of-reserves')).body.error.code).toBe('NO_SNAPSHOT');
    const r = await run(
      sg,
      `{ bridge { proofOfReserves { snapshotId } config { attestation { publicKey } } } }`,
    );
    expect(r.errors).toBeUndefined();
    // A from-secret deployment has no known key before its first snapshot, as /api/config.
    expect(r.data).toEqual({
      bridge: { proofOfReserves: null, config: { attestation: { publicKey: null } } },
    });
  });

  it('the deployment and its chains', async () => {
    await takeSnapshot(db, deployment, RecordedChainData.load('testnet'), KEY, T0);
    const d = await ok(
      sg,
      `{ bridge { network version label chains { id kind name ticker cluster bridgeProgram } } }`,
    );
    expect(d.bridge).toEqual({
      network: 'TESTNET',
      version: '2026.1.0-testnet',
      label: deployment.label,
      chains: [
        {
          id: 'luckycoin-testnet',
          kind: 'UTXO',
          name: 'Luckycoin testnet',
          ticker: 'LKY',
          cluster: null,
          bridgeProgram: null,
        },
        {
          id: 'dogecoin-testnet',
          kind: 'UTXO',
          name: 'Dogecoin testnet',
          ticker: 'DOGE',
          cluster: null,
          bridgeProgram: null,
        },
        {
          id: 'solana-devnet',
          kind: 'SOLANA',
          name: 'Solana devnet',
          ticker: null,
          cluster: 'devnet',
          bridgeProgram: 'JDhvnVwd3HVDj9ukYjpvS3gUkmX47zBV1DKCko4GjVR9',
        },
      ],
    });
  });

  it('coins: the /api/coins figures, Coin references and lanes (a paused lane with its reason)', async () => {
    const expected = (await rest(app, '/api/coins')).body;
    const d = await ok(
      sg,
      `{ bridge { coins {
        ticker name decimals coin { id } reserveAddresses paused
        nativeChain { id name }
        wrapped { ticker name decimals chain { id name } mint }
        lanes { ${LANE_FIELDS} }
      } } }`,
    );
    const coins = d.bridge.coins as Body[];
    expect(coins.map((c) => [c.ticker, c.coin])).toEqual([
      ['LKY', { id: 'luckycoin' }],
      ['DOGE', { id: 'dogecoin' }],
    ]);
    expect(coins.map((c) => c.reserveAddresses)).toEqual(deployment.assets.map((a) => a.reserveAddresses));
    // The graph's coins in REST's shape equal /api/coins.
    expect(
      coins.map((c) => ({
        ticker: c.ticker,
        name: c.name,
        decimals: c.decimals,
        nativeChain: c.nativeChain,
        wrapped: c.wrapped,
        paused: c.paused,
        lanes: c.lanes.map((l: Body) => ({
          id: l.id,
          direction: l.direction.toLowerCase(),
          from: l.from,
          to: l.to,
          status: l.status.toLowerCase(),
          paused: l.status === 'PAUSED',
          pausedReason: l.pausedReason,
          confirmations: l.confirmations,
          minAmount: l.minAmount,
          maxAmount: l.maxAmount,
          fees: l.fees,
        })),
      })),
    ).toEqual(expected.coins);
    const dogeUnwrap = coins[1]?.lanes[1];
    expect(dogeUnwrap).toMatchObject({ id: 'doge-unwrap', status: 'PAUSED', direction: 'UNWRAP' });
    expect(dogeUnwrap.pausedReason).toEqual(expect.stringMatching(/\S/));
    expect(coins[1]?.paused).toBe(false); // doge-wrap is still active
  });

  it('lanes and config: the /api/config figures', async () => {
    const expected = (await rest(app, '/api/config')).body;
    const d = await ok(
      sg,
      `{ bridge {
        lanes { ${LANE_FIELDS} }
        config { staleAfterSeconds ratioDecimals attestation { algorithm publicKey pinned schema } }
      } }`,
    );
    expect(
      d.bridge.lanes.map((l: Body) => ({
        ...l,
        direction: l.direction.toLowerCase(),
        status: l.status.toLowerCase(),
        paused: l.status === 'PAUSED',
      })),
    ).toEqual(expected.lanes);
    expect(d.bridge.lanes[0].depositAddress).toBe('npyK4QkJUoAyvG4JfFGSTMMaRPWcXHHzAU');
    expect(d.bridge.lanes[1].depositAddress).toBeNull();
    expect(d.bridge.config).toEqual({
      staleAfterSeconds: expected.proofOfReserves.staleAfterSeconds,
      ratioDecimals: expected.proofOfReserves.ratioDecimals,
      attestation: expected.attestation,
    });
    expect(d.bridge.config).toMatchObject({
      staleAfterSeconds: 3600,
      ratioDecimals: 6,
      attestation: { algorithm: 'ed25519', publicKey: KEY.publicKey, pinned: false },
    });
  });

  it('proofOfReserves: the /api/proof-of-reserves figures and signature, over the same canonical bytes', async () => {
    clock.now = T0 + 120_000;
    const expected = (await rest(app, '/api/proof-of-reserves')).body;
    const p = (await ok(sg, PROOF)).bridge.proofOfReserves as Body;
    expect(p).toMatchObject({
      snapshotId: expected.snapshotId,
      stale: false,
      ageSeconds: 120,
      staleAfterSeconds: expected.staleAfterSeconds,
      dataAsOf: expected.dataAsOf,
    });
    expect(expected).toMatchObject({ stale: false, ageSeconds: 120 });
    expect(p.report).toEqual(graphView(expected.report));
    expect(p.report.assets.map((a: Body) => [a.ticker, a.ratio])).toEqual([
      ['LKY', '1.002034'],
      ['DOGE', null],
    ]);
    expect(p.attestation).toEqual({ ...expected.attestation, canonical: clientCanonical(expected.report) });
    expect(JSON.parse(p.attestation.canonical)).toEqual(expected.report);
  });

  it('a client verifies the graph proof with node:crypto, with the key from config; tampering fails', async () => {
    const d = await ok(
      sg,
      `{ bridge { config { attestation { publicKey } } proofOfReserves { attestation { signature canonical } } } }`,
    );
    const publicKey = d.bridge.config.attestation.publicKey as string;
    const { signature, canonical } = d.bridge.proofOfReserves.attestation as Body;
    expect(publicKey).toBe(KEY.publicKey);
    expect(clientVerifies(publicKey, canonical, signature)).toBe(true);
    // The canonical text is the canonical JSON of the report it carries: a client may check and then use it.
    expect(clientCanonical(JSON.parse(canonical))).toBe(canonical);

    const tampered = [
      canonical.replace('"1152340000000"', '"1152340000001"'),
      canonical.replace('"recorded"', '"live"'),
      canonical.replace('"ratio":"1.002034"', '"ratio":"2.000000"'),
      canonical.replace('"testnet"', '"mainnet"'),
      `${canonical} `,
    ];
    for (const t of tampered) {
      expect(t).not.toBe(canonical);
      expect(clientVerifies(publicKey, t, signature)).toBe(false);
    }
    expect(clientVerifies(keyFromSeedHex('11'.repeat(32)).publicKey, canonical, signature)).toBe(false);
  });

  it('stale by the fake clock, as REST: past staleAfterMs, and a fresh signature over old figures', async () => {
    const STALE = `{ bridge { proofOfReserves { snapshotId stale ageSeconds } } }`;
    clock.now = T0 + STALE_AFTER_MS;
    expect((await ok(sg, STALE)).bridge.proofOfReserves).toMatchObject({ stale: false, ageSeconds: 3600 });
    clock.now = T0 + STALE_AFTER_MS + 1;
    let expected = (await rest(app, '/api/proof-of-reserves')).body;
    expect((await ok(sg, STALE)).bridge.proofOfReserves).toEqual({
      snapshotId: expected.snapshotId,
      stale: true,
      ageSeconds: 3600,
    });
    expect(expected).toMatchObject({ stale: true, ageSeconds: 3600 });

    // Signed a day later over the same recorded (2026-01-01) balances: the figures are what is old.
    const s = await takeSnapshot(db, deployment, RecordedChainData.load('testnet'), KEY, T0 + 86_400_000);
    clock.now = T0 + 86_400_000 + 10_000;
    expected = (await rest(app, '/api/proof-of-reserves')).body;
    expect((await ok(sg, STALE)).bridge.proofOfReserves).toEqual({
      snapshotId: s.id,
      stale: true,
      ageSeconds: 86_410,
    });
    expect(expected).toMatchObject({ snapshotId: s.id, stale: true, ageSeconds: 86_410 });
  });

  it('one snapshot read per request: proofOfReserves thrice (aliases) + coins + nested reserves + config', async () => {
    // A new snapshot: the embedded store's in-memory copy of the latest one is invalidated by the write.
    const taken = await takeSnapshot(
      db,
      deployment,
      RecordedChainData.load('testnet'),
      KEY,
      T0 + 2 * 86_400_000,
    );
    queries.length = 0;
    batches.length = 0;
    const d = await ok(
      sg,
      `{ bridge {
        a: proofOfReserves { snapshotId }
        b: proofOfReserves { stale ageSeconds report { assets { ticker coin { id } reserves { total addresses { balance } } } } }
        c: proofOfReserves { attestation { signature } }
        coins { ticker coin { id } reserveAddresses lanes { id } }
        config { attestation { publicKey } }
      } }`,
    );
    expect(d.bridge.a.snapshotId).toBe(taken.id);
    expect(await latestId()).toBe(taken.id);
    expect(d.bridge.b.report.assets.map((a: Body) => a.coin.id)).toEqual(['luckycoin', 'dogecoin']);
    expect(queries).toHaveLength(1);
    expect(queries[0]).toMatch(/FROM bridge_snapshots/);
    // One batch per loader: the three aliases share one key, the assets' tickers hit the coins' cached ones.
    const keysOf = (loader: string) => batches.filter((b) => b.loader === loader).map((b) => [...b.keys]);
    expect(keysOf('latestSnapshot')).toEqual([['testnet']]);
    expect(keysOf('coinIdByTicker')).toEqual([['LKY', 'DOGE']]);
    expect(batches).toHaveLength(2);

    // Fresh loaders per request, but the latest snapshot is kept in memory until the next one is taken: no read.
    const again = await ok(
      sg,
      `{ bridge { x: proofOfReserves { snapshotId } y: proofOfReserves { stale } } }`,
    );
    expect(again.bridge.x.snapshotId).toBe(taken.id);
    expect(queries).toHaveLength(1);
    // Nothing that needs a snapshot, nothing read.
    await ok(
      sg,
      `{ bridge { network coins { coin { id } lanes { id status } } config { staleAfterSeconds } } }`,
    );
    expect(queries).toHaveLength(1);
    // The next snapshot (written through the raw store, not the counted one) is served from the next request on.
    const next = await takeSnapshot(
      db,
      deployment,
      RecordedChainData.load('testnet'),
      KEY,
      T0 + 3 * 86_400_000,
    );
    const after = await ok(sg, `{ bridge { proofOfReserves { snapshotId } } }`);
    expect(after.bridge.proofOfReserves.snapshotId).toBe(next.id);
    expect(queries).toHaveLength(2);
  });

  it('_entities: nothing is resolved here (the Coin stub is resolvable: false); a reference is echoed unread', async () => {
    queries.length = 0;
    const svc = await ok(sg, `{ _service { sdl } }`);
    expect(svc._service.sdl).toMatch(/type Coin\s+@key\(fields: "id", resolvable: false\)/);
    const r = await graphql({
      schema: sg.schema,
      source: `query ($reps: [_Any!]!) { _entities(representations: $reps) { ... on Coin { id } } }`,
      variableValues: { reps: [{ __typename: 'Coin', id: 'luckycoin' }] },
      contextValue: sg.contextFor(),
    });
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ _entities: [{ id: 'luckycoin' }] });
    expect(queries).toEqual([]);
  });
});
