/**
 * Variants of the bridge subgraph beside the REST bridge API (see `bridge.test.ts`): a deployment whose ticker markets
 * does not track and whose lanes are all paused, and a mainnet deployment with a pinned attestation key.
 */
import { describe, expect, it } from 'vitest';
import { keyFromSeedHex } from '../../src/bridge/attestation.ts';
import { RecordedChainData } from '../../src/bridge/chain-data.ts';
import { loadDeployment } from '../../src/bridge/deployment.ts';
import type { Deployment } from '../../src/bridge/model.ts';
import { takeSnapshot } from '../../src/bridge/snapshots.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { BridgeService } from '../../src/bridge/service.ts';
import { createBridgeSubgraph } from '../../subgraphs/bridge/index.ts';
import { countingDb } from '../support/counting-db.ts';
import {
  clientCanonical,
  clientVerifies,
  ok,
  PROOF,
  rest,
  restFor,
  run,
  STALE_AFTER_MS,
  T0,
} from './support/bridge.ts';
import type { Body } from './support/bridge.ts';

describe('bridge subgraph (variants)', () => {
  it('coin is null for a ticker markets does not track; a coin is paused when all its lanes are', async () => {
    const base = loadDeployment('testnet');
    const rename = (t: string): string => (t === 'DOGE' ? 'TDOGE' : t);
    const deployment: Deployment = {
      ...base,
      assets: base.assets.map((a) => ({ ...a, ticker: rename(a.ticker) })),
      lanes: base.lanes.map((l) => ({
        ...l,
        asset: rename(l.asset),
        ...(l.asset === 'DOGE' ? { status: 'paused' as const, pausedReason: 'maintenance' } : {}),
      })),
    };
    const db = await openMemoryDb();
    try {
      const sg = createBridgeSubgraph({
        bridge: new BridgeService(db, { deployment, staleAfterMs: STALE_AFTER_MS, now: () => T0 }),
      });
      const d = await ok(
        sg,
        `{ bridge { coins { ticker coin { id } paused lanes { status pausedReason } } } }`,
      );
      expect(d.bridge.coins).toEqual([
        {
          ticker: 'LKY',
          coin: { id: 'luckycoin' },
          paused: false,
          lanes: [
            { status: 'ACTIVE', pausedReason: null },
            { status: 'ACTIVE', pausedReason: null },
          ],
        },
        {
          ticker: 'TDOGE',
          coin: null,
          paused: true,
          lanes: [
            { status: 'PAUSED', pausedReason: 'maintenance' },
            { status: 'PAUSED', pausedReason: 'maintenance' },
          ],
        },
      ]);
    } finally {
      await db.close();
    }
  });

  it('mainnet, pinned key: config reads nothing; a snapshot signed by another key is never served', async () => {
    const key = keyFromSeedHex('33'.repeat(32));
    const deployment: Deployment = {
      ...loadDeployment('mainnet'),
      attestation: { publicKey: key.publicKey },
    };
    const raw = await openMemoryDb();
    const queries: string[] = [];
    const clock = { now: T0 };
    const app = await restFor(raw, deployment, clock);
    try {
      const sg = createBridgeSubgraph({
        bridge: new BridgeService(countingDb(raw, queries), {
          deployment,
          staleAfterMs: STALE_AFTER_MS,
          now: () => clock.now,
        }),
      });
      const CONFIG = `{ bridge { network config { attestation { publicKey pinned } } } }`;
      expect((await ok(sg, CONFIG)).bridge).toEqual({
        network: 'MAINNET',
        config: { attestation: { publicKey: key.publicKey, pinned: true } },
      });
      expect(queries).toEqual([]);

      await takeSnapshot(
        raw,
        deployment,
        RecordedChainData.load('mainnet'),
        keyFromSeedHex('55'.repeat(32)),
        T0,
      );
      expect((await rest(app, '/api/proof-of-reserves')).status).toBe(404);
      const none = await run(sg, `{ bridge { proofOfReserves { snapshotId } } }`);
      expect(none.errors).toBeUndefined();
      expect(none.data).toEqual({ bridge: { proofOfReserves: null } });

      await takeSnapshot(raw, deployment, RecordedChainData.load('mainnet'), key, T0);
      clock.now = T0 + 60_000;
      const expected = (await rest(app, '/api/proof-of-reserves')).body;
      const p = (await ok(sg, PROOF)).bridge.proofOfReserves as Body;
      expect(p.report.assets.map((a: Body) => [a.ticker, a.coin, a.ratio])).toEqual([
        ['LKY', { id: 'luckycoin' }, '1.002715'],
      ]);
      expect(p.attestation.signature).toBe(expected.attestation.signature);
      expect(p.attestation.canonical).toBe(clientCanonical(expected.report));
      expect(clientVerifies(key.publicKey, p.attestation.canonical, p.attestation.signature)).toBe(true);
    } finally {
      await app.close();
      await raw.close();
    }
  });
});
