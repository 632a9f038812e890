import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFromSeedHex } from '../../src/bridge/attestation.ts';
import { RecordedChainData } from '../../src/bridge/chain-data.ts';
import { loadDeployment } from '../../src/bridge/deployment.ts';
import type { Deployment } from '../../src/bridge/model.ts';
import { ensureDemoSnapshot, takeSnapshot } from '../../src/bridge/snapshots.ts';
import { BridgeService } from '../../src/bridge/service.ts';
import { bridgeApi } from '../../src/rest/bridge/index.ts';
import { registerErrorHandling } from '../../src/server/host/render.ts';
import type { Db } from '../../src/store/db.ts';
import { openMemoryDb } from '../support/memory-db.ts';

const T0 = 1_767_225_600_000; // 2026-01-01T00:00:00Z
type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function apiFor(db: Db, deployment: Deployment, clock: { now: number }): Promise<FastifyInstance> {
  const app = Fastify();
  registerErrorHandling(app);
  await app.register(bridgeApi, {
    prefix: '/api',
    bridge: new BridgeService(db, { deployment, now: () => clock.now, staleAfterMs: 3_600_000 }),
  });
  await app.ready();
  return app;
}

async function get(app: FastifyInstance, url: string, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'GET', url, headers });
  return {
    status: res.statusCode,
    headers: res.headers,
    body: (res.body ? JSON.parse(res.body) : null) as Body,
  };
}

/** The canonical JSON exactly as docs/bridge.md states it, written independently of src/bridge/canonical.ts. */
function clientCanonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(clientCanonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${clientCanonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** What a client does: key from /api/config, report from /api/proof-of-reserves, node:crypto ed25519 verify. */
function clientVerifies(config: Body, por: Body): boolean {
  const key = createPublicKey({
    key: {
      kty: 'OKP',
      crv: 'Ed25519',
      x: Buffer.from(config.attestation.publicKey, 'hex').toString('base64url'),
    },
    format: 'jwk',
  });
  const msg = Buffer.from(clientCanonical(por.report), 'utf8');
  return verify(null, msg, key, Buffer.from(por.attestation.signature, 'hex'));
}

describe('bridge API (testnet, demo snapshot)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bridge-api-'));
  const deployment = loadDeployment('testnet');
  const clock = { now: T0 };
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    db = await openMemoryDb();
    app = await apiFor(db, deployment, clock);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('404 NO_SNAPSHOT before any snapshot, telling how to make one; config has no key yet', async () => {
    const r = await get(app, '/api/proof-of-reserves');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('NO_SNAPSHOT');
    expect(r.body.error.message).toContain('coinwallet bridge snapshot --network testnet');
    expect((await get(app, '/api/config')).body.attestation.publicKey).toBeNull();
  });

  it('ensureDemoSnapshot creates one snapshot, then leaves it', async () => {
    const a = await ensureDemoSnapshot(db, deployment, dataDir, T0);
    expect(a.status).toBe('created');
    const b = await ensureDemoSnapshot(db, deployment, dataDir, T0 + 5_000);
    expect(b.status).toBe('exists');
  });

  it('GET /api/coins: coin metadata with lane terms, ETag and Cache-Control', async () => {
    const r = await get(app, '/api/coins');
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('public, max-age=300');
    expect(r.body.network).toBe('testnet');
    const lky = r.body.coins[0];
    expect(lky).toMatchObject({
      ticker: 'LKY',
      name: 'Luckycoin',
      decimals: 8,
      nativeChain: { id: 'luckycoin-testnet', name: 'Luckycoin testnet' },
      wrapped: { ticker: 'wLKY', decimals: 8, chain: { id: 'solana-devnet' } },
      paused: false,
    });
    expect(lky.lanes[0]).toEqual({
      id: 'lky-wrap',
      direction: 'wrap',
      from: 'luckycoin-testnet',
      to: 'solana-devnet',
      status: 'active',
      paused: false,
      pausedReason: null,
      confirmations: 6,
      minAmount: '100000000',
      maxAmount: '1000000000000',
      fees: { fixed: '10000000', percent: 0.1 },
    });
    const doge = r.body.coins[1];
    expect(doge.lanes[1]).toMatchObject({
      id: 'doge-unwrap',
      paused: true,
      pausedReason: expect.any(String),
    });
    const again = await get(app, '/api/coins', { 'if-none-match': r.headers.etag as string });
    expect(again.status).toBe(304);
  });

  it('GET /api/config: network, version, lanes with deposit addresses, the attesting key', async () => {
    const r = await get(app, '/api/config');
    expect(r.status).toBe(200);
    expect(r.headers.etag).toMatch(/^"/);
    expect(r.headers['cache-control']).toBe('public, max-age=60');
    expect(r.body).toMatchObject({ network: 'testnet', version: '2026.1.0-testnet' });
    expect(r.body.lanes.map((l: Body) => [l.id, l.direction, l.status])).toEqual([
      ['lky-wrap', 'wrap', 'active'],
      ['lky-unwrap', 'unwrap', 'active'],
      ['doge-wrap', 'wrap', 'active'],
      ['doge-unwrap', 'unwrap', 'paused'],
    ]);
    expect(r.body.lanes[0].depositAddress).toBe('npyK4QkJUoAyvG4JfFGSTMMaRPWcXHHzAU');
    expect(r.body.lanes[1].depositAddress).toBeNull();
    expect(r.body.attestation).toMatchObject({ algorithm: 'ed25519', pinned: false });
    expect(r.body.attestation.publicKey).toMatch(/^[0-9a-f]{64}$/);
    expect(r.body.proofOfReserves.staleAfterSeconds).toBe(3600);
  });

  it('GET /api/proof-of-reserves: per asset reserves, liabilities, ratio; fresh', async () => {
    clock.now = T0 + 120_000;
    const r = await get(app, '/api/proof-of-reserves');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      network: 'testnet',
      stale: false,
      ageSeconds: 120,
      staleAfterSeconds: 3600,
    });
    expect(r.body.report).toMatchObject({
      schema: 'coinwallet.bridge.proof-of-reserves/v1',
      network: 'testnet',
      source: 'recorded',
      generatedAt: '2026-01-01T00:00:00.000Z',
    });
    const [lky, doge] = r.body.report.assets;
    expect(lky.reserves.total).toBe('1152340000000');
    expect(lky.reserves.addresses[0]).toEqual({
      address: 'npyK4QkJUoAyvG4JfFGSTMMaRPWcXHHzAU',
      balance: '152340000000',
      height: 412880,
      time: '2026-01-01T00:00:00Z',
    });
    expect(lky.liabilities).toMatchObject({ supply: '1150000000000', slot: 381204555, ticker: 'wLKY' });
    expect(lky.ratio).toBe('1.002034'); // 11523.4 / 11500, rounded down
    expect(doge.liabilities.supply).toBe('0');
    expect(doge.ratio).toBeNull();
  });

  it('verifies exactly as a client would, and any tampering fails', async () => {
    const config = (await get(app, '/api/config')).body;
    const por = (await get(app, '/api/proof-of-reserves')).body;
    expect(por.attestation.publicKey).toBe(config.attestation.publicKey);
    expect(clientVerifies(config, por)).toBe(true);

    const tampered: ((b: Body) => void)[] = [
      (b) => (b.report.assets[0].reserves.total = '1152340000001'),
      (b) => (b.report.assets[0].reserves.addresses[1].balance = '1'),
      (b) => (b.report.assets[0].liabilities.supply = '1'),
      (b) => (b.report.assets[0].ratio = '2.000000'),
      (b) => (b.report.assets[1].ratio = '0.000000'),
      (b) => (b.report.assets[0].reserves.addresses[0].height += 1),
      (b) => (b.report.generatedAt = '2026-06-01T00:00:00.000Z'),
      (b) => (b.report.source = 'live'),
      (b) => (b.report.network = 'mainnet'),
      (b) => b.report.assets.pop(),
      (b) => (b.report.extra = true),
    ];
    for (const t of tampered) {
      const copy = structuredClone(por);
      t(copy);
      expect(clientVerifies(config, copy)).toBe(false);
    }
    const otherKey = keyFromSeedHex('11'.repeat(32)).publicKey;
    expect(clientVerifies({ attestation: { publicKey: otherKey } }, por)).toBe(false);
  });

  it('a snapshot older than staleAfterMs says so, with its age', async () => {
    clock.now = T0 + 3_600_001;
    const r = await get(app, '/api/proof-of-reserves');
    expect(r.body).toMatchObject({ stale: true, ageSeconds: 3600 });
    clock.now = T0 + 2 * 86_400_000;
    expect((await get(app, '/api/proof-of-reserves')).body).toMatchObject({
      stale: true,
      ageSeconds: 172_800,
    });
  });

  it('serves the latest snapshot; a fresh signature over day-old chain data is still stale', async () => {
    const key = keyFromSeedHex('22'.repeat(32));
    const s = await takeSnapshot(db, deployment, RecordedChainData.load('testnet'), key, T0 + 86_400_000);
    clock.now = T0 + 86_400_000 + 10_000;
    const por = await get(app, '/api/proof-of-reserves');
    // The recorded balances are as of T0: the figures are a day and 10 s old, whatever the signing time.
    expect(por.body).toMatchObject({
      snapshotId: s.id,
      stale: true,
      ageSeconds: 86_410,
      dataAsOf: '2026-01-01T00:00:00.000Z',
    });
    const config = (await get(app, '/api/config')).body;
    expect(config.attestation.publicKey).toBe(key.publicKey);
    expect(clientVerifies(config, por.body)).toBe(true);
  });
});

describe('bridge API (mainnet, pinned key)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bridge-api-main-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('without the pinned key no snapshot is made or served; with it, it verifies', async () => {
    const key = keyFromSeedHex('33'.repeat(32));
    const shipped = loadDeployment('mainnet');
    const deployment: Deployment = { ...shipped, attestation: { publicKey: key.publicKey } };
    const db = await openMemoryDb();
    const clock = { now: T0 };
    const app = await apiFor(db, deployment, clock);
    try {
      const skipped = await ensureDemoSnapshot(db, deployment, dataDir, T0);
      expect(skipped).toMatchObject({
        status: 'skipped',
        reason: expect.stringMatching(/BRIDGE_ATTESTATION_KEY/),
      });
      const wrong = await ensureDemoSnapshot(db, deployment, dataDir, T0, { seedHex: '44'.repeat(32) });
      expect(wrong).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/does not match/) });
      // A snapshot signed by another key (e.g. before a key change) is never served.
      await takeSnapshot(
        db,
        deployment,
        RecordedChainData.load('mainnet'),
        keyFromSeedHex('55'.repeat(32)),
        T0,
      );
      expect((await get(app, '/api/proof-of-reserves')).status).toBe(404);

      const ok = await ensureDemoSnapshot(db, deployment, dataDir, T0, { seedHex: '33'.repeat(32) });
      expect(ok.status).toBe('created');
      const config = (await get(app, '/api/config')).body;
      expect(config.attestation).toMatchObject({ publicKey: key.publicKey, pinned: true });
      const por = (await get(app, '/api/proof-of-reserves')).body;
      expect(por.report.assets.map((a: Body) => [a.ticker, a.ratio])).toEqual([['LKY', '1.002715']]);
      expect(clientVerifies(config, por)).toBe(true);
      const coins = (await get(app, '/api/coins')).body;
      expect(coins.coins.map((c: Body) => c.ticker)).toEqual(['LKY']);
    } finally {
      await app.close();
      await db.close();
    }
  });
});
